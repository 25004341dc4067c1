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

/**
 * The objects of a pack, for its idx: object k's id is `ids[20k, 20k + 20)`, its offset `offsets[k]`, the CRC-32
 * of its entry `crcs[k]`. Flat rather than an object per entry: a first checkpoint adds 100k of them.
 */
export interface PackObjects {
  count: number;
  ids: Buffer;
  offsets: readonly number[];
  crcs: readonly number[];
}

export interface PackWriter {
  /** Adds an object (once per content: a repeat is not written again); resolves with its id. */
  add(type: ObjectType, content: Buffer): Promise<Buffer>;
  /**
   * Adds an object already made into its pack entry (header, deflated content) elsewhere, once per id: its id is
   * `ids[idAt, idAt + 20)`, its entry `data[from, to)` — ranges of a fill job's buffers, so no view is made per file.
   */
  addEntry(ids: Buffer, idAt: number, data: Buffer, from: number, to: number, crc: number): void;
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
  const objects = {
    count: 0,
    ids: Buffer.allocUnsafe(20 * 1024),
    offsets: [] as number[],
    crcs: [] as number[],
  };
  const seen = new Set<string>();
  // Entries are copied into one buffer, written when full: one write a WRITE_AT, no concat of many small chunks.
  const out = Buffer.allocUnsafe(WRITE_AT);
  let used = 0;
  let offset = 0;
  let closed = false;
  const flush = () => {
    if (used > 0) writeSync(fd, out, 0, used);
    used = 0;
  };
  const copy = (data: Buffer, from: number, to: number) => {
    const length = to - from;
    if (used + length > WRITE_AT) flush();
    if (length >= WRITE_AT) writeSync(fd, data, from, length);
    else used += data.copy(out, used, from, to);
  };
  // Entries that follow each other in one buffer (a fill job's) are copied as one run: a copy per job, not a file.
  let run: { data: Buffer; from: number; to: number } | undefined;
  const endRun = () => {
    if (run) copy(run.data, run.from, run.to);
    run = undefined;
  };
  const put = (data: Buffer, from = 0, to = data.length) => {
    if (run && run.data === data && run.to === from) run.to = to;
    else {
      endRun();
      run = { data, from, to };
    }
    offset += to - from;
  };
  /** Records an object about to be written at `offset`, unless its id was seen; false for a repeat. */
  const record = (ids: Buffer, idAt: number, crc: number): boolean => {
    const key = ids.toString('latin1', idAt, idAt + 20);
    if (seen.has(key)) return false;
    seen.add(key);
    const k = objects.count++;
    if (objects.ids.length < (k + 1) * 20) {
      const grown = Buffer.allocUnsafe(objects.ids.length * 2);
      objects.ids.copy(grown);
      objects.ids = grown;
    }
    // Byte by byte: Buffer#copy costs more than 20 bytes do.
    for (let j = 0; j < 20; j++) objects.ids[k * 20 + j] = ids[idAt + j] as number;
    objects.offsets.push(offset);
    objects.crcs.push(crc);
    return true;
  };
  // The object count is not known yet: the header is written last, in place.
  put(Buffer.alloc(12));
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };

  return {
    async add(type, content) {
      const id = objectId(type, content);
      // A big tree's files are deflated by fill-job.ts, on worker threads; what comes here (trees) is small.
      // As fill-job.ts deflates: a window fitted to the content, memLevel 9 (zlib's level 1 is fastest so).
      const windowBits = Math.max(9, Math.min(15, Math.ceil(Math.log2(content.length + 262))));
      const header = objectHeader(TYPES[type], content.length);
      const body = deflateSync(content, { level, windowBits, memLevel: 9 });
      if (record(id, 0, crc32(body, crc32(header)))) {
        put(header);
        put(body);
      }
      return id;
    },

    addEntry(ids, idAt, data, from, to, crc) {
      if (record(ids, idAt, crc)) put(data, from, to);
    },

    async finish() {
      endRun();
      flush();
      close();
      if (objects.count === 0) {
        await fs.rm(temp, { force: true });
        return undefined;
      }
      const head = Buffer.alloc(12);
      head.write('PACK', 0, 'latin1');
      head.writeUInt32BE(2, 4);
      head.writeUInt32BE(objects.count, 8);
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
      await fs.writeFile(idxTemp, packIndex(objects, checksum), { mode: 0o444 });
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
export function packIndex(objects: PackObjects, packChecksum: Buffer): Buffer {
  const { count: n, ids } = objects;
  // Object numbers sorted by id: by the first four bytes as a number, then whole (rarely needed).
  const keys = new Uint32Array(n);
  for (let k = 0; k < n; k++) keys[k] = ids.readUInt32BE(k * 20);
  const sorted = new Uint32Array(n);
  for (let k = 0; k < n; k++) sorted[k] = k;
  sorted.sort(
    (a, b) =>
      (keys[a] as number) - (keys[b] as number) || ids.compare(ids, b * 20, b * 20 + 20, a * 20, a * 20 + 20),
  );
  let large = 0;
  for (const o of objects.offsets) if (o >= LARGE_OFFSET) large++;
  const out = Buffer.alloc(8 + 256 * 4 + n * 28 + large * 8 + 40);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  const fanout = 8;
  const idsAt = fanout + 256 * 4;
  const crcs = idsAt + n * 20;
  const offsets = crcs + n * 4;
  const offsets64 = offsets + n * 4;
  let largeAt = 0;
  for (let i = 0; i < n; i++) {
    const k = sorted[i] as number;
    for (let j = 0; j < 20; j++) out[idsAt + i * 20 + j] = ids[k * 20 + j] as number;
    out.writeUInt32BE((objects.crcs[k] as number) >>> 0, crcs + i * 4);
    const offset = objects.offsets[k] as number;
    if (offset < LARGE_OFFSET) out.writeUInt32BE(offset, offsets + i * 4);
    else {
      out.writeUInt32BE((LARGE_OFFSET | largeAt) >>> 0, offsets + i * 4);
      out.writeBigUInt64BE(BigInt(offset), offsets64 + largeAt * 8);
      largeAt += 1;
    }
  }
  // Fan-out: entry b counts the ids whose first byte is at most b.
  let i = 0;
  for (let b = 0; b < 256; b++) {
    while (i < n && (out[idsAt + i * 20] as number) <= b) i++;
    out.writeUInt32BE(i, fanout + b * 4);
  }
  const end = offsets64 + large * 8;
  packChecksum.copy(out, end);
  createHash('sha1')
    .update(out.subarray(0, end + 20))
    .digest()
    .copy(out, end + 20);
  return out;
}
