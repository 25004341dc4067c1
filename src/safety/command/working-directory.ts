// The directory each command of a command line runs in: `cd`, `pushd` and `popd` followed through the line, each
// subshell keeping its own, a `cd` to a folder not made yet holding only after `&&`. The denylist and the read-only
// check both judge a command's relative paths from there.
import { promises as fs } from 'node:fs';
import { expandWord, resolvePath, resolveWord, type ShellState, type Word } from './paths.js';
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
 * following links (logical), the kernel after: when the two disagree (`cd here/..` with `here -> .`) the directory
 * is unknown, unless `-P` says physical.
 */
export async function shellAfter(words: readonly Word[], shell: ShellState): Promise<ShellState | undefined> {
  if (!isCd(words)) return undefined;
  const [first, ...rest] = words as [Word, ...Word[]];
  const physical = rest.some((w) => /^-[LPe@]*P[LPe@]*$/.test(w.text));
  const arg = rest.find((w) => !/^-[LPe@]+$/.test(w.text) && w.text !== '--');
  const moved = async (cwd: string | undefined): Promise<ShellState> => {
    const resolved = cwd === undefined ? undefined : await resolvePath(cwd);
    const real = resolved && 'real' in resolved ? resolved.real : undefined;
    const exists = real !== undefined && (await isDirectory(real));
    return { ...shell, cwd: real, oldCwd: shell.cwd, tentative: real !== undefined && !exists };
  };
  if (first.text === 'popd') return moved(undefined);
  if (!arg) return moved(shell.home);
  if (arg.text === '-' && arg.literal) return moved(shell.oldCwd);
  const text = expandWord(arg, shell);
  const kernel = text === undefined ? undefined : await resolveWord(text, shell);
  if (kernel === undefined || !('real' in kernel)) return moved(undefined);
  if (physical) return moved(kernel.real);
  const logical = await resolvePath(kernel.lexical);
  return moved('real' in logical && logical.real === kernel.real ? kernel.real : undefined);
}

/** The shell each command runs in, in order: a `cd` moves its own scope and the subshells started after it. */
export async function commandShells(
  commands: readonly SimpleCommand[],
  start: ShellState,
): Promise<ShellState[]> {
  const shells = new Map<string, ShellState>([['', start]]);
  const shellOf = (scope: string): ShellState => {
    for (let s = scope; ; s = s.slice(0, s.lastIndexOf('/'))) {
      const found = shells.get(s);
      if (found) return found;
    }
  };
  const found: ShellState[] = [];
  for (const command of commands) {
    let shell = shellOf(command.scope);
    if (shell.tentative && command.connector !== '&&') {
      // `cd new; cat ../x`: if the cd failed, `..` is the old directory's parent. Neither is known.
      shell = { ...shell, cwd: undefined, tentative: false };
      shells.set(command.scope, shell);
    }
    found.push(shell);
    const next = await shellAfter(wordsOf(command), shell);
    if (next) shells.set(command.scope, next);
  }
  return found;
}
