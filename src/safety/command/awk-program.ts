// Whether an awk invocation only prints: its options, and its program tokenised (strings, regular expressions,
// comments) so a `>` or `system` inside a string does not count, and one outside a string is never missed. When
// in doubt it refuses: a `/` is a regular expression only where it cannot be division, and `>` inside an action
// counts as a comparison only inside parentheses.

/** What an awk invocation reads: the indexes into args of its input operands, or why it is not read-only. */
export type AwkVerdict = { files: number[] } | { problem: string };

/** Names that run commands, read files or the environment, or reach awk's own argument list. */
const REFUSED_NAMES = new Set([
  'system',
  'getline',
  'ENVIRON',
  'PROCINFO',
  'ARGV',
  'ARGC',
  'SYMTAB',
  'FUNCTAB',
]);
/** Of those, the ones that run commands (`getline` too: `"cmd" | getline`). */
const RUNNING_NAMES = new Set(['system', 'getline']);
/** Keywords after which a `/` starts a regular expression rather than dividing. */
const REGEX_AFTER_WORDS = new Set(['print', 'printf', 'return', 'case', 'in']);

/** Index into awk's arguments (argv without `awk`) of its program text; a string says why there is none to judge. */
export function awkProgramIndex(args: readonly string[]): number | string {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    if (arg === '-F' || arg === '-v') i++;
    else if (!/^-[Fv]./s.test(arg)) {
      return `\`awk ${arg}\` can read a program from a file, load code or write files`;
    }
  }
  return i < args.length ? i : '`awk` without a program';
}

/** awk's arguments: `-F`, `-v` and `--`, then the program, then input files (or `var=value` assignments). */
export function awkVerdict(args: readonly string[]): AwkVerdict {
  const at = awkProgramIndex(args);
  if (typeof at === 'string') return { problem: at };
  const issue = awkProgramIssue(args[at] ?? '');
  if (issue) return { problem: issue.why };
  const files: number[] = [];
  for (let j = at + 1; j < args.length; j++) files.push(j);
  return { files };
}

/** Whether awk's program runs commands (system, pipes, getline, indirect calls): inline code, not a script to judge. */
export function awkRunsCommands(args: readonly string[]): boolean {
  const at = awkProgramIndex(args);
  return typeof at === 'number' && awkProgramIssue(args[at] ?? '')?.runs === true;
}

/** Why an awk program does more than print (runs, pipes, redirects, reads other files), or undefined. */
export function awkProgramIssue(program: string): { why: string; runs: boolean } | undefined {
  const p = program;
  const issue = (what: string, runs = false) => ({ why: `the awk program \`${program}\` ${what}`, runs });
  let braces = 0;
  let parens = 0;
  // Whether the last token ends an operand, after which `/` divides.
  let operand = false;
  for (let i = 0; i < p.length; ) {
    const c = p[i] ?? '';
    if (c === '#') {
      while (i < p.length && p[i] !== '\n') i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      if (c === '\n') operand = false;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      for (; j < p.length && p[j] !== '"'; j++) if (p[j] === '\\') j++;
      if (j >= p.length) return issue('has a string that does not end');
      i = j + 1;
      operand = true;
      continue;
    }
    if (c === '/' && !operand) {
      let j = i + 1;
      for (; j < p.length && p[j] !== '/'; j++) {
        if (p[j] === '\\') j++;
        else if (p[j] === '\n') return issue('has a regular expression that does not end');
      }
      if (j >= p.length) return issue('has a regular expression that does not end');
      i = j + 1;
      operand = true;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(p.slice(i))?.[0];
    if (name) {
      if (REFUSED_NAMES.has(name)) return issue(`uses \`${name}\``, RUNNING_NAMES.has(name));
      i += name.length;
      operand = !REGEX_AFTER_WORDS.has(name);
      continue;
    }
    const number = /^(\d+\.?\d*([eE][-+]?\d+)?|\.\d+)/.exec(p.slice(i))?.[0];
    if (number) {
      i += number.length;
      operand = true;
      continue;
    }
    if (c === '@') return issue('calls a function indirectly (`@`)', true);
    if (c === '|') {
      if (p[i + 1] !== '|') return issue('pipes to or from a command (`|`)', true);
      i += 2;
      operand = false;
      continue;
    }
    if (c === '>' && braces > 0 && parens === 0) {
      return issue('may redirect output to a file (`>` outside parentheses in an action)');
    }
    if (c === '{') braces++;
    else if (c === '}') braces = Math.max(0, braces - 1);
    else if (c === '(') parens++;
    else if (c === ')') parens = Math.max(0, parens - 1);
    // `)`, `]`, `$x`-ending and `++`/`--` end operands; every other punctuation expects one.
    operand = c === ')' || c === ']' || ((c === '+' || c === '-') && p[i + 1] === c && operand);
    if ((c === '+' || c === '-') && p[i + 1] === c) i++;
    i++;
  }
  return undefined;
}
