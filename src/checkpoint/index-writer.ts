// Writes the shadow index (git's index v2: Documentation/gitformat-index.txt) without a git process: the entries a
// fill hashed, with the stat data read before each file's content, merged into the entries already there. Later
// checkpoints then find changes by stat alone, as after `git add`. Written under git's own `index.lock`.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeLocked } from './git-objects.js';
import { readIndexEntries } from './index-trees.js';

/** ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size: ten 32-bit fields, then the object id. */
export const ENTRY_META = 40 + 20;
const NAME_MASK = 0x0fff;

/** One index entry: its path's bytes and its `ENTRY_META` bytes (stat fields, then the object id). */
export interface IndexEntry {
  name: Buffer;
  meta: Buffer;
}

/** The stat fields an index keeps of a file, as git truncates them: the low 32 bits of each. */
export interface EntryStat {
  ctimeNs: bigint;
  mtimeNs: bigint;
  dev: bigint;
  ino: bigint;
  uid: bigint;
  gid: bigint;
  size: bigint;
}

const BILLION = 1_000_000_000n;
const low32 = (n: bigint) => Number(BigInt.asUintN(32, n));

/** An entry's meta bytes: the stat fields (mode as git records it), then the object id. */
export function entryMeta(stat: EntryStat, mode: number, id: Buffer): Buffer {
  const meta = Buffer.allocUnsafe(ENTRY_META);
  meta.writeUInt32BE(low32(stat.ctimeNs / BILLION), 0);
  meta.writeUInt32BE(low32(stat.ctimeNs % BILLION), 4);
  meta.writeUInt32BE(low32(stat.mtimeNs / BILLION), 8);
  meta.writeUInt32BE(low32(stat.mtimeNs % BILLION), 12);
  meta.writeUInt32BE(low32(stat.dev), 16);
  meta.writeUInt32BE(low32(stat.ino), 20);
  meta.writeUInt32BE(mode, 24);
  meta.writeUInt32BE(low32(stat.uid), 28);
  meta.writeUInt32BE(low32(stat.gid), 32);
  meta.writeUInt32BE(low32(stat.size), 36);
  id.copy(meta, 40);
  return meta;
}

/**
 * An entry's meta bytes as written into an index whose entries are trusted from `since` (whole seconds): a file
 * changed within that second may look unchanged by its stat data ("racily clean"), so its size is zeroed, as git's
 * write_index does, and git compares its content. A copy when changed; the bytes themselves otherwise.
 */
export function smudgedIfRacy(meta: Buffer, since: number): Buffer {
  if (meta.readUInt32BE(8) < since) return meta;
  const copy = Buffer.from(meta);
  copy.writeUInt32BE(0, 36);
  return copy;
}

/** Entries in index order (bytewise by path), one per path. */
function byPath(entries: IndexEntry[]): IndexEntry[] {
  return entries.sort((a, b) => Buffer.compare(a.name, b.name));
}

/** A v2 index of `entries` (already in index order): header, entries padded to 8 bytes, SHA-1 trailer. */
export function indexBytes(entries: readonly IndexEntry[]): Buffer {
  let size = 12 + 20;
  for (const e of entries) size += Math.floor((62 + e.name.length + 8) / 8) * 8;
  // Zero-filled: the padding after each name is NULs.
  const out = Buffer.alloc(size);
  out.write('DIRC', 0, 'latin1');
  out.writeUInt32BE(2, 4);
  out.writeUInt32BE(entries.length, 8);
  let at = 12;
  for (const e of entries) {
    e.meta.copy(out, at, 0, ENTRY_META);
    out.writeUInt16BE(Math.min(e.name.length, NAME_MASK), at + ENTRY_META);
    e.name.copy(out, at + 62);
    at += Math.floor((62 + e.name.length + 8) / 8) * 8;
  }
  createHash('sha1').update(out.subarray(0, at)).digest().copy(out, at);
  return out;
}

/**
 * Replaces the shadow index with its entries less `touched` paths, plus `added` (each of which is touched): every
 * path a fill looked at is either added anew or gone. Extensions (cached trees, untracked cache) are dropped; git
 * rebuilds them when it wants them.
 */
export async function writeIndex(
  gitDir: string,
  added: IndexEntry[],
  touched: ReadonlySet<string>,
): Promise<void> {
  const path = join(gitDir, 'index');
  // git's lock: a git command writing the index meanwhile fails, as it would against another git.
  const written = await writeLocked(
    path,
    async () => {
      const current = await fs.readFile(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      const kept: IndexEntry[] = [];
      if (current) {
        // git's racily clean entries: a file changed within the old index's last second looks unchanged by its
        // stat data. Their size is zeroed (as git's write_index does), so git still compares their contents.
        const racyFrom = Math.floor((await fs.stat(path)).mtimeMs / 1000);
        const old = readIndexEntries(current);
        for (let i = 0; i < old.count; i++) {
          const name = old.names.subarray(old.start[i], old.end[i]);
          if (touched.has(name.toString('utf8'))) continue;
          const at = (old.oidAt[i] as number) - 40;
          kept.push({ name, meta: smudgedIfRacy(old.buf.subarray(at, at + ENTRY_META), racyFrom) });
        }
      }
      // Both lists are in index order already (the old index's, the fill's sorted paths): one merge.
      const entries = kept.length === 0 ? byPath(added) : merge(kept, byPath(added));
      return indexBytes(entries);
    },
    0o644,
  );
  if (!written) throw new Error(`the shadow index is in use by another process (${path}.lock exists)`);
}

function merge(a: IndexEntry[], b: IndexEntry[]): IndexEntry[] {
  const out: IndexEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const order = Buffer.compare((a[i] as IndexEntry).name, (b[j] as IndexEntry).name);
    if (order < 0) out.push(a[i++] as IndexEntry);
    else if (order > 0) out.push(b[j++] as IndexEntry);
    else {
      out.push(b[j++] as IndexEntry);
      i++;
    }
  }
  while (i < a.length) out.push(a[i++] as IndexEntry);
  while (j < b.length) out.push(b[j++] as IndexEntry);
  return out;
}
