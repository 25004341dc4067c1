// Watches every directory of the workspace a checkpoint covers (inotify: one non-recursive fs.watch each), so a
// later checkpoint stages only the paths that changed instead of walking the whole tree. Whenever a change may
// have gone unseen (not started yet, an error, a full event queue, too many changes, a platform without inotify)
// it says so, and the caller scans the whole tree as without it: a missed change would be an undo losing work.
import {
  type Dirent,
  type FSWatcher,
  promises as fs,
  watch as fsWatch,
  readdirSync,
  readFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { GENERATED_TREES } from './ignored-files.js';

/**
 * What `drain` found: the changed paths (relative, files or directories), or why the caller must scan: `rebuild`
 * (start, then scan), `many` (scan; the watches stand), `off` (scan: this tree is not watched, see `start`).
 */
export type Drained = { paths: Set<string> } | { scan: 'rebuild' | 'many' | 'off' };

export interface TreeWatch {
  /**
   * (Re)watches every directory (closing the old watches); resolves once all are in place, so a full scan that
   * follows sees whatever happened before and the watches whatever happens after. Never rejects.
   */
  start(): Promise<void>;
  /** The paths changed since the last drain or start; waits for the events already queued in the kernel. */
  drain(): Promise<Drained>;
  /** Whether a directory is watched. */
  has(rel: string): boolean;
  /** Watches a directory found new; false when it could not be (the caller scans). */
  add(rel: string): boolean;
  /** A directory named like a generated tree the last scan found not ignored: watched from the next start on. */
  keep(rel: string): void;
  /** Folders named like generated trees (node_modules, dist, …) the last start left unwatched. */
  unwatched(): readonly string[];
  /** Forgets what was seen: the next drain asks for a start and a full scan. */
  invalidate(): void;
  /** Closes every watch; later drains ask for a scan. */
  close(): void;
}

/**
 * How many directories are watched at most: each costs a kernel watch, and the kernel's limit (max_user_watches) is
 * shared by all of the user's programs (editors watch too), so a quarter of it, never more than 50,000. A big
 * repository (babel: 13k folders) is watched where the limit allows it; an old kernel's 8,192 allows 2,048.
 */
export function dirLimit(maxUserWatches: number | undefined): number {
  return maxUserWatches && maxUserWatches > 0 ? Math.min(50_000, Math.floor(maxUserWatches / 4)) : 10_000;
}

function maxUserWatches(): number | undefined {
  try {
    return Number(readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim()) || undefined;
  } catch {
    return undefined;
  }
}
/** The walk's work between turns of the loop. */
const SLICE_MS = 1;

/** More changed paths than this: a full scan costs less than naming them all. */
export const MAX_PATHS = 2000;

/** The kernel's event queue; one read of more than half of it may have lost events (libuv drops the overflow). */
function queueLimit(): number {
  try {
    return Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim()) || 16384;
  } catch {
    return 16384;
  }
}

/** Two turns of the event loop: the second runs after a poll phase, which reads every event queued before it. */
const afterPoll = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

const join2 = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

export function treeWatch(root: string, options: { maxDirs?: number } = {}): TreeWatch {
  // Only Linux's inotify watches a directory for the cost of one kernel watch; elsewhere every scan is full.
  const usable = process.platform === 'linux';
  const maxDirs = options.maxDirs ?? (usable ? dirLimit(maxUserWatches()) : 0);
  const burstLimit = Math.floor(queueLimit() / 2);
  const watchers = new Map<string, FSWatcher>();
  const kept = new Set<string>();
  let skipped: string[] = [];
  let paths = new Set<string>();
  let state: 'off' | 'starting' | 'ready' | 'broken' | 'closed' = 'off';
  let rootIno = 0;
  // Events delivered in the current turn of the loop: one read of the kernel's queue.
  let burst = 0;
  // Starts are counted so a start overtaken by another leaves the newer one's watches alone.
  let generation = 0;

  const closeAll = () => {
    for (const w of watchers.values()) w.close();
    watchers.clear();
  };
  const breakDown = () => {
    if (state === 'ready' || state === 'starting') state = 'broken';
  };

  /** Watches one folder: `gone` when it went meanwhile (its parent's watch tells), `failed` (ENOSPC, EMFILE). */
  const watchDir = (rel: string): 'ok' | 'gone' | 'failed' => {
    if (watchers.has(rel)) return 'ok';
    let watcher: FSWatcher;
    try {
      watcher = fsWatch(join(root, rel), { persistent: false }, (_type, name) => {
        if (burst++ === 0) setImmediate(() => (burst = 0));
        // A name that is not valid UTF-8 cannot be named back to git: scan.
        if (typeof name !== 'string' || name.includes('\uFFFD') || burst > burstLimit) breakDown();
        else if (paths.size < MAX_PATHS) paths.add(join2(rel, name));
        else paths.add('\0many');
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'failed';
    }
    watcher.on('error', breakDown);
    watcher.unref();
    watchers.set(rel, watcher);
    return 'ok';
  };

  /**
   * Watches a folder, then lists it: whatever is made in it before the watch is in the listing. Listed in this
   * thread, a slice of about a millisecond at a time with a turn of the loop between: an asynchronous readdir costs
   * ~45 µs of this thread a folder in callbacks alone (0.6 s for babel's 13k), a synchronous one a third of that.
   * Short slices keep the run's own work going meanwhile: a tool call awaits many turns (a grep in babel waited
   * 450 ms behind slices of 256 folders).
   */
  const walk = async (mine: number): Promise<boolean> => {
    const queue = [''];
    let next = 0;
    while (next < queue.length) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (mine !== generation) return false;
      const sliceEnd = performance.now() + SLICE_MS;
      do {
        const rel = queue[next++] as string;
        const watched = watchDir(rel);
        let entries: Dirent[] | 'gone' | 'failed' = watched === 'ok' ? 'gone' : watched;
        if (watched === 'ok') {
          try {
            entries = readdirSync(join(root, rel), { withFileTypes: true });
          } catch {
            // A folder removed after its watch was set: its parent's watch names it.
          }
        }
        if (entries === 'failed' || (entries === 'gone' && rel === '')) return false;
        if (entries === 'gone') continue;
        for (const entry of entries) {
          // A repository's own folder: nothing in it is ever staged. One nested in the workspace is watched like
          // any folder (its files are held too, nested-repos.ts); a change below one the shadow records by its
          // commit makes that stage scan (stage-changed.ts).
          if (entry.name === '.git') continue;
          if (!entry.isDirectory()) continue;
          const child = join2(rel, entry.name);
          if (GENERATED_TREES.has(entry.name) && !kept.has(child)) {
            skipped.push(child);
            continue;
          }
          queue.push(child);
        }
        if (watchers.size + queue.length - next > maxDirs) return false;
      } while (next < queue.length && performance.now() < sliceEnd);
    }
    return true;
  };

  return {
    async start() {
      if (!usable || state === 'closed') return;
      const mine = ++generation;
      closeAll();
      paths = new Set();
      skipped = [];
      state = 'starting';
      rootIno = (await fs.stat(root).catch(() => undefined))?.ino ?? 0;
      const ok = await walk(mine);
      if (mine !== generation) return;
      if (!ok) {
        // Too many folders, a folder that could not be watched: full scans from now on.
        closeAll();
        state = 'off';
        return;
      }
      // What changed while the folders were listed stays named: the scan that follows stages it anyway, but a
      // folder made in one already listed is watched only once a drain names it.
      if (state === 'starting') state = 'ready';
    },
    async drain() {
      if (!usable || state === 'off' || state === 'closed') return { scan: 'off' };
      if (state !== 'ready') return { scan: 'rebuild' };
      await afterPoll();
      // The workspace itself moved or replaced: every watch names the old place.
      const ino = (await fs.stat(root).catch(() => undefined))?.ino ?? 0;
      if (ino !== rootIno) state = 'broken';
      if ((state as typeof state) !== 'ready') return { scan: 'rebuild' };
      const seen = paths;
      paths = new Set();
      return seen.has('\0many') ? { scan: 'many' } : { paths: seen };
    },
    has: (rel) => watchers.has(rel),
    unwatched: () => skipped,
    add(rel) {
      if (state !== 'ready' || watchers.size >= maxDirs) return false;
      return watchDir(rel) === 'ok';
    },
    keep(rel) {
      if (kept.has(rel)) return;
      kept.add(rel);
      breakDown();
    },
    invalidate: breakDown,
    close() {
      generation++;
      state = 'closed';
      // Closed a batch a turn, from the next one: a run exiting right after (keel run) does not wait for thousands of
      // closes (45 ms for babel's 13k), which the kernel makes at exit anyway; a process going on closes them all.
      const closing = [...watchers.values()];
      watchers.clear();
      const closeSome = () => {
        for (const w of closing.splice(0, 1024)) w.close();
        if (closing.length > 0) setImmediate(closeSome);
      };
      setImmediate(closeSome);
    },
  };
}
