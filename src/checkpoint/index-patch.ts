// Re-records edited files that the shadow index already holds without a git process: each file's blob is written
// loose and its entry's stat data and object id are overwritten in place (git's Documentation/gitformat-index.txt),
// the index written back under git's own lock. For a later checkpoint after an edit, this is all `git update-index`
// would do, less a process and git's parsing of the whole index. Anything unusual is left to update-index.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeLooseObject } from './git-objects.js';
import { type IndexEntries, readIndexEntries } from './index-trees.js';

/** Files larger than this are left to update-index, which streams them. */
const MAX_BYTES = 8 * 1024 * 1024;
const FLAG_EXTENDED = 0x4000;
const MODE_FILE = 0o100644;
const MODE_EXEC = 0o100755;
const MODE_LINK = 0o120000;

/** The position of a path among an index's entries, or -1 (byte order: index order). */
export function findEntry(index: IndexEntries, path: Buffer): number {
  const { names, start, end, count } = index;
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Buffer.compare(names.subarray(start[mid] as number, end[mid] as number), path) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < count && names.subarray(start[lo] as number, end[lo] as number).equals(path) ? lo : -1;
}

const u32 = (value: bigint) => Number(value & 0xffffffffn);

/**
 * Overwrites the entries of `paths` (each one in the index, a regular file or a link) with the files as they are.
 * Resolves false, having changed nothing, when any of them needs update-index (a v4 index, an entry with extended
 * flags or in conflict, a type change, a big file, the index locked).
 */
export async function patchIndex(gitDir: string, root: string, paths: readonly string[]): Promise<boolean> {
  const file = join(gitDir, 'index');
  const buf = await fs.readFile(file).catch(() => undefined);
  if (!buf || buf.length < 32) return false;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return false;
  const index = readIndexEntries(buf);
  // Every entry is stage 0 and none was left out: the last one's end is where the extensions start.
  if (index.count === 0 || index.count !== buf.readUInt32BE(8)) return false;
  const patches: { at: number; stat: Buffer; oid: Buffer }[] = [];
  for (const path of paths) {
    const i = findEntry(index, Buffer.from(path));
    if (i < 0) return false;
    const at = (index.oidAt[i] as number) - 40;
    if (buf.readUInt16BE(at + 60) & FLAG_EXTENDED) return false;
    const full = join(root, path);
    // Stat first, then read, as git does: a change during the read leaves stat data that no longer matches.
    const st = await fs.lstat(full, { bigint: true }).catch(() => undefined);
    if (!st || st.size > BigInt(MAX_BYTES)) return false;
    const old = index.modes[i] as number;
    let mode: number;
    let body: Buffer;
    if (st.isFile() && (old === MODE_FILE || old === MODE_EXEC)) {
      mode = st.mode & 0o100n ? MODE_EXEC : MODE_FILE;
      body = await fs.readFile(full);
    } else if (st.isSymbolicLink() && old === MODE_LINK) {
      mode = MODE_LINK;
      body = Buffer.from(await fs.readlink(full, { encoding: 'buffer' }));
    } else return false;
    const stat = Buffer.alloc(40);
    const fields = [
      st.ctimeNs / 1_000_000_000n,
      st.ctimeNs % 1_000_000_000n,
      st.mtimeNs / 1_000_000_000n,
      st.mtimeNs % 1_000_000_000n,
      st.dev,
      st.ino,
      BigInt(mode),
      st.uid,
      st.gid,
      st.size,
    ];
    fields.forEach((value, k) => stat.writeUInt32BE(u32(value), k * 4));
    const oid = Buffer.from(await writeLooseObject(gitDir, 'blob', body), 'hex');
    patches.push({ at, stat, oid });
  }
  const last = index.count - 1;
  const lastAt = (index.oidAt[last] as number) - 40;
  const entriesEnd = lastAt + Math.floor(((index.end[last] as number) - lastAt + 8) / 8) * 8;
  // The extensions (cache tree, untracked cache, …) describe the index as it was: left out, as git may.
  const out = Buffer.allocUnsafe(entriesEnd + 20);
  buf.copy(out, 0, 0, entriesEnd);
  for (const p of patches) {
    p.stat.copy(out, p.at);
    p.oid.copy(out, p.at + 40);
  }
  createHash('sha1').update(out.subarray(0, entriesEnd)).digest().copy(out, entriesEnd);
  const lock = `${file}.lock`;
  // git's lock: a git process writing the index meanwhile makes this fail, and update-index take over.
  const handle = await fs.open(lock, 'wx').catch(() => undefined);
  if (!handle) return false;
  try {
    await handle.writeFile(out);
    await handle.close();
    await fs.rename(lock, file);
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.rm(lock, { force: true });
    throw error;
  }
  return true;
}
