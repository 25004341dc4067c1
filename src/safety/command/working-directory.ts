// The directory each command of a command line runs in: `cd`, `pushd` and `popd` followed through the line (after a
// sourced script, unknown unless its text shows it stays), each
// subshell keeping its own, a `cd` to a folder not made yet holding only after `&&`, a backgrounded `cd x &` moving
// nothing, and the command after `cd x ||` running where the line was. The denylist and the read-only
// check both judge a command's relative paths from there.
import { promises as fs } from 'node:fs';
import { isAbsolute, normalize, resolve } from 'node:path';
import { analyzeCommand } from './analysis.js';
import { expandTilde, expandWord, resolvePath, resolveWord, type ShellState, type Word } from './paths.js';
import type { SimpleCommand } from './simple-command.js';

const isDirectory = (p: string): Promise<boolean> =>
  fs.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** The command's words as the checks see them: literal or not, glob or not. */
export function wordsOf(command: SimpleCommand): Word[] {
  return command.argv.map((text, i) => ({
    text,
    literal: !command.nonLiteral.includes(i),
    glob: command.globs.includes(i),
  }));
}

/** True for a literal `cd`, `pushd` or `popd`. */
export const isCd = (words: readonly Word[]): boolean =>
  words[0]?.literal === true && ['cd', 'pushd', 'popd'].includes(words[0].text);

/**
 * The shell after `cd` / `pushd` / `popd`; undefined for any other command. Bash's `cd` folds `..` before
 * following links (logical), from the logical directory it keeps in $PWD (after `cd link`, `cd ..` goes back to the
 * link's folder, not to the parent of where it leads); the kernel follows each link first. When the two disagree
 * (`cd here/..` with `here -> .`; `cd deep && cd ../..` with `deep -> a/b/c`) the directory is unknown, unless `-P`
 * says physical.
 */
export async function shellAfter(words: readonly Word[], shell: ShellState): Promise<ShellState | undefined> {
  if (!isCd(words)) return undefined;
  const [first, ...rest] = words as [Word, ...Word[]];
  const physical = rest.some((w) => /^-[LPe@]*P[LPe@]*$/.test(w.text));
  const arg = rest.find((w) => !/^-[LPe@]+$/.test(w.text) && w.text !== '--');
  const here = shell.logical ?? shell.cwd;
  const moved = async (cwd: string | undefined, logical?: string): Promise<ShellState> => {
    const resolved = cwd === undefined ? undefined : await resolvePath(cwd);
    const real = resolved && 'real' in resolved ? resolved.real : undefined;
    const exists = real !== undefined && (await isDirectory(real));
    return {
      ...shell,
      cwd: real,
      oldCwd: shell.cwd,
      logical: real === undefined ? undefined : (logical ?? real),
      oldLogical: here,
      tentative: real !== undefined && !exists,
    };
  };
  if (first.text === 'popd') return moved(undefined);
  if (!arg) return moved(shell.home, shell.home);
  if (arg.text === '-' && arg.literal) return moved(shell.oldCwd, shell.oldLogical ?? shell.oldCwd);
  const text = expandWord(arg, shell);
  // With CDPATH set, `cd name` looks in each of its folders first; only `/`, `.` and `..` paths bypass it.
  if (shell.cdpath && text !== undefined && !/^(\/|~|\.\.?(\/|$))/.test(text)) return moved(undefined);
  const kernel = text === undefined ? undefined : await resolveWord(text, shell);
  if (text === undefined || kernel === undefined || !('real' in kernel)) return moved(undefined);
  if (physical) return moved(kernel.real);
  const expanded = expandTilde(text, shell);
  const lexical = isAbsolute(expanded)
    ? normalize(expanded)
    : here === undefined
      ? undefined
      : resolve(here, expanded);
  const logical = lexical === undefined ? undefined : await resolvePath(lexical);
  return logical && 'real' in logical && logical.real === kernel.real
    ? moved(kernel.real, lexical)
    : moved(undefined);
}

/** A literal `source` or `.`: the script runs in this shell, and may `cd` (or set CDPATH) where no check sees. */
const sources = (command: SimpleCommand): boolean =>
  !command.nonLiteral.includes(0) && (command.argv[0] === 'source' || command.argv[0] === '.');

/** The most of a sourced script read to see whether it may move the shell. */
const MAX_SOURCED_BYTES = 256 * 1024;
/** Commands by which a sourced script may leave the shell elsewhere, or run text no check reads. */
const MOVERS = new Set([
  'cd',
  'pushd',
  'popd',
  'source',
  '.',
  'eval',
  'exec',
  'builtin',
  'command',
  'trap',
  'enable',
]);

/**
 * Whether the script `source path` / `. path` runs leaves the directory where it was: a literal path with a slash
 * (without one bash may search PATH), read through the kernel's resolution, a regular file that parses and holds no
 * command that moves the shell, sets CDPATH or names its command at run time. A virtualenv's `bin/activate` is one.
 */
async function sourcedStaysPut(command: SimpleCommand, shell: ShellState): Promise<boolean> {
  const script = command.argv[1];
  if (script === undefined || command.nonLiteral.includes(1) || !script.includes('/')) return false;
  const resolved = await resolveWord(script, shell);
  if (!resolved || !('real' in resolved)) return false;
  let text: string;
  try {
    const handle = await fs.open(resolved.real, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size > MAX_SOURCED_BYTES) return false;
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
  const analysis = await analyzeCommand(text);
  if (analysis.issues.some((issue) => issue.kind === 'parse_error')) return false;
  return !analysis.commands.some(
    (c) => (c.argv.length > 0 && (c.nonLiteral.includes(0) || MOVERS.has(c.argv[0]!))) || setsCdpath(c),
  );
}

/** The command may set CDPATH (`CDPATH=x cd y`, `export CDPATH=x`, `read CDPATH`, `printf -v CDPATH`). */
const setsCdpath = (command: SimpleCommand): boolean =>
  command.assignments.some((a) => /^CDPATH\+?=/.test(a)) ||
  (SETTERS.includes(command.argv[0] ?? '') && command.argv.some((w) => /^CDPATH(\+?=|$)/.test(w)));
/** Builtins that set a variable named in their arguments. */
const SETTERS = [
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'read',
  'printf',
  'mapfile',
  'readarray',
  'getopts',
  'let',
];

/**
 * The shell each command runs in, in order: a `cd` moves its own scope and the subshells started after it. Within an
 * `&&`/`||` chain a `cd` may not have run: the command after `cd x ||` runs where the line was (only when the cd
 * failed), and after a chain holding a `cd` that may have failed or been skipped the directory is unknown; a chain
 * sent to the background (`cd x &`) moves nothing.
 */
export async function commandShells(
  commands: readonly SimpleCommand[],
  start: ShellState,
): Promise<ShellState[]> {
  const shells = new Map<string, ShellState>([['', start]]);
  // Commands never inherit CDPATH (exec/command-env.ts passes an allowlist): only the line itself can set it, and
  // from the command that does on, every cd may follow it.
  let cdpath = start.cdpath === true;
  const shellOf = (scope: string): ShellState => {
    for (let s = scope; ; s = s.slice(0, s.lastIndexOf('/'))) {
      const found = shells.get(s);
      if (found) return found;
    }
  };
  const unknown = (shell: ShellState): ShellState => ({ ...shell, cwd: undefined, tentative: false });
  const found: ShellState[] = [];
  // Per scope: the shell where the current `&&`/`||` chain began, and whether a cd in it may not have run.
  const chains = new Map<string, { start: ShellState; unsure: boolean }>();
  // The command before, when it was a cd: its scope and the shell before it.
  let lastCd: { scope: string; before: ShellState } | undefined;
  for (const command of commands) {
    const { scope, connector } = command;
    let shell = shellOf(scope);
    const chain = chains.get(scope);
    let afterThis: ShellState | undefined;
    // A scope's first command starts its chain, whatever operator came before the subshell (`ls && (cd x || y)`).
    if (chain && (connector === '&&' || connector === '||')) {
      if (connector === '||' && shell !== chain.start) {
        // Runs only if what came before failed: right after `cd x`, where the line was; else either.
        shell = lastCd?.scope === scope && lastCd.before === chain.start ? chain.start : unknown(chain.start);
        shells.set(scope, shell);
        afterThis = unknown(chain.start);
        chain.unsure = true;
      }
    } else {
      // A new chain. One sent to the background ran in a subshell; one with a cd that may not have run leaves the
      // directory unknown.
      if (chain && connector === '&') shell = chain.start;
      else if (chain?.unsure) shell = unknown(shell);
      shells.set(scope, shell);
      chains.set(scope, { start: shell, unsure: false });
    }
    if (shell.tentative && connector !== '&&') {
      // `cd new; cat ../x`: if the cd failed, `..` is the old directory's parent. Neither is known.
      shell = { ...shell, cwd: undefined, tentative: false };
      shells.set(scope, shell);
    }
    if (!cdpath && setsCdpath(command)) cdpath = true;
    if (cdpath && !shell.cdpath) shell = { ...shell, cdpath: true };
    found.push(shell);
    // After a sourced script the directory is unknown, as after `cd "$DIR"`: it may have moved, and set CDPATH —
    // unless its text shows it cannot.
    const next = sources(command)
      ? (await sourcedStaysPut(command, shell))
        ? undefined
        : { ...unknown(shell), cdpath: true }
      : await shellAfter(wordsOf(command), shell);
    if (next) {
      shells.set(scope, next);
      // A cd after `&&` or `||` may not run (what came before failed, or succeeded).
      const current = chains.get(scope);
      if (current && (connector === '&&' || connector === '||')) current.unsure = true;
    } else if (afterThis) shells.set(scope, afterThis);
    lastCd = next ? { scope, before: shell } : undefined;
  }
  return found;
}
