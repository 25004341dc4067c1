// The words a read-only program really receives: globs expanded against the workspace the way bash expands them,
// and its operands told apart from its options (everything after `--` is an operand), so `uniq -- -f keep.txt`
// and `uniq *` are seen to name an output file.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { Workspace } from '../workspace.js';
import type { SimpleCommand } from './analysis.js';

/** One argument after expansion: its text, and the glob it came from (undefined for a written word). */
export interface ExpandedArg {
  text: string;
  glob?: string;
  /** True when the text is one of the glob's matches (false: it matched nothing, or could not be expanded). */
  matched?: boolean;
}

/**
 * Expands each glob whose wildcards are all in its last component, as bash does without nullglob: the sorted
 * matches, or the word itself when nothing matches. Globs elsewhere (`*\/x`) stay one word; the path check
 * refuses those. A directory that cannot be read expands to nothing known: the word stays.
 */
export async function expandGlobs(command: SimpleCommand, workspace: Workspace): Promise<ExpandedArg[]> {
  const out: ExpandedArg[] = [];
  for (const [i, text] of command.argv.entries()) {
    if (i === 0 || !command.globs.includes(i)) {
      out.push({ text });
      continue;
    }
    const matches = await globMatches(text, workspace);
    if (matches.length === 0) out.push({ text, glob: text, matched: false });
    else for (const match of matches) out.push({ text: match, glob: text, matched: true });
  }
  return out;
}

async function globMatches(glob: string, workspace: Workspace): Promise<string[]> {
  const slash = glob.lastIndexOf('/');
  const dir = slash === -1 ? '' : glob.slice(0, slash + 1);
  const pattern = glob.slice(slash + 1);
  if (/[*?[]/.test(dir)) return [];
  const real = await workspace.resolve(dir === '' ? '.' : dir).catch(() => undefined);
  if (real === undefined) return [];
  const isMatch = picomatch(pattern, { dot: pattern.startsWith('.') });
  const entries = await fs.readdir(real).catch(() => [] as string[]);
  return entries
    .filter((e) => isMatch(e))
    .sort()
    .map((e) => (dir === '' ? e : path.posix.join(dir, e)));
}

/** The options of a program that take the next word as their value (`-f N`, `--skip-fields N`). */
export interface ValueOptions {
  /** Long options (`--skip-fields`) and short ones (`-f`); a short one may end a cluster (`-cf 2`). */
  readonly valueFlags?: readonly string[];
}

/** The operands of `args` (argv without the program): not options nor their values; all words after `--`. */
export function operandIndexes(args: readonly string[], rule: ValueOptions): number[] {
  const flags = rule.valueFlags ?? [];
  const letters = flags.filter((f) => /^-[A-Za-z0-9]$/.test(f)).map((f) => f[1]);
  const found: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      for (let j = i + 1; j < args.length; j++) found.push(j);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      found.push(i);
    } else if (arg.startsWith('--')) {
      if (!arg.includes('=') && flags.includes(arg)) i++;
    } else {
      // A short cluster: the first value letter takes the rest of the word, or the next word when it ends it.
      const at = [...arg.slice(1)].findIndex((c) => letters.includes(c));
      if (at !== -1 && at === arg.length - 2) i++;
    }
  }
  return found;
}

/** Index of the `--` ending the options in args, or args.length. */
export function endOfOptions(args: readonly string[]): number {
  const at = args.indexOf('--');
  return at === -1 ? args.length : at;
}
