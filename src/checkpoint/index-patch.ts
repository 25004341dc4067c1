// Re-records edited files that the shadow index already holds without a git process: their blobs are written as
// one pack (git's Documentation/gitformat-pack.txt), as update-index's bulk check-in would, and their entries' stat
// data and object ids overwritten in place (gitformat-index.txt), the index written back under git's own lock. For a later checkpoint after an edit, this is all `git update-index`
// would do, less a process and git's parsing of the whole index. Anything unusual is left to update-index.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { writeLocked } from './git-objects.js';
import type { IndexEntries } from './index-trees.js';
import { checksum, type ParsedIndex } from './shadow-index.js';

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
const sha1 = (...parts: Buffer[]) => {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const BLOB = 3;

/** A pack of blobs and its index (version 2), renamed into place pack first: git finds a pack by its index. */
export async function writeBlobPack(gitDir: string, blobs: readonly Buffer[]): Promise<Buffer[]> {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(blobs.length, 8);
  const parts: Buffer[] = [header];
  const objects: { oid: Buffer; offset: number; crc: number }[] = [];
  const ids: Buffer[] = [];
  let offset = 12;
  for (const body of blobs) {
    // Type and size: 4 bits of size in the first byte, 7 in each one after, the high bit saying one follows.
    const head: number[] = [];
    let size = body.length;
    let byte = (BLOB << 4) | (size & 0x0f);
    size = Math.floor(size / 16);
    while (size > 0) {
      head.push(byte | 0x80);
      byte = size & 0x7f;
      size = Math.floor(size / 128);
    }
    head.push(byte);
    const entry = Buffer.concat([Buffer.from(head), deflateSync(body)]);
    const oid = sha1(Buffer.from(`blob ${body.length}\0`), body);
    objects.push({ oid, offset, crc: crc32(entry) });
    ids.push(oid);
    parts.push(entry);
    offset += entry.length;
  }
  const packSum = sha1(...parts);
  parts.push(packSum);
  objects.sort((a, b) => Buffer.compare(a.oid, b.oid));
  const fanout = Buffer.alloc(256 * 4);
  for (let b = 0, k = 0; b < 256; b++) {
    while (k < objects.length && (objects[k]?.oid[0] as number) <= b) k++;
    fanout.writeUInt32BE(k, b * 4);
  }
  const crcs = Buffer.alloc(objects.length * 4);
  const offsets = Buffer.alloc(objects.length * 4);
  objects.forEach((o, k) => {
    crcs.writeUInt32BE(o.crc, k * 4);
    offsets.writeUInt32BE(o.offset, k * 4);
  });
  const idx = [
    Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]),
    fanout,
    ...objects.map((o) => o.oid),
    crcs,
    offsets,
    packSum,
  ];
  idx.push(sha1(...idx));
  const dir = join(gitDir, 'objects', 'pack');
  await fs.mkdir(dir, { recursive: true });
  const name = join(dir, `pack-${packSum.toString('hex')}`);
  for (const [ext, data] of [
    ['pack', parts],
    ['idx', idx],
  ] as const) {
    const temp = join(dir, `tmp_${process.pid}_${randomBytes(4).toString('hex')}`);
    await fs.writeFile(temp, Buffer.concat(data), { mode: 0o444 });
    await fs.rename(temp, `${name}.${ext}`);
  }
  return ids;
}

/**
 * Overwrites the entries of `paths` (each one in the index, a regular file or a link) with the files as they are.
 * Resolves with the index written, or undefined, having changed nothing, when any of them needs update-index (a v4
 * index, an entry with extended flags or in conflict, a type change, a big file, the index changed or locked).
 */
export async function patchIndex(
  gitDir: string,
  root: string,
  paths: readonly string[],
  parsed: ParsedIndex,
): Promise<ParsedIndex | undefined> {
  const file = join(gitDir, 'index');
  const { buf, entries: index } = parsed;
  // An index written with no checksum (git's index.skipHash) cannot be told from one rewritten since.
  if (buf.length < 32 || /^0+$/.test(parsed.sum)) return undefined;
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  // Every entry is stage 0 and none was left out: the last one's end is where the extensions start.
  if (index.count === 0 || index.count !== buf.readUInt32BE(8)) return undefined;
  const patches: { i: number; at: number; mode: number; stat: Buffer; body: Buffer }[] = [];
  for (const path of paths) {
    const i = findEntry(index, Buffer.from(path));
    if (i < 0) return undefined;
    const at = (index.oidAt[i] as number) - 40;
    if (buf.readUInt16BE(at + 60) & FLAG_EXTENDED) return undefined;
    const full = join(root, path);
    // Stat first, then read, as git does: a change during the read leaves stat data that no longer matches.
    const st = await fs.lstat(full, { bigint: true }).catch(() => undefined);
    if (!st || st.size > BigInt(MAX_BYTES)) return undefined;
    const old = index.modes[i] as number;
    let mode: number;
    let body: Buffer;
    if (st.isFile() && (old === MODE_FILE || old === MODE_EXEC)) {
      mode = st.mode & 0o100n ? MODE_EXEC : MODE_FILE;
      body = await fs.readFile(full);
    } else if (st.isSymbolicLink() && old === MODE_LINK) {
      mode = MODE_LINK;
      body = Buffer.from(await fs.readlink(full, { encoding: 'buffer' }));
    } else return undefined;
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
    for (const [k, value] of fields.entries()) stat.writeUInt32BE(u32(value), k * 4);
    patches.push({ i, at, mode, stat, body });
  }
  const oids = await writeBlobPack(
    gitDir,
    patches.map((p) => p.body),
  );
  const last = index.count - 1;
  const lastAt = (index.oidAt[last] as number) - 40;
  const entriesEnd = lastAt + Math.floor(((index.end[last] as number) - lastAt + 8) / 8) * 8;
  // Patched in place (a copy of a big index costs more than the rest of a checkpoint), the old bytes kept to put
  // back if the write fails. The extensions (cache tree, untracked cache, …) describe the index as it was: left
  // out, as git may; the checksum takes their place.
  const before = patches.map((p) => Buffer.from(buf.subarray(p.at, p.at + 60)));
  const oldTail = Buffer.from(buf.subarray(entriesEnd, entriesEnd + 20));
  const { modes } = index;
  const oldModes = patches.map((p) => modes[p.i] as number);
  patches.forEach((p, k) => {
    p.stat.copy(buf, p.at);
    (oids[k] as Buffer).copy(buf, p.at + 40);
    modes[p.i] = p.mode;
  });
  const out = buf.subarray(0, entriesEnd + 20);
  const sum = createHash('sha1').update(buf.subarray(0, entriesEnd)).digest();
  // git's lock: a git process writing the index meanwhile makes this fail, and update-index take over; one that
  // wrote it since it was read, too (its changes would be lost).
  const restore = () => {
    patches.forEach((p, k) => {
      (before[k] as Buffer).copy(buf, p.at);
      modes[p.i] = oldModes[k] as number;
    });
    oldTail.copy(buf, entriesEnd);
  };
  const written = await writeLocked(file, async () => {
    if ((await checksum(file)) !== parsed.sum) throw new IndexMovedError();
    sum.copy(buf, entriesEnd);
    return out;
  }).catch((error: unknown) => {
    restore();
    if (error instanceof IndexMovedError) return false;
    throw error;
  });
  if (!written) {
    restore();
    return undefined;
  }
  // Entries keep their places: only their stat data, ids and modes changed.
  return { buf: out, sum: sum.toString('hex'), entries: { ...index, names: out, buf: out } };
}

class IndexMovedError extends Error {}
