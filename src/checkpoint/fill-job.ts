// The work of a fill for a run of paths: each file opened once (its stat data taken from the open file before its
// content), hashed as a git blob and deflated into the bytes of its pack entry. A big fill runs it on worker threads
// (fill-workers.ts), a small one on the main thread; its source is sent to a worker as text, so fillJob uses nothing
// from outside its own body but the builtins it is given.
import type * as Crypto from 'node:crypto';
import type * as Fs from 'node:fs';
import type * as Zlib from 'node:zlib';

export interface FillJob {
  /** The index of the job's first path among the fill's. */
  start: number;
  root: string;
  /** Relative, `/`-separated paths. */
  paths: string[];
  maxFileBytes: number;
  /** zlib level of the pack entries. */
  level: number;
}

/** Per path: a blob, gone (or unreadable, or neither file nor link), a folder, or a file over maxFileBytes. */
export const KIND = { blob: 0, gone: 1, folder: 2, large: 3 } as const;
/** ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size (32 bits each), then the blob's id. */
export const META = 60;

export interface FillResult {
  start: number;
  /** Paths looked at: fewer than the job's when it stopped early to bound its memory (the rest is a new job). */
  count: number;
  kinds: Uint8Array;
  /** Per path, its index entry's META bytes (blobs only). */
  metas: Uint8Array;
  /** Per path, the end of its pack entry (header and deflated content) in `data`; a non-blob's is the one before. */
  ends: Uint32Array;
  /** Per path, the CRC-32 of its pack entry. */
  crcs: Uint32Array;
  data: Uint8Array;
}

/** The builtins fillJob uses, given to it: a worker's source cannot import them. */
export interface FillModules {
  fs: typeof Fs;
  crypto: typeof Crypto;
  zlib: typeof Zlib;
}

/** Runs on a worker thread as text, or in-process: nothing from outside this body but `lib`. */
export function fillJob(job: FillJob, lib: FillModules): FillResult {
  const { fs, crypto, zlib } = lib;
  // The values of KIND, here again: this body may not name anything outside it.
  const KIND_BLOB = 0;
  const KIND_GONE = 1;
  const KIND_FOLDER = 2;
  const KIND_LARGE = 3;
  const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
  // Reading a file need not date its access: on a tree not read for a day (or just written) every first read
  // would otherwise write its inode. Only the files' owner may ask (EPERM otherwise): then opened without it.
  let noAtime = fs.constants.O_NOATIME ?? 0;
  const MODE_FILE = 0o100644;
  const MODE_EXEC = 0o100755;
  const MODE_LINK = 0o120000;
  const BLOB = 3;
  /** Bytes of content past which a job stops early (the rest of its paths become a new job). */
  const MAX_JOB_BYTES = 32 * 1024 * 1024;
  const BILLION = 1_000_000_000n;
  const n = job.paths.length;
  const kinds = new Uint8Array(n);
  const metas = Buffer.alloc(n * 60);
  const ends = new Uint32Array(n);
  const crcs = new Uint32Array(n);
  const chunks: Buffer[] = [];
  let size = 0;
  let bytesRead = 0;
  let count = 0;
  const low32 = (v: bigint) => Number(BigInt.asUintN(32, v));

  // One-shot hashing where Node has it (≥ 20.12): no hash object per file.
  const sha1 = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'buffer') => Buffer }).hash;
  const blobHeader = (length: number) => Buffer.from(`blob ${length}\0`, 'latin1');

  /** `object`: the blob's git object (its header, then `content`), when the caller read it so. */
  const blob = (i: number, content: Buffer, mode: number, stat: Fs.BigIntStats, object?: Buffer) => {
    const id = object
      ? (sha1?.('sha1', object, 'buffer') ?? crypto.createHash('sha1').update(object).digest())
      : crypto.createHash('sha1').update(blobHeader(content.length)).update(content).digest();
    // The pack entry's header: type and size, 4 bits then 7 a byte, low bits first.
    const head = [(BLOB << 4) | (content.length & 0x0f)];
    for (let rest = Math.floor(content.length / 16); rest > 0; rest = Math.floor(rest / 128)) {
      head[head.length - 1] = (head[head.length - 1] as number) | 0x80;
      head.push(rest & 0x7f);
    }
    const entryHead = Buffer.from(head);
    // A window no bigger than the content (zlib's minimum 2^9) compresses it as well, for less set-up per file.
    const bits = Math.max(9, Math.min(15, Math.ceil(Math.log2(content.length + 262))));
    // memLevel 9: zlib's level 1 runs ~1.7× faster on source files than with a smaller one, for the same bytes.
    const body = zlib.deflateSync(content, { level: job.level, windowBits: bits, memLevel: 9 });
    crcs[i] = zlib.crc32(body, zlib.crc32(entryHead));
    chunks.push(entryHead, body);
    size += entryHead.length + body.length;
    const at = i * 60;
    const fields = [
      stat.ctimeNs / BILLION,
      stat.ctimeNs % BILLION,
      stat.mtimeNs / BILLION,
      stat.mtimeNs % BILLION,
      stat.dev,
      stat.ino,
    ];
    for (const [k, v] of fields.entries()) metas.writeUInt32BE(low32(v), at + k * 4);
    metas.writeUInt32BE(mode, at + 24);
    metas.writeUInt32BE(low32(stat.uid), at + 28);
    metas.writeUInt32BE(low32(stat.gid), at + 32);
    metas.writeUInt32BE(low32(stat.size), at + 36);
    id.copy(metas, at + 40);
  };

  /** What a path is now, and its content: one open, its stat, one read. Never follows a symlink, never blocks. */
  const look = (i: number, full: string): number => {
    let fd: number;
    try {
      try {
        fd = fs.openSync(full, OPEN_FLAGS | noAtime);
      } catch (error) {
        if (noAtime === 0 || (error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
        noAtime = 0;
        fd = fs.openSync(full, OPEN_FLAGS);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') return KIND_GONE;
      // A symlink: a blob of its target's bytes, as git stores it.
      const stat = fs.lstatSync(full, { bigint: true, throwIfNoEntry: false });
      if (!stat?.isSymbolicLink()) return KIND_GONE;
      blob(i, fs.readlinkSync(full, { encoding: 'buffer' }), MODE_LINK, stat);
      return KIND_BLOB;
    }
    try {
      const stat = fs.fstatSync(fd, { bigint: true });
      if (stat.isDirectory()) return KIND_FOLDER;
      if (!stat.isFile()) return KIND_GONE;
      const length = Number(stat.size);
      if (length > job.maxFileBytes) return KIND_LARGE;
      // Read behind its object header, so the object is hashed in one piece.
      const header = blobHeader(length);
      const object = Buffer.allocUnsafe(header.length + length);
      header.copy(object);
      let read = 0;
      while (read < length) {
        const got = fs.readSync(fd, object, header.length + read, length - read, read);
        if (got === 0) break;
        read += got;
      }
      bytesRead += read;
      const mode = (Number(stat.mode) & 0o100) !== 0 ? MODE_EXEC : MODE_FILE;
      const content = object.subarray(header.length, header.length + read);
      // A file cut short while read is stored as read; its stat data no longer matches, so the next checkpoint
      // reads it again.
      blob(i, content, mode, stat, read === length ? object : undefined);
      return KIND_BLOB;
    } finally {
      fs.closeSync(fd);
    }
  };
  for (let i = 0; i < n && (i === 0 || bytesRead < MAX_JOB_BYTES); i++) {
    const path = job.paths[i] as string;
    // Gone meanwhile, or not readable: git could not add it either; it is left out.
    let kind: number;
    try {
      kind = look(i, `${job.root}/${path}`);
    } catch {
      kind = KIND_GONE;
    }
    kinds[i] = kind;
    ends[i] = size;
    count = i + 1;
  }
  const data = Buffer.concat(chunks, size);
  return { start: job.start, count, kinds, metas, ends, crcs, data };
}
