// The shadow index as this process last read or wrote it, kept parsed, and the tree id of each of its folders: a
// later checkpoint after a few edits parses no index and hashes only the trees of the folders above what changed.
// The parse is reused only while the file still ends in the checksum it had; the trees only when the stage that
// changed the index named every path it changed, starting from the index the trees were built from.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { cachedTrees } from './git-index.js';
import { hasLooseObject, packedObjectIds } from './git-objects.js';
import { folderTrees, type IndexEntries, NO_ENTRIES, readIndexEntries, storeTrees } from './index-trees.js';

/** An index file's bytes, its entries, and its checksum (its last 20 bytes, hex). */
export interface ParsedIndex {
  buf: Buffer;
  entries: IndexEntries;
  sum: string;
}

const SUM = 20;
/** git ≥ 2.40 may write no checksum (index.skipHash): such an index is parsed anew at every read. */
const NO_SUM = '0'.repeat(2 * SUM);

export interface ShadowIndex {
  /** The index as it is on disk (undefined: there is none yet). */
  read(): Promise<ParsedIndex | undefined>;
  /** This process wrote the index: what it wrote, for the next read. */
  wrote(index: ParsedIndex): void;
  /**
   * A stage changed the index only at or below `paths` (workspace-relative), starting from the index whose checksum
   * is `from` and leaving the one whose checksum is `to`.
   */
  changed(from: string, to: string, paths: readonly string[]): void;
  /** Writes the trees of the index the store lacks; resolves with the root tree's id. */
  writeTrees(known: Set<string>): Promise<string>;
  /**
   * Writes into the store the trees earlier builds took from the cache tree (they were read from the user's store),
   * so the checkpoints naming them stay readable if the user's repository prunes them. Off the first change's path.
   */
  copyTaken(known: Set<string>): Promise<void>;
}

/** The last 20 bytes of a file, hex: one open and one read, however big the file. */
export async function checksum(file: string): Promise<string | undefined> {
  const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    if (size < 32) return NO_SUM;
    const tail = Buffer.alloc(SUM);
    await handle.read(tail, 0, SUM, size - SUM);
    return tail.toString('hex');
  } finally {
    await handle.close();
  }
}

/** Whether folder `dir` (latin1 bytes, '' for the root) may differ: it holds, is, or lies below a changed path. */
export function dirtyTest(paths: Iterable<string>): (dir: string) => boolean {
  const changed = new Set<string>();
  const above = new Set<string>(['']);
  for (const path of paths) {
    const bytes = Buffer.from(path, 'utf8').toString('latin1');
    changed.add(bytes);
    for (let at = bytes.indexOf('/'); at >= 0; at = bytes.indexOf('/', at + 1)) above.add(bytes.slice(0, at));
  }
  return (dir) => {
    if (above.has(dir) || changed.has(dir)) return true;
    for (let at = dir.indexOf('/'); at >= 0; at = dir.indexOf('/', at + 1)) {
      if (changed.has(dir.slice(0, at))) return true;
    }
    return false;
  };
}

export interface ShadowIndexOptions {
  /**
   * Which of these objects the store cannot read (the user's store, its alternate, included). Given, a first build
   * takes the trees of the folders the index's cache tree says are unchanged instead of making them: a checkpoint
   * of a big repository then writes only the trees above what differs from the user's index.
   */
  missing?: (ids: readonly string[]) => Promise<ReadonlySet<string>>;
  /** Writes these trees, and every tree below them, into the store (git's own pack, from the objects it reads). */
  copy?: (ids: readonly string[]) => Promise<void>;
}

export function shadowIndex(gitDir: string, options: ShadowIndexOptions = {}): ShadowIndex {
  const file = join(gitDir, 'index');
  let parsed: ParsedIndex | undefined;
  // The tree id of every folder of the index whose checksum is `treesOf`, less those below `dirty` paths.
  let folders = new Map<string, Buffer>();
  let treesOf: string | undefined;
  let dirty: Set<string> | undefined;
  // Builds that took trees from the cache tree: their entries as they were (a later patch rewrites the index's
  // bytes in place) and the ids taken, for copyTaken.
  let taken: { entries: IndexEntries; ids: string[] }[] = [];

  const read = async (): Promise<ParsedIndex | undefined> => {
    const sum = await checksum(file);
    if (sum === undefined) return undefined;
    if (parsed && sum === parsed.sum && sum !== NO_SUM) return parsed;
    const buf = await fs.readFile(file);
    parsed = { buf, entries: readIndexEntries(buf), sum: buf.subarray(buf.length - SUM).toString('hex') };
    return parsed;
  };

  return {
    read,
    wrote(index) {
      parsed = index;
    },
    changed(from, to, paths) {
      // Anything else may have changed it since the trees were built: they are built whole.
      if (dirty === undefined || from !== treesOf || from === NO_SUM) {
        dirty = undefined;
        return;
      }
      for (const path of paths) dirty.add(path);
      treesOf = to;
    },
    async writeTrees(known) {
      const index = await read();
      const sum = index?.sum;
      const incremental = dirty !== undefined && sum === treesOf && sum !== NO_SUM;
      let reuse: ((dir: string) => Buffer | undefined) | undefined;
      if (incremental) {
        const isDirty = dirtyTest(dirty ?? []);
        for (const dir of folders.keys()) if (isDirty(dir)) folders.delete(dir);
        reuse = (dir) => folders.get(dir);
      } else folders = new Map();
      const entries = index?.entries ?? NO_ENTRIES;
      // git's cache tree names the trees of folders it has not changed since it wrote or read them; the outermost
      // ones taken must be readable (trees inside a readable tree are), else every tree is made as before.
      const cached = reuse || !options.missing ? undefined : cachedTrees(entries.buf, entries.extensionsAt);
      const ids: string[] = [];
      if (cached && cached.size > 0) {
        reuse = (dir) => {
          const id = cached.get(dir);
          if (id) ids.push(id.toString('hex'));
          return id;
        };
      }
      let { made, folders: built } = folderTrees(entries, reuse);
      if (ids.length > 0 && options.missing && (await options.missing(ids)).size > 0)
        ({ made, folders: built } = folderTrees(entries));
      else if (ids.length > 0) taken.push({ entries: frozen(entries), ids });
      await storeTrees(gitDir, made, known);
      for (const [dir, id] of built) folders.set(dir, id);
      treesOf = sum;
      dirty = new Set();
      return (made[made.length - 1] as { oid: string }).oid;
    },
    async copyTaken(known) {
      const pending = taken;
      taken = [];
      if (pending.length === 0) return;
      try {
        const own = await packedObjectIds(gitDir);
        const stored = async (id: string) =>
          known.has(id) || own.has(id) || (await hasLooseObject(gitDir, id));
        for (const { entries, ids } of pending) {
          // The trees inside a tree the store holds were written with it: all there, nothing to build.
          if ((await Promise.all(ids.map(stored))).every(Boolean)) continue;
          // git packs them from the packs it reads them in (another process, no tree hashed here); else made here.
          if (
            options.copy &&
            (await options.copy(ids).then(
              () => true,
              () => false,
            ))
          )
            continue;
          for (const id of own) known.add(id);
          await storeTrees(gitDir, folderTrees(entries).made, known);
        }
      } catch (error) {
        taken = [...pending, ...taken]; // tried again at the next change
        throw error;
      }
    },
  };
}

/** Index entries that later in-place patches of the index (index-patch.ts) do not change: bytes and modes copied. */
function frozen(entries: IndexEntries): IndexEntries {
  const buf = Buffer.from(entries.buf);
  return {
    ...entries,
    buf,
    names: entries.names === entries.buf ? buf : entries.names,
    modes: [...entries.modes],
  };
}
