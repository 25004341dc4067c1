// Shell command analysis: parses a bash command with tree-sitter into simple commands (argv with quotes
// removed) and flags every construct whose effect is not plain literal words.
import type { Node } from 'web-tree-sitter';
import { clip } from '../../core/text.js';
import { decodeAnsiC } from './ansi-c-string.js';
import { bashParser } from './bash-parser.js';
import {
  type CommandIssue,
  EMPTY_COMMAND,
  type IssueKind,
  type Redirect,
  type SimpleCommand,
  type WordValue,
} from './simple-command.js';

export type { CommandIssue, IssueKind, Redirect, SimpleCommand } from './simple-command.js';

export interface CommandAnalysis {
  source: string;
  /** Every simple command, including those inside substitutions, groups and functions, in the order they run. */
  commands: SimpleCommand[];
  issues: CommandIssue[];
  /** Functions the command defines; `recursive` when the body calls the function itself (fork bombs). */
  functions: { name: string; recursive: boolean }[];
}

const OPERATORS = new Set([';', '&&', '||', '|', '|&', '&', '\n']);
const CONTROL_FLOW = new Set([
  'if_statement',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
]);

const short = (text: string): string => clip(text, 80);

class Analyzer {
  readonly commands: SimpleCommand[] = [];
  readonly issues: CommandIssue[] = [];
  readonly functions: { name: string; recursive: boolean }[] = [];
  private readonly openFunctions: { name: string; recursive: boolean }[] = [];
  private scope = '';
  private scopes = 0;
  private stdinPipe = false;

  /** Runs `body` in a new subshell scope (and, for a pipeline part, with stdin from the pipe). */
  private inScope(body: () => void, stdinPipe = this.stdinPipe): void {
    const [scope, pipe] = [this.scope, this.stdinPipe];
    this.scope = `${scope}/${++this.scopes}`;
    this.stdinPipe = stdinPipe;
    try {
      body();
    } finally {
      [this.scope, this.stdinPipe] = [scope, pipe];
    }
  }

  private push(command: Omit<SimpleCommand, 'scope' | 'stdinPipe'>): void {
    this.commands.push({ ...command, scope: this.scope, stdinPipe: this.stdinPipe });
  }

  private issue(kind: IssueKind, node: Node): void {
    this.issues.push({ kind, text: short(node.text) });
  }

  statement(node: Node, redirects: Redirect[]): void {
    switch (node.type) {
      case 'pipeline': {
        // Each part of a pipeline runs in its own subshell; every part after the first reads the pipe.
        let first = true;
        for (const child of node.children) {
          if (child.isNamed) {
            this.inScope(() => this.statement(child, redirects), this.stdinPipe || !first);
            first = false;
          } else if (!OPERATORS.has(child.type)) this.issue('parse_error', child);
        }
        return;
      }
      case 'program':
      case 'list':
        for (const child of node.children) {
          if (child.isNamed) this.statement(child, redirects);
          else if (child.type === '&') this.issue('background', node);
          else if (!OPERATORS.has(child.type)) this.issue('parse_error', child);
        }
        return;
      case 'command':
      case 'declaration_command':
      case 'unset_command':
        this.command(node, redirects);
        return;
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const own = node.namedChildren.filter((c) => body === null || c.id !== body.id);
        const all = [...redirects, ...own.flatMap((r) => this.redirect(r))];
        if (body) this.statement(body, all);
        // A bare `>file` still writes: record it as a command without a program.
        else this.push({ ...EMPTY_COMMAND, redirects: all, text: node.text });
        return;
      }
      case 'function_definition': {
        this.issue('function', node);
        const fn = { name: node.childForFieldName('name')?.text ?? '', recursive: false };
        this.functions.push(fn);
        this.openFunctions.push(fn);
        this.inScope(() => {
          for (const child of node.namedChildren) if (child.type !== 'word') this.statement(child, redirects);
        });
        this.openFunctions.pop();
        return;
      }
      case 'subshell':
      case 'compound_statement':
        this.issue(node.type === 'subshell' ? 'subshell' : 'group', node);
        if (node.type === 'subshell') this.inScope(() => this.descend(node, redirects));
        else this.descend(node, redirects);
        return;
      case 'negated_command':
      case 'do_group':
      case 'elif_clause':
      case 'else_clause':
      case 'case_item':
        this.descend(node, redirects);
        return;
      case 'variable_assignment':
      case 'variable_assignments': {
        this.issue('assignment', node);
        // A bare `GIT_PAGER=x` changes what later commands run: recorded as a command without a program.
        const parts = node.type === 'variable_assignment' ? [node] : node.namedChildren;
        const assignments = parts.map((part) => this.word(part).value);
        this.push({ ...EMPTY_COMMAND, assignments, redirects, text: node.text });
        return;
      }
      case 'test_command':
        this.issue('test_expression', node);
        this.scanWords(node);
        return;
      case 'comment':
        return;
      case 'ERROR':
        this.issue('parse_error', node);
        this.scanWords(node);
        return;
      default:
        if (CONTROL_FLOW.has(node.type)) {
          this.issue('control_flow', node);
          this.descend(node, redirects);
          return;
        }
        // A word in statement position (a for-loop's list, a case value): still look inside it.
        this.word(node);
    }
  }

  private descend(node: Node, redirects: Redirect[]): void {
    for (const child of node.children) {
      if (child.isNamed) this.statement(child, redirects);
      else if (child.type === '&') this.issue('background', node);
    }
  }

  /** Finds substitutions anywhere below a node whose words are not otherwise evaluated. */
  private scanWords(node: Node): void {
    for (const child of node.namedChildren) {
      if (child.type === 'command_substitution' || child.type === 'process_substitution') this.word(child);
      else this.scanWords(child);
    }
  }

  private command(node: Node, redirects: Redirect[]): void {
    const argv: string[] = [];
    const globs: number[] = [];
    const nonLiteral: number[] = [];
    const assignments: string[] = [];
    const own: Redirect[] = [];
    // `export`/`local`/`unset` keywords are anonymous tokens; they are the program name.
    if (node.type !== 'command') argv.push(node.children[0]?.text ?? '');
    for (const child of node.children) {
      if (!child.isNamed) continue;
      if (child.type === 'variable_assignment' && node.type === 'command') {
        this.issue('assignment', child);
        assignments.push(this.word(child).value);
        continue;
      }
      if (child.type.endsWith('_redirect')) {
        own.push(...this.redirect(child));
        continue;
      }
      const target = child.type === 'command_name' ? (child.namedChildren[0] ?? child) : child;
      const word = this.word(target);
      if (/[*?[]/.test(word.shape)) globs.push(argv.length);
      if (/\{[^{}]*(,|\.\.)[^{}]*\}/.test(word.shape)) this.issue('brace_expansion', child);
      if (!word.literal) nonLiteral.push(argv.length);
      argv.push(word.value);
    }
    const program = argv[0];
    for (const fn of this.openFunctions) if (fn.name === program) fn.recursive = true;
    const literal = nonLiteral.length === 0;
    this.push({
      argv,
      literal,
      nonLiteral,
      globs,
      redirects: [...redirects, ...own],
      assignments,
      text: node.text,
    });
  }

  private redirect(node: Node): Redirect[] {
    if (node.type === 'heredoc_redirect') {
      this.issue('heredoc', node);
      this.scanWords(node);
      const body = node.namedChildren.find((c) => c.type === 'heredoc_body');
      const quoted = /^['"\\]/.test(node.namedChildren.find((c) => c.type === 'heredoc_start')?.text ?? '');
      const literal = quoted || (body?.namedChildren.length ?? 0) === 0;
      return [{ operator: '<<', target: body?.text ?? '', literal }];
    }
    if (node.type === 'herestring_redirect') {
      this.issue('heredoc', node);
      const words = node.namedChildren.map((c) => this.word(c));
      return [
        {
          operator: '<<<',
          target: words.map((w) => w.value).join(' '),
          literal: words.every((w) => w.literal),
        },
      ];
    }
    if (node.type !== 'file_redirect') {
      this.issue('unsupported_syntax', node);
      return [];
    }
    let fd: string | undefined;
    let operator = '';
    const targets: WordValue[] = [];
    for (const child of node.children) {
      if (child.type === 'file_descriptor') fd = child.text;
      else if (!child.isNamed) operator += child.text;
      else targets.push(this.word(child));
    }
    const target = targets.map((t) => t.value).join(' ');
    return [{ operator, fd, target, literal: targets.every((t) => t.literal) }];
  }

  word(node: Node): WordValue {
    const text = node.text;
    switch (node.type) {
      case 'word': {
        const value = text.replace(/\\(\n|.)/gs, (_m, c: string) => (c === '\n' ? '' : c));
        return { value, literal: true, shape: text.replace(/\\(\n|.)/gs, '_') };
      }
      case 'number':
      case 'variable_name':
        return { value: text, literal: true, shape: text };
      case 'raw_string':
        return { value: text.slice(1, -1), literal: true, shape: '_' };
      case 'ansi_c_string': {
        const value = decodeAnsiC(text.slice(2, -1));
        return { value, literal: true, shape: '_' };
      }
      case 'string':
      case 'translated_string':
      case 'concatenation':
      case 'variable_assignment': {
        const quoted = node.type !== 'concatenation' && node.type !== 'variable_assignment';
        let value = '';
        let shape = '';
        let literal = true;
        let end = node.startIndex;
        for (const child of node.children) {
          // Text between two children (a newline inside quotes) is part of the value too.
          if (quoted && child.startIndex > end)
            value += text.slice(end - node.startIndex, child.startIndex - node.startIndex);
          end = child.endIndex;
          if (child.type === 'string_content') {
            value += child.text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
          } else if (!child.isNamed) {
            if (!quoted) value += child.text;
          } else {
            const part = this.word(child);
            value += part.value;
            if (!quoted) shape += part.shape;
            literal &&= part.literal;
          }
        }
        return { value, literal, shape: quoted ? '_' : shape };
      }
      case 'simple_expansion':
      case 'expansion':
        this.issue('parameter_expansion', node);
        this.scanWords(node);
        return { value: text, literal: false, shape: '_' };
      case 'command_substitution':
      case 'process_substitution':
        this.issue(node.type, node);
        this.inScope(() => this.descend(node, []), false);
        return { value: text, literal: false, shape: '_' };
      case 'arithmetic_expansion':
        this.issue('arithmetic_expansion', node);
        this.scanWords(node);
        return { value: text, literal: false, shape: '_' };
      case 'brace_expression':
        this.issue('brace_expansion', node);
        return { value: text, literal: false, shape: '_' };
      default:
        this.issue('unsupported_syntax', node);
        this.scanWords(node);
        return { value: text, literal: false, shape: '_' };
    }
  }
}

/** Any C0 control character other than tab and newline, or DEL. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f) return true;
  }
  return false;
}

/** Parses `source` as bash and lists its simple commands and every non-literal construct. */
export async function analyzeCommand(source: string): Promise<CommandAnalysis> {
  const parser = await bashParser();
  const tree = parser.parse(source);
  const analyzer = new Analyzer();
  if (!tree) {
    analyzer.issues.push({ kind: 'parse_error', text: short(source) });
  } else {
    try {
      if (tree.rootNode.hasError) analyzer.issues.push({ kind: 'parse_error', text: short(source) });
      analyzer.statement(tree.rootNode, []);
    } finally {
      tree.delete();
    }
  }
  // bash joins `$\<newline>(` into `$(` (inside double quotes too) where the parser sees two pieces of text:
  // the substitution it hides would go unseen (Qwen Code issue 8582).
  if (/\$\\\n/.test(source)) {
    analyzer.issues.push({ kind: 'hidden_continuation', text: short(JSON.stringify(source)) });
  }
  // CR and other control characters make what is shown differ from what runs.
  const decoded = analyzer.commands.flatMap((c) => c.argv).join(' ');
  if (hasControlCharacter(source) || hasControlCharacter(decoded)) {
    analyzer.issues.push({ kind: 'control_character', text: short(JSON.stringify(source)) });
  }
  return {
    source,
    commands: analyzer.commands,
    issues: analyzer.issues,
    functions: analyzer.functions,
  };
}
