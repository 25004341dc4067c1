// Takes many paths into the shadow index at once, without git: each file is read once (its stat data taken from the
// open file before its content), hashed as a blob into one pack (pack-writer.ts) and entered into the index with
// that stat data (index-writer.ts). What `git add` of those paths would stage, at a fraction of the cost: no loose
// object per file, no process.
import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
} from 'node:fs';
import { join } from 'node:path';
import { entryMeta, type IndexEntry, writeIndex } from './index-writer.js';
import { packWriter } from './pack-writer.js';

export interface FillRequest {
  /** Paths (relative, `/`-separated) to take as they are now: added, updated, or dropped when gone. */
  paths: readonly string[];
  /** Paths to drop from the index whatever they are now. */
  remove?: readonly string[];
  /** Files larger than this are not added (and dropped from the index): the caller names them. */
  maxFileBytes: number;
}

export interface Filled {
  /** Files over maxFileBytes, left out. */
  large: string[];
  /** Folders (a nested repository, a file turned folder): for `git update-index`, which knows what they are. */
  rest: string[];
  /** Entries added to the index. */
  added: number;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const MODE_FILE = 0o100644;
const MODE_EXEC = 0o100755;
const MODE_LINK = 0o120000;
/** The event loop is given back this often (ms): a fill of a big tree runs while the run goes on. */
const SLICE_MS = 20;

type Found =
  | { kind: 'blob'; content: Buffer; mode: number; stat: BigIntStats }
  | { kind: 'gone' | 'folder' | 'large' };

/** What a path is now, and its content: one open, its stat, one read. Never follows a symlink, never blocks. */
function look(full: string, maxFileBytes: number): Found {
  let fd: number;
  try {
    fd = openSync(full, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') {
      // A symlink: a blob of its target's bytes, as git stores it.
      const stat = lstatSync(full, { bigint: true, throwIfNoEntry: false });
      if (!stat?.isSymbolicLink()) return { kind: 'gone' };
      return { kind: 'blob', content: readlinkSync(full, { encoding: 'buffer' }), mode: MODE_LINK, stat };
    }
    // Gone meanwhile, or not readable: git could not add it either; it is left out.
    return { kind: 'gone' };
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (stat.isDirectory()) return { kind: 'folder' };
    if (!stat.isFile()) return { kind: 'gone' };
    const size = Number(stat.size);
    if (size > maxFileBytes) return { kind: 'large' };
    const content = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, content, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    // A file cut short while read is stored as read; its stat data no longer matches, so the next checkpoint
    // reads it again.
    const mode = (Number(stat.mode) & 0o100) !== 0 ? MODE_EXEC : MODE_FILE;
    return { kind: 'blob', content: content.subarray(0, read), mode, stat };
  } finally {
    closeSync(fd);
  }
}

/** Takes `paths` into the shadow index at `gitDir`, their contents into one new pack. */
export async function fillIndex(gitDir: string, root: string, request: FillRequest): Promise<Filled> {
  const filled: Filled = { large: [], rest: [], added: 0 };
  const touched = new Set<string>(request.remove ?? []);
  const added: IndexEntry[] = [];
  const paths = [...new Set(request.paths)]
    .map((path) => ({ path, name: Buffer.from(path, 'utf8') }))
    .sort((a, b) => Buffer.compare(a.name, b.name));
  const pack = packWriter(gitDir);
  try {
    let sliceStart = performance.now();
    for (const { path, name } of paths) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      if (path.endsWith('/')) {
        filled.rest.push(path);
        continue;
      }
      const found = look(join(root, path), request.maxFileBytes);
      if (found.kind === 'folder') {
        filled.rest.push(path);
        continue;
      }
      touched.add(path);
      if (found.kind === 'large') filled.large.push(path);
      if (found.kind !== 'blob') continue;
      const id = await pack.add('blob', found.content);
      added.push({ name, meta: entryMeta(found.stat, found.mode, id) });
    }
    filled.added = added.length;
    await pack.finish();
  } catch (error) {
    await pack.abort();
    throw error;
  }
  // The objects are in place before the index names them.
  await writeIndex(gitDir, added, touched);
  return filled;
}
