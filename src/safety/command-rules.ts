// Command policy as data: the restricted-mode allowlist (per-program flag rules) and the wrappers unwrapped before
// judging a command (the denylist's tables are in act-rules.ts).

/** A table lookup that ignores inherited keys (`constructor`, `__proto__` are not programs we know). */
export function lookup<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

export interface AllowedProgram {
  /** Whether non-flag arguments name files (and so must stay inside the workspace). */
  pathArgs: boolean;
  /** Flags that make the program write, delete or run other programs. */
  deniedFlags?: readonly string[];
}

/** Read-only programs restricted runs without asking. */
export const ALLOWED_PROGRAMS: Readonly<Record<string, AllowedProgram>> = {
  ls: { pathArgs: true },
  cat: { pathArgs: true },
  head: { pathArgs: true },
  tail: { pathArgs: true },
  grep: { pathArgs: true },
  find: {
    pathArgs: true,
    deniedFlags: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fls', '-fprint', '-fprint0', '-fprintf'],
  },
  echo: { pathArgs: false },
  pwd: { pathArgs: false },
  which: { pathArgs: false },
  type: { pathArgs: false },
};

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
  rg: { letters: 'L', words: ['--follow'], instead: '`rg` without -L or --follow' },
};

/** Redirection targets that are never writes to the workspace. */
export const HARMLESS_REDIRECT_TARGETS: readonly string[] = ['/dev/null'];

/** Programs that run another command given as their arguments: unwrapped before denylist matching. */
export interface Wrapper {
  /** Options that take a separate value (`-n 5`). */
  valueFlags: readonly string[];
  /** Positional arguments before the wrapped command (timeout's duration). */
  positionals: number;
  /** Leading VAR=value words are skipped (env). */
  assignments?: boolean;
}

export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  env: {
    valueFlags: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'],
    positionals: 0,
    assignments: true,
  },
  timeout: { valueFlags: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  nice: { valueFlags: ['-n', '--adjustment'], positionals: 0 },
  ionice: { valueFlags: ['-c', '-n', '-p', '--class', '--classdata'], positionals: 0 },
  nohup: { valueFlags: [], positionals: 0 },
  setsid: { valueFlags: [], positionals: 0 },
  stdbuf: { valueFlags: ['-i', '-o', '-e'], positionals: 0 },
  command: { valueFlags: [], positionals: 0 },
  builtin: { valueFlags: [], positionals: 0 },
  time: { valueFlags: ['-f', '-o'], positionals: 0 },
  busybox: { valueFlags: [], positionals: 0 },
  exec: { valueFlags: ['-a'], positionals: 0 },
  sudo: {
    valueFlags: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'],
    positionals: 0,
    assignments: true,
  },
  doas: { valueFlags: ['-u', '-C'], positionals: 0 },
  xargs: {
    valueFlags: [
      '-I',
      '-i',
      '-n',
      '-P',
      '-d',
      '-L',
      '-l',
      '-s',
      '-a',
      '-E',
      '-e',
      '--arg-file',
      '--delimiter',
    ],
    positionals: 0,
  },
};
