// The SHA-256 of each file over checkpoints.max_file_mb, kept in the shadow store by the file's stat data: a file
// is read again only when that changed, so a run's first checkpoint does not read a 500 MB binary every time.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from '../core/replace-file.js';
import type { LargeFile } from './checkpoints.js';

/** In the shadow git directory, beside `keel-alternates`: `{ "<path>": { "key": "<stat>", "sha256": "<hex>" } }`. */
export const LARGE_HASHES_FILE = 'keel-large-hashes.json';

interface Hashed {
  key: string;
  sha256: string;
}

/** The stat data a hash is kept under: any write changes the size, mtime or ctime, a replacement the inode. */
export interface LargeStat {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** SHA-256 of a file, streamed: a large file is never held in memory; `signal` stops the read (and rejects). */
function sha256(path: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path, signal ? { signal } : {})
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** The kept hashes; none when the file is missing or not what this module writes (checked by hand: no zod here). */
async function readHashes(file: string): Promise<Map<string, Hashed>> {
  const hashes = new Map<string, Hashed>();
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return hashes;
  }
  if (typeof value !== 'object' || value === null) return hashes;
  for (const [path, entry] of Object.entries(value as Record<string, unknown>)) {
    const { key, sha256: digest } = (entry ?? {}) as Partial<Hashed>;
    if (typeof key === 'string' && typeof digest === 'string' && /^[0-9a-f]{64}$/.test(digest))
      hashes.set(path, { key, sha256: digest });
  }
  return hashes;
}

/** The hashes of `root`'s large files, read from (and saved to) the store at `gitDir`. */
export function largeHashes(gitDir: string, root: string) {
  const file = join(gitDir, LARGE_HASHES_FILE);
  let known: Promise<Map<string, Hashed>> | undefined;
  let unsaved = false;
  return {
    /**
     * The file at `path` as a checkpoint names it: hashed now only when its stat data is not the kept one's.
     * `signal`: the stage was given up (a run that changed nothing is ending), so a hash under way stops too.
     */
    async of(path: string, stat: LargeStat, signal?: AbortSignal): Promise<LargeFile> {
      const key = `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
      known ??= readHashes(file);
      const hashes = await known;
      const kept = hashes.get(path);
      if (kept?.key === key) return { path, size: stat.size, sha256: kept.sha256 };
      signal?.throwIfAborted();
      const digest = await sha256(join(root, path), signal);
      hashes.set(path, { key, sha256: digest });
      unsaved = true;
      return { path, size: stat.size, sha256: digest };
    },
    /** Writes what was hashed since; `all`: every large file there is now, so the others' hashes are dropped. */
    async save(all?: readonly LargeFile[]): Promise<void> {
      if (!known) return;
      const hashes = await known;
      if (all) {
        const present = new Set(all.map((f) => f.path));
        for (const path of hashes.keys())
          if (!present.has(path)) {
            hashes.delete(path);
            unsaved = true;
          }
      }
      if (!unsaved) return;
      unsaved = false;
      // Best effort: without it the next run hashes again.
      await replaceFile(file, JSON.stringify(Object.fromEntries(hashes))).catch(() => {
        unsaved = true;
      });
    },
  };
}
