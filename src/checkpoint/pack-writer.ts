// Writes objects into one git pack (pack v2, index v2: git's Documentation/gitformat-pack.txt) without a git
// process: each object is its header, then its zlib-deflated content, streamed to a temp file; the idx lists every
// object by id with its offset and CRC32. A first checkpoint of a big tree becomes one pack, not a file an object.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, promises as fs, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

/** Pack object types. */
const TYPES = { commit: 1, tree: 2, blob: 3 } as const;
export type ObjectType = keyof typeof TYPES;
/** Bytes gathered before a write: one write call per this much of the pack. */
const WRITE_AT = 1 << 20;
/** Offsets from here on go in the idx's 64-bit table. */
const LARGE_OFFSET = 0x80000000;
/** The id git gives an object: SHA-1 of `<type> <size>\0<content>`. */
export function objectId(type: ObjectType, content: Buffer): Buffer {
  return createHash('sha1').update(`${type} ${content.length}\0`, 'latin1').update(content).digest();
}

/** A pack object's header: its type and size, 4 bits then 7 a byte, low bits first. */
function objectHeader(type: number, size: number): Buffer {
  const bytes = [(type << 4) | (size & 0x0f)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) | 0x80;
    bytes.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(bytes);
}

interface Entry {
  id: Buffer;
  offset: number;
  crc: number;
}

export interface PackWriter {
  /** Adds an object (once per content: a repeat is not written again); resolves with its id. */
  add(type: ObjectType, content: Buffer): Promise<Buffer>;
  /** Adds an object already made into its pack entry (header, deflated content) elsewhere; once per id. */
  addEntry(id: Buffer, entry: Uint8Array, crc: number): void;
  /** Completes the pack and its idx under objects/pack; resolves with the pack's name, or undefined if empty. */
  finish(): Promise<string | undefined>;
  /** Removes what was written (an error midway). */
  abort(): Promise<void>;
}

/** Starts a pack in `<gitDir>/objects/pack`, as a temp file git ignores until its idx is in place. */
export function packWriter(gitDir: string, level = 1): PackWriter {
  const dir = join(gitDir, 'objects', 'pack');
  const temp = join(dir, `tmp_keel_${process.pid}_${randomBytes(4).toString('hex')}`);
  const fd = openSync(temp, 'w', 0o444);
  const entries: Entry[] = [];
  const seen = new Set<string>();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let offset = 0;
  let closed = false;
  const flush = () => {
    if (pendingBytes > 0) writeSync(fd, Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
  };
  const push = (chunk: Uint8Array) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    offset += chunk.length;
  };
  const store = (id: Buffer, header: Buffer, body: Buffer) => {
    entries.push({ id, offset, crc: crc32(body, crc32(header)) });
    push(header);
    push(body);
    if (pendingBytes >= WRITE_AT) flush();
  };
  // The object count is not known yet: the header is written last, in place.
  push(Buffer.alloc(12));
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };

  return {
    async add(type, content) {
      const id = objectId(type, content);
      const key = id.toString('latin1');
      if (seen.has(key)) return id;
      seen.add(key);
      // A big tree's files are deflated by fill-job.ts, on worker threads; what comes here (trees) is small.
      // As fill-job.ts deflates: a window fitted to the content, memLevel 9 (zlib's level 1 is fastest so).
      const windowBits = Math.max(9, Math.min(15, Math.ceil(Math.log2(content.length + 262))));
      store(
        id,
        objectHeader(TYPES[type], content.length),
        deflateSync(content, { level, windowBits, memLevel: 9 }),
      );
      return id;
    },

    addEntry(id, entry, crc) {
      const key = id.toString('latin1');
      if (seen.has(key)) return;
      seen.add(key);
      entries.push({ id, offset, crc });
      push(entry);
      if (pendingBytes >= WRITE_AT) flush();
    },

    async finish() {
      flush();
      close();
      if (entries.length === 0) {
        await fs.rm(temp, { force: true });
        return undefined;
      }
      const head = Buffer.alloc(12);
      head.write('PACK', 0, 'latin1');
      head.writeUInt32BE(2, 4);
      head.writeUInt32BE(entries.length, 8);
      // The trailer is the SHA-1 of all before it: the file is read back once, in large reads.
      const handle = await fs.open(temp, 'r+');
      let checksum: Buffer;
      try {
        await handle.write(head, 0, 12, 0);
        const hash = createHash('sha1');
        const chunk = Buffer.allocUnsafe(WRITE_AT);
        for (let at = 0; at < offset; ) {
          const { bytesRead } = await handle.read(chunk, 0, chunk.length, at);
          if (bytesRead === 0) throw new Error('the pack being written was cut short');
          hash.update(chunk.subarray(0, bytesRead));
          at += bytesRead;
        }
        checksum = hash.digest();
        await handle.write(checksum, 0, 20, offset);
      } finally {
        await handle.close();
      }
      const name = `pack-${checksum.toString('hex')}`;
      const idxTemp = `${temp}.idx`;
      await fs.writeFile(idxTemp, packIndex(entries, checksum), { mode: 0o444 });
      // The pack first: git looks for packs by their idx, which must never name a pack not yet in place.
      await fs.rename(temp, join(dir, `${name}.pack`));
      await fs.rename(idxTemp, join(dir, `${name}.idx`));
      return name;
    },

    async abort() {
      close();
      await fs.rm(temp, { force: true });
      await fs.rm(`${temp}.idx`, { force: true });
    },
  };
}

/** The idx (v2) of a pack's objects: fan-out, sorted ids, CRC32s, offsets (31-bit, else in a 64-bit table). */
export function packIndex(objects: readonly Entry[], packChecksum: Buffer): Buffer {
  // By the ids' first four bytes as a number, then whole: a call of Buffer.compare per comparison costs more than
  // the sort itself for a pack of 100k objects.
  const sorted = objects
    .map((e) => ({ e, key: e.id.readUInt32BE(0) }))
    .sort((a, b) => a.key - b.key || Buffer.compare(a.e.id, b.e.id))
    .map((k) => k.e);
  const n = sorted.length;
  const large = sorted.filter((e) => e.offset >= LARGE_OFFSET);
  const out = Buffer.alloc(8 + 256 * 4 + n * 28 + large.length * 8 + 40);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  const fanout = 8;
  const ids = fanout + 256 * 4;
  const crcs = ids + n * 20;
  const offsets = crcs + n * 4;
  const offsets64 = offsets + n * 4;
  let largeAt = 0;
  sorted.forEach((e, i) => {
    e.id.copy(out, ids + i * 20);
    out.writeUInt32BE(e.crc >>> 0, crcs + i * 4);
    if (e.offset < LARGE_OFFSET) out.writeUInt32BE(e.offset, offsets + i * 4);
    else {
      out.writeUInt32BE((LARGE_OFFSET | largeAt) >>> 0, offsets + i * 4);
      out.writeBigUInt64BE(BigInt(e.offset), offsets64 + largeAt * 8);
      largeAt += 1;
    }
  });
  // Fan-out: entry b counts the ids whose first byte is at most b.
  let i = 0;
  for (let b = 0; b < 256; b++) {
    while (i < n && ((sorted[i] as Entry).id[0] as number) <= b) i++;
    out.writeUInt32BE(i, fanout + b * 4);
  }
  const end = offsets64 + large.length * 8;
  packChecksum.copy(out, end);
  createHash('sha1')
    .update(out.subarray(0, end + 20))
    .digest()
    .copy(out, end + 20);
  return out;
}
