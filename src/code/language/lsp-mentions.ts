// The workspace files that name a symbol, to open them before a references or rename request: a server searches
// only the files of its program (pyright: the `include` of pyrightconfig.json or [tool.pyright], often `src` alone)
// plus the open ones, and a rename that misses the tests that call the old name breaks them silently.
import { promises as fs } from 'node:fs';
import { SKIPPED_DIRS, walkFiles } from '../../project/file-walk.js';

/** Files opened for one request, at most; a name used in more files than this is searched in the server's own. */
export const MAX_MENTIONS = 100;
/** Larger files are generated or data, not code that calls the symbol. */
const MAX_FILE_BYTES = 512 * 1024;

/** The identifier at a 0-based UTF-16 column of a line, if the column is on one. */
export function wordAt(line: string, column: number): string | undefined {
  const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
  let start = column;
  let end = column;
  while (start > 0 && isWord(line[start - 1])) start--;
  while (isWord(line[end])) end++;
  return end > start ? line.slice(start, end) : undefined;
}

/** Files under `root` that `handles` and whose text names `word` as a whole word, at most `limit`. */
export async function filesNaming(
  root: string,
  word: string,
  handles: (file: string) => boolean,
  signal: AbortSignal,
  limit = MAX_MENTIONS,
): Promise<string[]> {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_$])${word.replace(/[$]/g, '\\$')}(?![\\p{L}\\p{N}_$])`, 'u');
  const found: string[] = [];
  for await (const file of walkFiles(root, root, signal, (name) => SKIPPED_DIRS.has(name))) {
    if (!handles(file)) continue;
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat || stat.size > MAX_FILE_BYTES) continue;
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    if (!pattern.test(text)) continue;
    found.push(file);
    if (found.length >= limit) break;
  }
  return found;
}
