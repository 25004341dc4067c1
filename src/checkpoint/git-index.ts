// Reads a git index file just far enough to tell whether the shadow repository may start from a copy of it: an
// index holding entries git would not stat as usual (skip-worktree, assume-unchanged, intent-to-add, conflicts), or
// split or sparse, would make a copy record the workspace wrongly; and whether an index is whole at all. Format:
// git's Documentation/gitformat-index.txt.
import { createHash } from 'node:crypto';

export type IndexVerdict = { ok: true; entries: number } | { ok: false; why: string };

const FLAG_ASSUME_VALID = 0x8000;
const FLAG_EXTENDED = 0x4000;
const FLAG_STAGE = 0x3000;
const NAME_MASK = 0x0fff;
/** ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size: ten 32-bit fields, then the object id. */
const FIXED = 40 + 20 + 2;

/** Extensions a copy must not carry: a split index's link to its shared file, a sparse index's directories. */
const REFUSED_EXTENSIONS: Readonly<Record<string, string>> = {
  link: 'a split index',
  sdir: 'a sparse index',
};

/** One varint of index v4's path compression: how many bytes of the previous path to drop. */
export function readVarint(buf: Buffer, at: number): [number, number] {
  let byte = buf[at++] ?? 0;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = buf[at++] ?? 0;
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return [value, at];
}

/** Whether a copy of this index (SHA-1 object ids) can seed the shadow repository's index. */
export function judgeIndex(buf: Buffer): IndexVerdict {
  if (buf.length < 12 + 20 || buf.toString('latin1', 0, 4) !== 'DIRC')
    return { ok: false, why: 'not an index' };
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return { ok: false, why: `index version ${version}` };
  const count = buf.readUInt32BE(8);
  const end = buf.length - 20;
  let at = 12;
  for (let i = 0; i < count; i++) {
    if (at + FIXED > end) return { ok: false, why: 'a truncated index' };
    const flags = buf.readUInt16BE(at + 60);
    let next = at + FIXED;
    if (flags & FLAG_ASSUME_VALID) return { ok: false, why: 'assume-unchanged entries' };
    if (flags & FLAG_STAGE) return { ok: false, why: 'unresolved conflicts' };
    if (flags & FLAG_EXTENDED) {
      // Only skip-worktree and intent-to-add live there: both change what a snapshot would record.
      if (version < 3 || buf.readUInt16BE(next) !== 0)
        return { ok: false, why: 'skip-worktree or intent-to-add entries' };
      next += 2;
    }
    if (version === 4) {
      const [, afterVarint] = readVarint(buf, next);
      const nul = buf.indexOf(0, afterVarint);
      if (nul < 0 || nul >= end) return { ok: false, why: 'a truncated index' };
      at = nul + 1;
    } else {
      const length = flags & NAME_MASK;
      const nul = length < NAME_MASK ? next + length : buf.indexOf(0, next);
      if (nul < 0 || nul >= end) return { ok: false, why: 'a truncated index' };
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
      at += Math.floor((nul - at + 8) / 8) * 8;
    }
  }
  while (at + 8 <= end) {
    const signature = buf.toString('latin1', at, at + 4);
    const refused = REFUSED_EXTENSIONS[signature];
    if (refused) return { ok: false, why: refused };
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return { ok: true, entries: count };
}

/**
 * Whether git would read this index: its header, and the SHA-1 of its content in its last 20 bytes (all zeros
 * when index.skipHash wrote it). Anything else (a truncated write, garbage) fails the checksum.
 */
export function indexIntact(buf: Buffer): boolean {
  if (buf.length < 12 + 20 || buf.toString('latin1', 0, 4) !== 'DIRC') return false;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return false;
  const sum = buf.subarray(buf.length - 20);
  if (sum.every((byte) => byte === 0)) return true;
  return createHash('sha1')
    .update(buf.subarray(0, buf.length - 20))
    .digest()
    .equals(sum);
}
