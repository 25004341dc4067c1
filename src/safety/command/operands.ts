// The words a read-only program really receives: globs expanded against the workspace the way bash expands them,
// and its operands told apart from its options (everything after `--` is an operand), so `uniq -- -f keep.txt`
// and `uniq *` are seen to name an output file.
import { promises as fs } from 'node:fs';
import picomatch from 'picomatch';
import type { SimpleCommand } from './analysis.js';
import { parseOptions } from './options.js';

/** One argument after expansion: its text, and the glob it came from (undefined for a written word). */
export interface ExpandedArg {
  text: string;
  glob?: string;
  /** True when the text is one of the glob's matches (false: it matched nothing, or could not be expanded). */
  matched?: boolean;
  /** Why the glob could not be expanded (it matches too many paths to check). */
  problem?: string;
}

/**
 * Expands each glob as bash does without nullglob, from the command's directory `cwd`: the sorted matches, or the
 * word itself when nothing matches.
 */
export async function expandGlobs(command: SimpleCommand, cwd: string): Promise<ExpandedArg[]> {
  const out: ExpandedArg[] = [];
  for (const [i, text] of command.argv.entries()) {
    if (i === 0 || !command.globs.includes(i)) {
      out.push({ text });
      continue;
    }
    const matches = await globMatches(text, cwd);
    if (matches === TOO_MANY) out.push({ text, glob: text, matched: false, problem: TOO_MANY });
    else if (matches.length === 0) out.push({ text, glob: text, matched: false });
    else for (const match of matches) out.push({ text: match, glob: text, matched: true });
  }
  return out;
}

export const TOO_MANY = 'matches too many paths to check';
/** Directory entries a glob may look at before it is given up on. */
const MAX_ENTRIES = 5000;

/** A part with a wildcard bash expands (`*`, `?`, `[`). */
const isPattern = (part: string): boolean => /[*?[]/.test(part);

/**
 * The paths a glob names, as bash expands it from `cwd`, written as the glob is (`src/*\/core.py` → `src/a/core.py`),
 * sorted; a wildcard in any part, a trailing `/` keeping directories only. A part starting with `.` may match `.`
 * and `..` (bash before 5.2 matches them), so `.*\/x` names the parent's `x`: checked, never dropped.
 */
export async function globMatches(glob: string, cwd: string): Promise<string[] | typeof TOO_MANY> {
  const directoriesOnly = glob.endsWith('/');
  const parts = glob.split('/').filter((p, i) => p !== '' || i === 0);
  // Each candidate as written, and where it is from the command's directory (links resolved by the kernel).
  let found = [{ shown: '', at: cwd }];
  if (glob.startsWith('/')) {
    parts.shift();
    found = [{ shown: '/', at: '/' }];
  }
  let seen = 0;
  for (const part of parts) {
    const join = (base: string, name: string) =>
      base === '' || base.endsWith('/') ? `${base}${name}` : `${base}/${name}`;
    if (!isPattern(part)) {
      found = found.map((c) => ({ shown: join(c.shown, part), at: `${c.at}/${part}` }));
      continue;
    }
    const isMatch = picomatch(part, { dot: part.startsWith('.'), posix: true });
    const dots = part.startsWith('.')
      ? ['.', '..'].filter((d) => picomatch(part, { dot: true, posix: true })(d))
      : [];
    const next: typeof found = [];
    for (const c of found) {
      const entries = await fs.readdir(c.at).catch(() => [] as string[]);
      seen += entries.length;
      if (seen > MAX_ENTRIES) return TOO_MANY;
      for (const e of [...dots, ...entries.filter((e) => isMatch(e))]) {
        next.push({ shown: join(c.shown, e), at: `${c.at}/${e}` });
      }
    }
    found = next;
  }
  const kept: string[] = [];
  for (const c of found) {
    const stat = await (directoriesOnly ? fs.stat(c.at) : fs.lstat(c.at)).catch(() => undefined);
    if (stat && (!directoriesOnly || stat.isDirectory()))
      kept.push(directoriesOnly ? `${c.shown}/` : c.shown);
  }
  return kept.sort();
}

/** The options of a program that take the next word as their value (`-f N`, `--skip-fields N`). */
export interface ValueOptions {
  /** Long options (`--skip-fields`) and short ones (`-f`); a short one may end a cluster (`-cf 2`). */
  readonly valueFlags?: readonly string[];
}

/** The operands of `args` (argv without the program): not options nor their values; all words after `--`. */
export function operandIndexes(args: readonly string[], rule: ValueOptions): number[] {
  return parseOptions(args, { valued: rule.valueFlags ?? [] }).operands;
}

/** Index of the `--` ending the options in args, or args.length. */
export function endOfOptions(args: readonly string[]): number {
  const at = args.indexOf('--');
  return at === -1 ? args.length : at;
}
