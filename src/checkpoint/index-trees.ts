// Writes the trees of a shadow index as git's write-tree would, without a git process: entries are read from the
// index file (git's Documentation/gitformat-index.txt), trees are hashed in Node and only the ones the store lacks
// are written. git's write-tree checks every blob of an index seeded from the user's (30k lookups that miss the
// shadow's own store) and costs most of a first checkpoint; this costs a read of the index and a few hashes.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { readVarint } from './git-index.js';
import { hasLooseObject, packedObjectIds, writeLooseObject } from './git-objects.js';
import { packWriter } from './pack-writer.js';

/** An index's stage-0 entries, in index order: each path is `names[start[i]..end[i])`, its object id at oidAt[i]. */
export interface IndexEntries {
  count: number;
  names: Buffer;
  start: number[];
  end: number[];
  modes: number[];
  oidAt: number[];
  buf: Buffer;
  /** Where the index's extensions begin in `buf`, after its last entry. */
  extensionsAt: number;
}

export const NO_ENTRIES: IndexEntries = {
  count: 0,
  names: Buffer.alloc(0),
  start: [],
  end: [],
  modes: [],
  oidAt: [],
  buf: Buffer.alloc(0),
  extensionsAt: 0,
};

const FLAG_EXTENDED = 0x4000;
const FLAG_STAGE = 0x3000;
const NAME_MASK = 0x0fff;
const EXT_INTENT_TO_ADD = 0x2000;
const WRITE_BATCH = 64;
/** Past this many new trees, they are written as one pack. */
const PACK_AT = 256;
const SLASH = 0x2f;
/** ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size: ten 32-bit fields, then the object id. */
const FIXED = 40 + 20 + 2;

/** The entries of an index (v2 to v4) a tree records: intent-to-add ones and conflicts are left out, as git does. */
export function readIndexEntries(buf: Buffer): IndexEntries {
  if (buf.length < 32 || buf.toString('latin1', 0, 4) !== 'DIRC') throw new Error('not a git index');
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) throw new Error(`git index version ${version}`);
  const count = buf.readUInt32BE(8);
  const end = buf.length - 20;
  const out: IndexEntries = {
    count: 0,
    names: buf,
    start: [],
    end: [],
    modes: [],
    oidAt: [],
    buf,
    extensionsAt: 0,
  };
  // Version 4 compresses each path against the one before: they are rebuilt, one after another, here.
  const rebuilt: Buffer[] = [];
  let rebuiltLength = 0;
  let previous = Buffer.alloc(0);
  let at = 12;
  for (let i = 0; i < count; i++) {
    if (at + FIXED > end) throw new Error('a truncated git index');
    const entryAt = at;
    const flags = buf.readUInt16BE(at + 60);
    let next = at + FIXED;
    let extended = 0;
    if (flags & FLAG_EXTENDED) {
      extended = buf.readUInt16BE(next);
      next += 2;
    }
    let from: number;
    let to: number;
    if (version === 4) {
      const [strip, afterVarint] = readVarint(buf, next);
      const nul = buf.indexOf(0, afterVarint);
      if (nul < 0 || nul >= end || strip > previous.length) throw new Error('a truncated git index');
      previous = Buffer.concat([
        previous.subarray(0, previous.length - strip),
        buf.subarray(afterVarint, nul),
      ]);
      rebuilt.push(previous);
      from = rebuiltLength;
      rebuiltLength += previous.length;
      to = rebuiltLength;
      at = nul + 1;
    } else {
      const length = flags & NAME_MASK;
      const nul = length < NAME_MASK ? next + length : buf.indexOf(0, next);
      if (nul < 0 || nul >= end) throw new Error('a truncated git index');
      from = next;
      to = nul;
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
      at += Math.floor((nul - at + 8) / 8) * 8;
    }
    if ((flags & FLAG_STAGE) === 0 && !(extended & EXT_INTENT_TO_ADD)) {
      out.start.push(from);
      out.end.push(to);
      out.modes.push(buf.readUInt32BE(entryAt + 24));
      out.oidAt.push(entryAt + 40);
    } else if (version === 4) {
      rebuiltLength -= previous.length;
      rebuilt.pop();
    }
  }
  if (version === 4) out.names = Buffer.concat(rebuilt, rebuiltLength);
  out.count = out.start.length;
  out.extensionsAt = at;
  return out;
}

export interface TreeObject {
  oid: string;
  body: Buffer;
}

/** One entry of a tree being built: its mode's text, its name's bytes in `names`, its object id in `ids`. */
interface Item {
  mode: Buffer;
  from: number;
  to: number;
  ids: Buffer;
  idAt: number;
}

const modeText = new Map<number, Buffer>();
const modeBytes = (mode: number) => {
  let text = modeText.get(mode);
  if (!text) {
    text = Buffer.from(`${mode.toString(8)} `, 'latin1');
    modeText.set(mode, text);
  }
  return text;
};
const DIR_MODE = Buffer.from('40000 ', 'latin1');
/** The byte after `/`: every path below folder `d` sorts in [`d/`, `d0`). */
const AFTER_SLASH = SLASH + 1;

/** A tree's body from its items (already in tree order), and its id. */
function treeObject(names: Buffer, items: readonly Item[]): TreeObject & { digest: Buffer } {
  let size = 0;
  for (const item of items) size += item.mode.length + (item.to - item.from) + 1 + 20;
  const body = Buffer.allocUnsafe(size);
  let at = 0;
  // Byte loops: these copies are a few bytes each, where a call into Buffer.copy costs more than the copy.
  for (const item of items) {
    const { mode, ids, idAt } = item;
    for (let k = 0; k < mode.length; k++) body[at++] = mode[k] as number;
    for (let k = item.from; k < item.to; k++) body[at++] = names[k] as number;
    body[at++] = 0;
    for (let k = idAt; k < idAt + 20; k++) body[at++] = ids[k] as number;
  }
  const digest = createHash('sha1').update(`tree ${size}\0`, 'latin1').update(body).digest();
  return { oid: digest.toString('hex'), body, digest };
}

/**
 * The trees of index entries, each folder's from its entries, which are contiguous in index order (index order is
 * tree order: git sorts a folder's name as if it ended in `/`, which is where its entries' paths put it). `reuse`
 * names a folder's tree id when it is known unchanged (its path as the latin1 string of its bytes): its entries are
 * then skipped, not read. Resolves with the trees made (root last) and every folder's id.
 */
export function folderTrees(
  index: IndexEntries,
  reuse: (dir: string) => Buffer | undefined = () => undefined,
): { made: TreeObject[]; folders: Map<string, Buffer> } {
  const { names, start, end, modes, oidAt, buf } = index;
  const made: TreeObject[] = [];
  const folders = new Map<string, Buffer>();
  /** The first entry in [lo, hi) whose path is not below `key` (bytes) in order. */
  const lowerBound = (key: Buffer, lo: number, hi: number) => {
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (names.compare(key, 0, key.length, start[mid] as number, end[mid] as number) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  /** The tree of the folder whose entries are [lo, hi), its paths' first `base` bytes its own path and `/`. */
  const build = (base: number, lo: number, hi: number): Buffer => {
    const items: Item[] = [];
    for (let i = lo; i < hi; ) {
      const from = (start[i] as number) + base;
      const to = end[i] as number;
      let slash = from;
      while (slash < to && names[slash] !== SLASH) slash++;
      if (slash === to) {
        items.push({ mode: modeBytes(modes[i] as number), from, to, ids: buf, idAt: oidAt[i] as number });
        i++;
        continue;
      }
      const key = Buffer.allocUnsafe(slash - (start[i] as number) + 1);
      names.copy(key, 0, start[i] as number, slash);
      key[key.length - 1] = AFTER_SLASH;
      const subHi = lowerBound(key, i + 1, hi);
      const sub = names.toString('latin1', start[i] as number, slash);
      const digest = reuse(sub) ?? build(slash + 1 - (start[i] as number), i, subHi);
      folders.set(sub, digest);
      items.push({ mode: DIR_MODE, from, to: slash, ids: digest, idAt: 0 });
      i = subHi;
    }
    const tree = treeObject(names, items);
    made.push({ oid: tree.oid, body: tree.body });
    return tree.digest;
  };
  folders.set('', build(0, 0, index.count));
  return { made, folders };
}

/** The trees of index entries, root last, as git's write-tree would write them. */
export function buildTrees(index: IndexEntries): TreeObject[] {
  return folderTrees(index).made;
}

/**
 * Writes the trees of the shadow index the store does not hold yet; resolves with the root tree's hash. `known`
 * holds trees this process wrote or found, so a later snapshot checks only the folders that changed.
 */
export async function writeIndexTrees(gitDir: string, known: Set<string>): Promise<string> {
  // No index yet (git add of an empty folder writes none): the tree of nothing, as write-tree gives.
  const index = await fs.readFile(join(gitDir, 'index')).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const trees = buildTrees(index ? readIndexEntries(index) : NO_ENTRIES);
  await storeTrees(gitDir, trees, known);
  return (trees[trees.length - 1] as TreeObject).oid;
}

/** Writes the trees the store lacks (`known`: those this process wrote or found), adding them to `known`. */
export async function storeTrees(gitDir: string, trees: readonly TreeObject[], known: Set<string>) {
  let fresh = trees.filter((t) => !known.has(t.oid));
  // Many at once (a first snapshot of a big tree): one pack rather than a file each.
  if (fresh.length > PACK_AT) {
    // A process's first snapshot of a tree an earlier one stored: its trees are in the store's packs already
    // (babel's 12k folders were packed again, 1.4 MB, at every launch).
    for (const id of await packedObjectIds(gitDir)) known.add(id);
    fresh = fresh.filter((t) => !known.has(t.oid));
  }
  if (fresh.length > PACK_AT) {
    const pack = packWriter(gitDir);
    try {
      for (const t of fresh) await pack.add('tree', t.body);
      await pack.finish();
    } catch (error) {
      await pack.abort();
      throw error;
    }
    for (const t of fresh) known.add(t.oid);
    return;
  }
  // A batch at a time: a first snapshot of a big tree has thousands of folders, and each write holds a file open.
  for (let i = 0; i < fresh.length; i += WRITE_BATCH) {
    await Promise.all(
      fresh.slice(i, i + WRITE_BATCH).map(async (t) => {
        if (!(await hasLooseObject(gitDir, t.oid))) await writeLooseObject(gitDir, 'tree', t.body, t.oid);
        known.add(t.oid);
      }),
    );
  }
}

/** Membership in the shadow index, by binary search over its entries (index order is byte order). */
export function indexLookup(index: IndexEntries) {
  const { names, start, end, count } = index;
  const nameAt = (i: number) => names.subarray(start[i] as number, end[i] as number);
  const lowerBound = (key: Buffer) => {
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (Buffer.compare(nameAt(mid), key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    has(path: string) {
      const key = Buffer.from(path);
      const i = lowerBound(key);
      return i < count && nameAt(i).equals(key);
    },
    /** Whether the index holds a path below this folder. */
    under(dir: string) {
      const key = Buffer.from(`${dir}/`);
      const i = lowerBound(key);
      return i < count && nameAt(i).subarray(0, key.length).equals(key);
    },
  };
}
