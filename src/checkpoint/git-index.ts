// Reads a git index file just far enough to tell whether the shadow repository may start from a copy of it: an
// index holding entries git would not stat as usual (skip-worktree, assume-unchanged, intent-to-add, conflicts), or
// split or sparse, would make a copy record the workspace wrongly; and whether an index is whole at all. Format:
// git's Documentation/gitformat-index.txt.
import { createHash } from 'node:crypto';

export type IndexVerdict =
  | {
      ok: true;
      entries: number;
      /** The tracked `.gitattributes` files' paths; undefined for index v4, whose names are not read whole. */
      attributes?: string[];
    }
  | { ok: false; why: string };

const ATTRIBUTES = Buffer.from('.gitattributes');

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
  const attributes: string[] = [];
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
      const name = nul - next;
      if (
        name >= ATTRIBUTES.length &&
        buf.compare(ATTRIBUTES, 0, ATTRIBUTES.length, nul - ATTRIBUTES.length, nul) === 0 &&
        (name === ATTRIBUTES.length || buf[nul - ATTRIBUTES.length - 1] === 0x2f)
      )
        attributes.push(buf.toString('utf8', next, nul));
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
  return { ok: true, entries: count, ...(version === 4 ? {} : { attributes }) };
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

/**
 * The index's cache tree (its TREE extension), which git keeps as it changes the index: the tree id of each folder
 * whose entries have not changed since git last wrote or read its tree, by path (its bytes as a latin1 string, ''
 * for the root). Folders git has invalidated are absent. Empty when there is no cache tree or it cannot be read:
 * every tree is then built. `at` is where the extensions begin, after the last entry.
 */
export function cachedTrees(buf: Buffer, at: number): Map<string, Buffer> {
  const trees = new Map<string, Buffer>();
  const end = buf.length - 20;
  while (at + 8 <= end) {
    const size = buf.readUInt32BE(at + 4);
    const body = at + 8;
    if (body + size > end) return trees;
    if (buf.toString('latin1', at, at + 4) === 'TREE') {
      try {
        readCacheTree(buf, body, body + size, trees);
      } catch {
        trees.clear();
      }
      return trees;
    }
    at = body + size;
  }
  return trees;
}

/** Each entry, parent before children: `name\0`, `<entries> <subtrees>\n`, then the id unless entries is -1. */
function readCacheTree(buf: Buffer, at: number, end: number, trees: Map<string, Buffer>): void {
  const open: { path: string; left: number }[] = [];
  let rooted = false;
  const number = (from: number, to: number) => {
    const text = buf.toString('latin1', from, to);
    if (!/^-?\d+$/.test(text)) throw new Error('a malformed cache tree');
    return Number(text);
  };
  while (at < end) {
    const nul = buf.indexOf(0, at);
    const space = buf.indexOf(0x20, nul + 1);
    const newline = buf.indexOf(0x0a, space + 1);
    if (nul < 0 || space < 0 || newline < 0 || newline >= end) throw new Error('a truncated cache tree');
    const entries = number(nul + 1, space);
    const subtrees = number(space + 1, newline);
    const parent = open[open.length - 1];
    if (parent === undefined) {
      if (rooted) throw new Error('a cache tree with two roots');
      rooted = true;
    }
    const name = buf.toString('latin1', at, nul);
    const path = parent === undefined ? '' : parent.path === '' ? name : `${parent.path}/${name}`;
    at = newline + 1;
    if (entries >= 0) {
      if (at + 20 > end) throw new Error('a truncated cache tree');
      trees.set(path, Buffer.from(buf.subarray(at, at + 20)));
      at += 20;
    }
    if (parent) parent.left--;
    open.push({ path, left: subtrees });
    while (open.length > 0 && open[open.length - 1]!.left === 0) open.pop();
  }
}
