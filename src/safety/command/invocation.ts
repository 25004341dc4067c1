// One program invocation as the denylist sees it (the command itself, or one a wrapper runs), the scope its acts
// are judged in, and helpers over its argument words shared by command-acts, code-acts and program-acts.
import { parseOptions } from './options.js';
import type { ShellState, Word } from './paths.js';
import {
  type Add,
  checkDestruction,
  checkPath,
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

/** The words of argv as one shell line, each quoted as needed. */
export const asLine = (words: readonly Word[]): string =>
  words
    .map((w) => (/^[\w@%+=:,./-]+$/.test(w.text) ? w.text : `'${w.text.replace(/'/g, `'\\''`)}'`))
    .join(' ');

/**
 * A command line another program is handed (`script -c CMD`, `tmux new CMD`, `screen -dm CMD ARGS`): one word is a
 * shell line, more an argv; judged as a script, refused when any of it is built at run time.
 */
export async function judgeCommandText(
  program: string,
  words: readonly Word[],
  scope: ActScope,
): Promise<void> {
  if (words.length === 0) return;
  const built = words.find((w) => !w.literal);
  if (built) scope.add('deny', `\`${program}\` runs a command built at run time (\`${built.text}\`)`);
  else await scope.judgeScript(words.length === 1 ? words[0]!.text : asLine(words));
}

export const isOption = (w: Word): boolean => w.text.startsWith('-') && w.text !== '-';
export const hasFlag = (args: readonly Word[], long: readonly string[], letters = ''): boolean =>
  args.some(
    (w) =>
      long.some((l) => w.text === l || w.text.startsWith(`${l}=`)) ||
      (/^-[A-Za-z]+$/.test(w.text) && [...w.text.slice(1)].some((c) => letters.includes(c))),
  );
export const hasSubstitution = (w: Word): boolean => !w.literal && /\$\(|`|<\(/.test(w.text);

/** Operand words: not options, not values of the given options (`-t dir`, `-tdir`, `-vt dir`), all after `--`. */
export function operandWords(args: readonly Word[], valueOptions: readonly string[] = []): Word[] {
  const { operands } = parseOptions(
    args.map((w) => w.text),
    { valued: valueOptions },
  );
  return operands.map((i) => args[i] as Word);
}

/**
 * The value of the first of `names` given: `-o x`, `-ox`, `-vo x` (a cluster), `--output x` or `--output=x`.
 * `valued` are the program's other options that take a value, so a cluster is read as its parser reads it.
 */
export function optionValue(
  args: readonly Word[],
  names: readonly string[],
  valued: readonly string[] = [],
): Word | undefined {
  const { options } = parseOptions(
    args.map((w) => w.text),
    { valued: [...names, ...valued] },
  );
  const found = options.find((o) => names.includes(o.name) && o.at !== undefined);
  if (found?.at === undefined || found.value === undefined) return undefined;
  const word = args[found.at] as Word;
  return found.attached ? { ...word, text: found.value } : word;
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
    if (target === 'unknown') continue;
    // What a program writes is a path even where no such folder exists yet (`touch /new`, `cp a /new`).
    checkPath(target, scope.context, scope.add);
    checkWrite(target, scope.context, scope.add);
  }
}
