// A shadow index's `index.lock` left by a git process that died without removing it (killed with SIGKILL, the
// machine stopped): git refuses the index while it exists, so every later checkpoint, and with it every change,
// would be refused. Called with the store's lock held, when no other Keel works in the store: a lock no process
// holds open is stale (git keeps its lock file open until it commits or drops it) and is removed.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/** Where /proc cannot tell (not Linux), a lock this old is taken as left behind: no step of ours takes so long. */
const STALE_AFTER_MS = 10 * 60_000;

/** Whether some process has `file` open, by /proc/<pid>/fd; undefined where /proc cannot say. */
export async function heldOpen(file: string, proc = '/proc'): Promise<boolean | undefined> {
  const pids = await fs.readdir(proc).catch(() => undefined);
  if (!pids?.some((name) => /^\d+$/.test(name))) return undefined;
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const fds = await fs.readdir(join(proc, pid, 'fd')).catch(() => [] as string[]);
    const targets = await Promise.all(
      fds.map((fd) => fs.readlink(join(proc, pid, 'fd', fd)).catch(() => '')),
    );
    if (targets.includes(file)) return true;
  }
  return false;
}

/** Removes `<gitDir>/index.lock` when it is stale; true when it did. */
export async function clearStaleIndexLock(gitDir: string, now = Date.now()): Promise<boolean> {
  const lock = join(gitDir, 'index.lock');
  const stat = await fs.stat(lock).catch(() => undefined);
  if (!stat) return false;
  const real = await fs.realpath(lock).catch(() => lock);
  const held = await heldOpen(real);
  if (held === true || (held === undefined && now - stat.mtimeMs < STALE_AFTER_MS)) return false;
  await fs.rm(lock, { force: true });
  return true;
}
