// Command policy as data: the read-only set (per-program flag rules), inline-code interpreters and the wrappers
// unwrapped before judging a command (the denylist's tables are in act-rules.ts).

/** A table lookup that ignores inherited keys (`constructor`, `__proto__` are not programs we know). */
export function lookup<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

export interface AllowedProgram {
  /** Whether non-flag arguments name files (and so must stay inside the workspace). */
  pathArgs: boolean;
  /** Options that make the program write, delete or run other programs: whole words, `--name=value`, abbreviations. */
  deniedFlags?: readonly string[];
  /** Short option letters refused alone or anywhere in a cluster (`sort -no x` writes x). */
  deniedLetters?: string;
  /** At most this many operands (`uniq IN OUT` writes OUT). */
  maxOperands?: number;
  /** The first operand is a pattern, not a file, unless `-e`/`-f` gave the pattern (grep, rg). */
  patternFirst?: boolean;
  /** Programs whose first argument is a subcommand: only these run, each with its own rule; no global options. */
  subcommands?: Readonly<Record<string, AllowedProgram>>;
  /** Only these options are accepted (git branch: listing only). */
  onlyFlags?: readonly string[];
  /** Options that take the next word as their value (for counting operands, and onlyFlags' values). */
  valueFlags?: readonly string[];
  /** The program's first operand is a script parsed on its own terms (sed-script.ts, awk-program.ts). */
  script?: 'sed' | 'awk';
  /** A shell: read-only when its `-c` script is (parsed and judged like a top-level command). */
  shell?: boolean;
  /** Every operand must match (env: only `NAME=value`, so no command runs; man: page names, not files). */
  operandPattern?: RegExp;
  /** Operands are accepted only when one of these options is present (`git branch --list <pattern>`). */
  operandsNeed?: readonly string[];
  /** Operands must not be directories: the program reads the files inside them, following their links (diff). */
  noDirectories?: boolean;
}

/** git options that run programs or write files, refused with every read-only subcommand (Codex's list). */
const GIT_DENIED = [
  '-c',
  '--config-env',
  '--output',
  '--exec',
  '--ext-diff',
  '--textconv',
  '--paginate',
  '--open-files-in-pager',
  // Signature checks run gpg.program; a subcommand's --help runs man or help.browser.
  '--show-signature',
  '--help',
];
const git = (extra: Partial<AllowedProgram> = {}): AllowedProgram => ({
  pathArgs: true,
  deniedFlags: GIT_DENIED,
  ...extra,
});

/** Read-only programs that run without asking, each with its flag rules (Codex's is_safe_command as data). */
export const ALLOWED_PROGRAMS: Readonly<Record<string, AllowedProgram>> = {
  ls: { pathArgs: true },
  cat: { pathArgs: true },
  head: { pathArgs: true },
  tail: { pathArgs: true },
  grep: { pathArgs: true, patternFirst: true },
  find: {
    pathArgs: true,
    deniedFlags: [
      '-exec',
      '-execdir',
      '-ok',
      '-okdir',
      '-delete',
      '-fls',
      '-fprint',
      '-fprint0',
      '-fprintf',
      '-files0-from',
    ],
  },
  // --files0-from reads the names of the files to read from a file: names the path check never sees.
  wc: { pathArgs: true, deniedFlags: ['--files0-from'] },
  sort: {
    pathArgs: true,
    deniedFlags: ['--output', '--compress-program', '--files0-from'],
    deniedLetters: 'o',
  },
  // uniq IN OUT writes OUT: its operands are counted after `--` and glob expansion, minus its options' values.
  uniq: {
    pathArgs: true,
    maxOperands: 1,
    valueFlags: ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars'],
  },
  cut: { pathArgs: true },
  diff: { pathArgs: true, noDirectories: true },
  file: { pathArgs: true, deniedFlags: ['--compile', '--files-from'], deniedLetters: 'Cf' },
  stat: { pathArgs: true },
  du: { pathArgs: true, deniedFlags: ['--files0-from'] },
  // -o writes the listing to a file; -R with -H writes 00Tree.html into every directory.
  tree: { pathArgs: true, deniedLetters: 'oR', deniedFlags: ['--output', '--fromfile'] },
  rg: {
    pathArgs: true,
    patternFirst: true,
    deniedFlags: ['--pre', '--hostname-bin', '--search-zip'],
    deniedLetters: 'z',
  },
  git: {
    pathArgs: true,
    subcommands: {
      status: git(),
      diff: git(),
      log: git(),
      show: git(),
      'rev-parse': git(),
      branch: git({
        onlyFlags: [
          '--list',
          '-l',
          '-a',
          '--all',
          '-r',
          '--remotes',
          '-v',
          '-vv',
          '--verbose',
          '--show-current',
          '--contains',
          '--no-contains',
          '--merged',
          '--no-merged',
          '--points-at',
          '--sort',
          '--format',
          '--color',
          '--no-color',
          '--column',
          '--no-column',
          '-q',
          '--quiet',
        ],
        valueFlags: [
          '--contains',
          '--no-contains',
          '--merged',
          '--no-merged',
          '--points-at',
          '--sort',
          '--format',
        ],
        operandsNeed: ['--list', '-l'],
      }),
      blame: git(),
      'ls-files': git(),
      'ls-tree': git(),
      // --filters and --textconv run the repository's filter and textconv programs.
      'cat-file': git({ deniedFlags: [...GIT_DENIED, '--filters'] }),
      describe: git(),
      shortlog: git(),
      // The user's name and email only: the identity every commit carries; other keys may hold tokens in URLs.
      config: git({
        pathArgs: false,
        onlyFlags: ['--get'],
        operandPattern: /^user\.(name|email)$/,
        maxOperands: 1,
      }),
      // Listing and get-url only: checked by gitRemoteProblem.
      remote: git({ pathArgs: false }),
      // Showing only: `expire` and `delete` are refused by gitReflogProblem.
      reflog: git({ pathArgs: false }),
      tag: git({
        onlyFlags: ['-l', '--list', '--sort', '--contains', '--no-contains', '--points-at', '--merged'],
        valueFlags: ['--sort', '--contains', '--no-contains', '--points-at', '--merged'],
        operandsNeed: ['-l', '--list'],
      }),
    },
  },
  sed: { pathArgs: true, script: 'sed' },
  awk: { pathArgs: true, script: 'awk' },
  gawk: { pathArgs: true, script: 'awk' },
  mawk: { pathArgs: true, script: 'awk' },
  nawk: { pathArgs: true, script: 'awk' },
  bash: { pathArgs: false, shell: true },
  sh: { pathArgs: false, shell: true },
  zsh: { pathArgs: false, shell: true },
  dash: { pathArgs: false, shell: true },
  tac: { pathArgs: true },
  nl: { pathArgs: true },
  rev: { pathArgs: true },
  paste: { pathArgs: true },
  numfmt: { pathArgs: false },
  // GNU base64 writes only to standard output; BSD's -o names an output file.
  base64: { pathArgs: true, deniedFlags: ['--output'], deniedLetters: 'o' },
  tr: { pathArgs: false },
  seq: { pathArgs: false },
  expr: { pathArgs: false },
  true: { pathArgs: false },
  // File tests and comparisons: `test -f x`, `[ -d x ]`, `[[ -n x && -f y ]]` (the brackets are their own words).
  test: { pathArgs: true },
  '[': { pathArgs: true },
  '[[': { pathArgs: true },
  false: { pathArgs: false },
  sleep: { pathArgs: false },
  whereis: { pathArgs: false },
  id: { pathArgs: false },
  uname: { pathArgs: false },
  whoami: { pathArgs: false },
  // printf -v NAME assigns a variable later commands of the shell see (PATH).
  printf: { pathArgs: false, deniedLetters: 'v' },
  // Without a command env only prints the environment, which holds only what command-env.ts passes on.
  env: { pathArgs: false, onlyFlags: ['-0', '--null'], operandPattern: /^[A-Za-z_][A-Za-z0-9_]*=/ },
  printenv: { pathArgs: false },
  // Page names only (a name with a slash is a file man would format).
  man: { pathArgs: false, onlyFlags: [], operandPattern: /^[A-Za-z0-9_.+:-]+$/ },
  echo: { pathArgs: false },
  pwd: { pathArgs: false },
  which: { pathArgs: false },
  type: { pathArgs: false },
};

/** The read-only set as shown to people and the model: `git status|diff|...` for programs with subcommands. */
export function readOnlyNames(): string[] {
  // Programs that take the same kind of script share one entry (`awk|gawk|mawk|nawk (...)`): every byte of the list
  // is sent with every request.
  const grouped = new Map<string, string[]>();
  const order: string[] = [];
  for (const [name, rule] of Object.entries(ALLOWED_PROGRAMS)) {
    const suffix = rule.subcommands
      ? `${name} ${Object.keys(rule.subcommands).join('|')}`
      : rule.shell
        ? " -c '<read-only commands>'"
        : rule.script === 'sed'
          ? ' (printing scripts: no w/W/e/r/R, no -i)'
          : rule.script === 'awk'
            ? ' (no system, getline, pipes or > in actions)'
            : name;
    const key = rule.subcommands || (!rule.shell && !rule.script) ? `=${suffix}` : suffix;
    if (!grouped.has(key)) order.push(key);
    grouped.set(key, [...(grouped.get(key) ?? []), name]);
  }
  return order.map((key) => (key.startsWith('=') ? key.slice(1) : `${grouped.get(key)?.join('|')}${key}`));
}

/**
 * Interpreters and the options that take a program as text: code the analyser cannot see through. Full mode
 * asks about them when commands run without a sandbox. `awk` is judged by its program (system(), pipes).
 */
export const INLINE_CODE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'],
  python2: ['-c'],
  python3: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  nodejs: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  bun: ['-e', '--eval', '-p', '--print'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  Rscript: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-Command', '-EncodedCommand'],
  // Editors, debuggers and make run their own command language, where `!cmd`, `shell cmd` or a recipe runs programs.
  vim: ['-c', '--cmd'],
  vi: ['-c', '--cmd'],
  nvim: ['-c', '--cmd'],
  ex: ['-c', '--cmd'],
  gdb: ['-ex', '--eval-command', '-iex', '--init-eval-command'],
  expect: ['-c'],
  make: ['--eval'],
};

/** awk and its variants: a program that calls system() or pipes to or from a command runs programs. */
export const AWK_PROGRAMS: readonly string[] = ['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk'];

/**
 * Options that make a program follow the symbolic links it finds while walking directories, so a link inside the
 * workspace reads what it points at outside. Links named on the command line are checked like any other path,
 * which is why `grep -r` and `find -H` stay allowed. Listed for programs not yet in the allowlist too, so adding
 * one there cannot forget its links.
 */
export interface LinkFollowing {
  /** Short option letters refused alone (`-L`) or anywhere in a cluster (`-lLR`); for getopt-style programs. */
  letters?: string;
  /** Options refused as a whole word or `--name=value`; long ones also as an abbreviation (`--deref`). */
  words?: readonly string[];
  /** What to use instead, for the refusal message. */
  instead: string;
}

export const LINK_FOLLOWING: Readonly<Record<string, LinkFollowing>> = {
  grep: {
    letters: 'R',
    words: ['--dereference-recursive'],
    instead: '`grep -r`, which skips links it finds',
  },
  // find takes no option clusters: -L and -follow are whole words (-H follows only the paths named).
  find: { words: ['-L', '-follow'], instead: '`find` without -L or -follow' },
  // ls -L reports what each link points at; with -R it lists the directories they lead to.
  ls: {
    letters: 'L',
    words: ['--dereference'],
    instead: '`ls` without -L (`ls -l` shows where links point)',
  },
  tree: { letters: 'l', instead: '`tree` without -l' },
  du: { letters: 'L', words: ['--dereference'], instead: '`du` without -L' },
  // diff -r compares the files inside directories, following the links it finds there.
  diff: { letters: 'r', words: ['--recursive'], instead: '`diff` of files named one by one, or `git diff`' },
  rg: { letters: 'L', words: ['--follow'], instead: '`rg` without -L or --follow' },
};

/** Redirection targets that are never writes to the workspace. */
export const HARMLESS_REDIRECT_TARGETS: readonly string[] = ['/dev/null'];

export { WRAPPERS, type Wrapper, wrappedStart } from './wrappers.js';
