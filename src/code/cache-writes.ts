// The code caches' writes (the tags and the map): begun after the answer for a large repository, awaited by the next
// load in this process and by the run's close (a `keel run` exits as soon as it closes, and a write cut short would
// make the next run cold); each written to a temp file named for its process and renamed, temp files and
// definitions files of processes that are gone removed. Kept apart from the index so the run's close loads no parser.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { processAlive } from '../core/process-alive.js';

const pendingWrites = new Set<Promise<void>>();
/** Caches larger than this many files are written after the answer (28k files' tags take a second to write). */
const BACKGROUND_WRITE_FILES = 4000;

/**
 * Writes a cache now, or for a large one in the background: the map or index is answered first. The next load in
 * this process waits for it, and so does the run's close (cacheWrites).
 */
export async function settleCache(write: () => Promise<void>, files: number): Promise<void> {
  if (files <= BACKGROUND_WRITE_FILES) return write();
  // Begun on the next turn of the event loop: begun now, its pieces would take turns with the answer at its awaits.
  const pending = new Promise((resolve) => setImmediate(resolve)).then(write);
  pendingWrites.add(pending);
  void pending.finally(() => pendingWrites.delete(pending));
}

/** The cache writes still under way. */
export async function cacheWrites(): Promise<void> {
  await Promise.all(pendingWrites);
}

/**
 * Removes what writers that are gone left beside `file` (a process ended or killed mid-write): their temp files and
 * definitions files, except `keep` (the one the current cache names). A live process's are its writes under way.
 */
export async function removeLeftovers(file: string, keep?: string): Promise<void> {
  const dir = path.dirname(file);
  const base = path.basename(file, '.json');
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const own = new RegExp(`^${escaped}(?:\\.json)?\\.(\\d+)-[0-9a-f]+\\.(?:tmp|defs)$`);
  // Definitions files of map caches before they were named for their process.
  const older = new RegExp(`^${escaped}-[0-9a-f]{12}-[0-9a-f]{8}\\.defs$`);
  const left = names.filter((name) => {
    if (name === keep) return false;
    const pid = own.exec(name)?.[1];
    if (pid !== undefined) return Number(pid) !== process.pid && !processAlive(Number(pid));
    return older.test(name);
  });
  await Promise.all(left.map((name) => fs.rm(path.join(dir, name), { force: true }).catch(() => {})));
}
