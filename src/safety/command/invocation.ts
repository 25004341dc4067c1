// One program invocation as the denylist sees it (the command itself, or one a wrapper runs), the scope its acts
// are judged in, and helpers over its argument words shared by command-acts, code-acts and program-acts.
import type { ShellState, Word } from './paths.js';
import {
  type Add,
  checkDestruction,
  checkWrite,
  type Destruction,
  type TargetContext,
  targetOf,
} from './targets.js';

/** One program run by a simple command: the command itself, or one a wrapper (env, timeout, xargs) runs. */
export interface Invocation {
  /** The program's base name; undefined when it comes from an expansion. */
  program: string | undefined;
  /** This program's own arguments (a wrapper's options, not the command it runs). */
  args: Word[];
  /** Where standard input comes from: a pipe, a here-document or here-string (`heredoc` holds it), or elsewhere. */
  stdin: 'pipe' | 'heredoc' | 'other';
  heredoc?: string;
  /** xargs appends arguments read from standard input: the real targets are unknown. */
  fromXargs: boolean;
}

export interface ActScope {
  context: TargetContext;
  shell: ShellState;
  add: Add;
  /** Judges inline shell code (`bash -c`, a here-document fed to a shell) one level deeper; `piped`: it reads a pipe. */
  judgeScript(script: string, piped?: boolean): Promise<void>;
}

export const isOption = (w: Word): boolean => w.text.startsWith('-') && w.text !== '-';
export const hasFlag = (args: readonly Word[], long: readonly string[], letters = ''): boolean =>
  args.some(
    (w) =>
      long.some((l) => w.text === l || w.text.startsWith(`${l}=`)) ||
      (/^-[A-Za-z]+$/.test(w.text) && [...w.text.slice(1)].some((c) => letters.includes(c))),
  );
export const hasSubstitution = (w: Word): boolean => !w.literal && /\$\(|`|<\(/.test(w.text);

/** Operand words: not options, not values of the given options, everything after `--`. */
export function operandWords(args: readonly Word[], valueOptions: readonly string[] = []): Word[] {
  const found: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === '--') return [...found, ...args.slice(i + 1)];
    if (valueOptions.includes(w.text)) i++;
    else if (!isOption(w)) found.push(w);
  }
  return found;
}

/** The value of `-o x`, `--output x` or `--output=x`. */
export function optionValue(args: readonly Word[], names: readonly string[]): Word | undefined {
  for (const [i, w] of args.entries()) {
    if (names.includes(w.text)) return args[i + 1];
    const eq = w.text.indexOf('=');
    if (eq > 0 && names.includes(w.text.slice(0, eq))) return { ...w, text: w.text.slice(eq + 1) };
  }
  return undefined;
}

export async function destroy(words: readonly Word[], act: Destruction, recursive: boolean, scope: ActScope) {
  for (const word of words) {
    checkDestruction(await targetOf(word, scope.shell), word, act, recursive, scope.context, scope.add);
  }
}

export async function write(words: readonly (Word | undefined)[], scope: ActScope): Promise<void> {
  for (const word of words) {
    if (!word) continue;
    const target = await targetOf(word, scope.shell, scope.add);
    if (target !== 'unknown') checkWrite(target, scope.context, scope.add);
  }
}
