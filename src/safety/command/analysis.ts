// Shell command analysis: parses a bash command with tree-sitter into simple commands (argv with quotes
// removed) and flags every construct whose effect is not plain literal words.
import type { Node } from 'web-tree-sitter';
import { clip } from '../../core/text.js';
import { decodeAnsiC } from './ansi-c-string.js';
import { bashParser } from './bash-parser.js';
import { hiddenContinuation } from './continuation.js';
import {
  CONTROL_FLOW,
  heredocTails,
  lastSimpleCommand,
  OPERATORS,
  restoreDropped,
  testCommand,
} from './grammar-shapes.js';
import { readRedirect, type WordReader } from './redirects.js';
import { codeExpansions, hasControlCharacter } from './shell-text.js';
import {
  type CommandAnalysis,
  type CommandIssue,
  EMPTY_COMMAND,
  type IssueKind,
  type Redirect,
  type SimpleCommand,
  type WordValue,
} from './simple-command.js';

export type { CommandAnalysis, CommandIssue, IssueKind, Redirect, SimpleCommand } from './simple-command.js';

const short = (text: string): string => clip(text, 80);

class Analyzer implements WordReader {
  readonly commands: SimpleCommand[] = [];
  readonly issues: CommandIssue[] = [];
  readonly functions: { name: string; recursive: boolean }[] = [];
  readonly hidden: { text: string; why: string }[] = [];
  private readonly openFunctions: { name: string; recursive: boolean }[] = [];
  private scope = '';
  private scopes = 0;
  private stdinPipe = false;
  private connector = ';';
  /** Words the grammar put after a redirection's target, by the id of the command they are arguments of. */
  private readonly trailingArguments = new Map<number, Node[]>();

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
    this.commands.push({
      ...command,
      scope: this.scope,
      stdinPipe: this.stdinPipe,
      connector: this.connector,
    });
  }

  issue(kind: IssueKind, node: Node): void {
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
      case 'list': {
        // The first statement keeps the operator before the whole list; each later one gets the one before it.
        let operator = this.connector;
        for (const child of node.children) {
          if (child.isNamed) {
            this.connector = operator;
            this.statement(child, redirects);
            operator = ';';
          } else if (child.type === '&') {
            this.issue('background', node);
            operator = '&';
          } else if (!OPERATORS.has(child.type)) this.issue('parse_error', child);
          else operator = child.type;
        }
        return;
      }
      case 'command':
      case 'declaration_command':
      case 'unset_command':
        this.command(node, redirects);
        return;
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const own = node.namedChildren.filter((c) => body === null || c.id !== body.id);
        const extra: Node[] = [];
        const all = [...redirects, ...own.flatMap((r) => readRedirect(r, extra, this))];
        // `cat a > out ~/.ssh/id_rsa`: words after a redirection's target are the command's own arguments.
        const owner = extra.length > 0 && body ? lastSimpleCommand(body) : undefined;
        if (owner) this.trailingArguments.set(owner.id, extra);
        else if (extra.length > 0) this.issue('parse_error', node);
        // The parser puts what follows `<<EOF` on its line (`| sh`, `&& rm x`) inside the here-document node.
        const tails = own.flatMap((r) => (r.type === 'heredoc_redirect' ? heredocTails(r) : []));
        const run = () => {
          if (body) this.statement(body, all);
          // A bare `>file` still writes: record it as a command without a program.
          else this.push({ ...EMPTY_COMMAND, redirects: all, text: node.text });
          if (!restoreDropped(node, body, this.commands)) this.issue('parse_error', node);
        };
        if (tails.some((t) => t.type === 'pipeline')) this.inScope(run);
        else run();
        for (const tail of tails) {
          if (tail.type === 'pipeline') {
            for (const part of tail.namedChildren) this.inScope(() => this.statement(part, redirects), true);
          } else if (tail.isNamed) {
            // After `&&`, `||` or `;` the grammar's reading is the least certain: judged, and asked about where
            // nothing contains it (full mode without a sandbox).
            this.hidden.push({ text: short(tail.text), why: 'a command after a here-document' });
            this.statement(tail, redirects);
          } else if (tail.type === '&') this.issue('background', node);
          else if (!OPERATORS.has(tail.type)) this.issue('parse_error', tail);
        }
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
        this.push({ ...testCommand(node, (n) => this.word(n)), redirects, assignments: [], text: node.text });
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
  scanWords(node: Node): void {
    for (const child of node.namedChildren) {
      if (child.type === 'command_substitution' || child.type === 'process_substitution') this.word(child);
      else this.scanWords(child);
    }
  }

  private command(node: Node, redirects: Redirect[]): void {
    const argv: string[] = [];
    const globs: number[] = [];
    const nonLiteral: number[] = [];
    const numeric: number[] = [];
    const assignments: string[] = [];
    const own: Redirect[] = [];
    const argument = (target: Node, child: Node): void => {
      const word = this.word(target);
      if (/[*?[]/.test(word.shape)) globs.push(argv.length);
      if (/\{[^{}]*(,|\.\.)[^{}]*\}/.test(word.shape)) this.issue('brace_expansion', child);
      if (!word.literal) nonLiteral.push(argv.length);
      if (word.numeric) numeric.push(argv.length);
      argv.push(word.value);
    };
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
        // `cat < a.txt ~/.ssh/id_rsa`: the grammar reads every word after `<` as its target; bash only the first.
        const extra: Node[] = [];
        own.push(...readRedirect(child, extra, this));
        for (const word of extra) argument(word, word);
        continue;
      }
      argument(child.type === 'command_name' ? (child.namedChildren[0] ?? child) : child, child);
    }
    for (const word of this.trailingArguments.get(node.id) ?? []) argument(word, word);
    const program = argv[0];
    for (const fn of this.openFunctions) if (fn.name === program) fn.recursive = true;
    const literal = nonLiteral.length === 0;
    this.push({
      argv,
      literal,
      nonLiteral,
      numeric,
      globs,
      redirects: [...redirects, ...own],
      assignments,
      text: node.text,
    });
  }

  word(node: Node): WordValue {
    const text = node.text;
    switch (node.type) {
      case 'word': {
        const value = text.replace(/\\(\n|.)/gs, (_m, c: string) => (c === '\n' ? '' : c));
        return { value, literal: true, shape: text.replace(/\\(\n|.)/gs, '_') };
      }
      case 'regex': {
        // `[[ x =~ re ]]`: text, unless bash expands something in it (kept whole by the parser: unseen).
        const expands = /[`$]/.test(text);
        if (expands) this.hidden.push({ text: short(text), why: 'a regular expression with expansions' });
        return { value: text, literal: !expands, shape: '_' };
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
        let numeric = true;
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
            numeric &&= part.literal || part.numeric === true;
          }
        }
        return { value, literal, shape: quoted ? '_' : shape, numeric: !literal && numeric };
      }
      case 'simple_expansion':
        // `$$`, `$?` and `$#` are numbers: the read-only check lets echo print them.
        if (/^\$[$?#]$/.test(text)) {
          this.issue('special_parameter', node);
          return { value: text, literal: false, shape: '_', numeric: true };
        }
        this.issue('parameter_expansion', node);
        this.scanWords(node);
        return { value: text, literal: false, shape: '_' };
      case 'expansion':
        for (const why of codeExpansions(node.text)) this.hidden.push({ text: short(node.text), why });
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

/** Parses `source` as bash and lists its simple commands and every non-literal construct. */
export async function analyzeCommand(source: string): Promise<CommandAnalysis> {
  const parser = await bashParser();
  const tree = parser.parse(source);
  const analyzer = new Analyzer();
  let hidden = /\$\\\n/.test(source);
  if (!tree) {
    analyzer.issues.push({ kind: 'parse_error', text: short(source) });
  } else {
    try {
      if (tree.rootNode.hasError) analyzer.issues.push({ kind: 'parse_error', text: short(source) });
      analyzer.statement(tree.rootNode, []);
      hidden = hiddenContinuation(source, tree.rootNode);
    } finally {
      tree.delete();
    }
  }
  // bash joins `$\<newline>(` into `$(` (inside double quotes too) where the parser sees two pieces of text:
  // the substitution it hides would go unseen (Qwen Code issue 8582).
  if (hidden) {
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
    hidden: analyzer.hidden,
  };
}
