// Shared file helpers for the tools: readable fs error messages and a checked text-file read.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { looksBinary } from '../core/binary.js';
import { editDistance } from '../core/text.js';
import type { ToolContext, ToolLimits } from './tool.js';
import { decodeUtf8 } from './utf8.js';

const FS_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory is not empty',
};

/** "no such file or directory: src/x.ts" instead of Node's message with an absolute path. */
export function fsErrorMessage(error: unknown, shown: string): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  const words = FS_ERRORS[code];
  if (words) return `${words}: ${shown}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs a file operation, rethrowing fs errors with a message that names the workspace path. Given the absolute
 * path, a missing file gets the nearest names in its directory ("did you mean src/x.tsx?"), so the model can retry.
 */
export async function withFsErrors<T>(
  shown: string,
  operation: () => Promise<T>,
  absolute?: string,
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    const message = fsErrorMessage(error, shown);
    const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
    const similar = missing && absolute ? await similarNames(absolute) : [];
    if (similar.length === 0) throw new Error(message);
    const dir = path.dirname(shown);
    const inDir = (name: string) => (dir === '.' ? name : path.join(dir, name));
    // A name that is not UTF-8 reaches the model with U+FFFD in it, and that text names no file: say how to fix it
    // rather than suggest the same text again.
    const lossy = similar.find((s) => s.lossy && s.name === path.basename(shown));
    if (lossy) {
      const glob = inDir(lossy.name)
        .replace(/[^\w./\-\uFFFD]/g, '\\$&')
        .replace(/\uFFFD/g, '?');
      throw new Error(
        `${message}: its name on disk is not valid UTF-8, so no path a tool is given can name it; ` +
          `rename it with a command, e.g. mv -- ${glob} <new name>`,
      );
    }
    throw new Error(`${message}; did you mean ${similar.map((s) => inDir(s.name)).join(' or ')}?`);
  }
}

/**
 * Up to three entries beside `absolute` whose name is close to its name (same stem, case, or a small edit); `lossy`:
 * the name's bytes are not UTF-8, so its text (with U+FFFD) names no file.
 */
async function similarNames(absolute: string): Promise<{ name: string; lossy: boolean }[]> {
  const wanted = path.basename(absolute).toLowerCase();
  const stem = (name: string) => name.replace(/\.[^.]*$/, '');
  const entries = await fs
    .readdir(path.dirname(absolute), { encoding: 'buffer' })
    .catch(() => [] as Buffer[]);
  return entries
    .map((bytes) => {
      const name = bytes.toString('utf8');
      const lossy = !Buffer.from(name, 'utf8').equals(bytes);
      return { name, lossy, distance: editDistance(wanted, name.toLowerCase()) };
    })
    .filter(({ name, distance }) => distance <= 2 || stem(name.toLowerCase()) === stem(wanted))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ name, lossy }) => ({ name, lossy }));
}

/**
 * Reads a regular UTF-8 text file, refusing directories, files over maxBytes, binaries (NUL in the first 8 KB)
 * and invalid UTF-8 (with the offset and line of the first bad byte).
 */
export async function readTextFile(absolute: string, shown: string, maxBytes: number): Promise<string> {
  const stat = await withFsErrors(shown, () => fs.stat(absolute), absolute);
  if (stat.isDirectory()) throw new Error(`${shown} is a directory; use list_files to see its entries`);
  if (!stat.isFile()) throw new Error(`${shown} is not a regular file`);
  if (stat.size > maxBytes) {
    throw new Error(
      `${shown} is ${stat.size} bytes, over the ${maxBytes}-byte read limit (agent.tools.max_file_read_size); ` +
        'read it in parts with read_file offset and limit, or search it with the grep tool; change it with a command ' +
        '(sed -i) where the mode allows one',
    );
  }
  const data = await withFsErrors(shown, () => fs.readFile(absolute));
  if (looksBinary(data)) {
    throw new Error(
      `${shown} looks like a binary file (NUL byte in the first 8 KB); only text files can be read`,
    );
  }
  return decodeUtf8(data, shown);
}

/**
 * The file's text as an editor holds it (keel acp: an unsaved buffer), when the run has one and it answers
 * within the read limit; undefined: read the disk.
 */
export async function editorText(
  ctx: Pick<ToolContext, 'files' | 'signal'> & { limits: Pick<ToolLimits, 'maxFileReadSize'> },
  absolute: string,
): Promise<string | undefined> {
  const text = await ctx.files?.readText?.(absolute, ctx.signal);
  return text !== undefined && Buffer.byteLength(text) <= ctx.limits.maxFileReadSize ? text : undefined;
}
