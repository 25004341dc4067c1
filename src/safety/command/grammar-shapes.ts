// The bash grammar's tree as bash reads it: its operators and control flow, a here-document's parts, a test
// expression (`[ … ]`, `[[ … ]]`) read as the words of the command `[` (`[[`), and a `-` written just before a
// here-document (`make -f - <<EOF`, `cat - <<EOF`), which the grammar puts in no node.
import type { Node } from 'web-tree-sitter';
import type { SimpleCommand, WordValue } from './simple-command.js';

/** Operators between statements. */
export const OPERATORS = new Set([';', '&&', '||', '|', '|&', '&', '\n']);
/** Statements that run others conditionally or repeatedly. */
export const CONTROL_FLOW = new Set([
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
]);

/** The parts of a test expression whose children are its words and operators. */
const TEST_EXPRESSIONS = new Set(['unary_expression', 'binary_expression', 'parenthesized_expression']);

/** `[ -f x ]` or `[[ -f x && -d y ]]` as the words of the command `[` (`[[`), in order; `word` reads a word. */
export function testCommand(
  node: Node,
  word: (node: Node) => WordValue,
): Pick<SimpleCommand, 'argv' | 'literal' | 'nonLiteral' | 'numeric' | 'globs'> {
  const argv: string[] = [];
  const globs: number[] = [];
  const nonLiteral: number[] = [];
  const numeric: number[] = [];
  // Only `[` expands globs; inside `[[` a pattern is matched, not expanded.
  const expands = node.children[0]?.type === '[';
  const add = (child: Node): void => {
    if (TEST_EXPRESSIONS.has(child.type)) {
      for (const part of child.children) add(part);
      return;
    }
    if (!child.isNamed || child.type === 'test_operator') {
      argv.push(child.text);
      return;
    }
    const value = word(child);
    if (expands && /[*?[]/.test(value.shape)) globs.push(argv.length);
    if (!value.literal) nonLiteral.push(argv.length);
    if (value.numeric) numeric.push(argv.length);
    argv.push(value.value);
  };
  for (const child of node.children) add(child);
  return { argv, literal: nonLiteral.length === 0, nonLiteral, numeric, globs };
}

/**
 * The words a redirected statement holds that the grammar left out of its tree: the text between the nodes it kept,
 * up to what follows a here-document's delimiter. Only `-` words are known to be lost this way; undefined when that text holds
 * anything else (the reading is unsure then).
 */
function droppedWords(statement: Node): string[] | undefined {
  const gaps: string[] = [];
  const between = (parts: readonly Node[]): void => {
    for (let i = 1; i < parts.length; i++) {
      const [before, after] = [parts[i - 1] as Node, parts[i] as Node];
      if (after.startIndex > before.endIndex)
        gaps.push(textBetween(statement, before.endIndex, after.startIndex));
    }
  };
  between(statement.children);
  // Inside a here-document's redirection: up to what follows its delimiter (a tail is a statement of its own).
  for (const redirect of statement.children.filter((c) => c.type === 'heredoc_redirect')) {
    const next = redirect.children.findIndex((c) => !['<<', '<<-', 'heredoc_start'].includes(c.type));
    between(next === -1 ? redirect.children : redirect.children.slice(0, next + 1));
  }
  // A line continuation is no word; a comment runs to the end of its line.
  const words = gaps
    .map((gap) => gap.replace(/\\\n/g, ' ').replace(/(^|\s)#[^\n]*/g, ' '))
    .flatMap((gap) => gap.split(/\s+/).filter((w) => w !== ''));
  return words.every((w) => w === '-') ? words : undefined;
}

/**
 * Puts the words the grammar dropped from a redirected statement back as the last words of its command, the last one
 * analysed (its substitutions' commands come before it). False when the reading is unsure: a parse error then.
 */
export function restoreDropped(statement: Node, body: Node | null, commands: SimpleCommand[]): boolean {
  const dropped = droppedWords(statement);
  if (dropped === undefined) return false;
  if (dropped.length === 0) return true;
  const own = commands.at(-1);
  if (body?.type !== 'command' || own === undefined) return false;
  own.argv.push(...dropped);
  return true;
}

/** The here-document's own parts: what is left (operators, commands, pipelines) follows the command. */
const HEREDOC_PARTS = new Set(['<<', '<<-', 'heredoc_start', 'heredoc_body', 'heredoc_end']);
export const heredocTails = (node: Node): Node[] =>
  node.children.filter((c) => !HEREDOC_PARTS.has(c.type) && !c.type.endsWith('_redirect'));

const textBetween = (node: Node, start: number, end: number): string =>
  node.text.slice(start - node.startIndex, end - node.startIndex);

/** The simple command a redirection written after `body` belongs to (the last of a pipeline); none for a group. */
export function lastSimpleCommand(body: Node): Node | undefined {
  if (body.type === 'command' || body.type === 'declaration_command' || body.type === 'unset_command')
    return body;
  if (body.type === 'pipeline') {
    const last = body.namedChildren.at(-1);
    return last ? lastSimpleCommand(last) : undefined;
  }
  return undefined;
}
