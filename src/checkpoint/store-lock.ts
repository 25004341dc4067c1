// One Keel at a time in a workspace's checkpoint store: two runs in one workspace (a chat and a `keel run` beside it)
// each stage into the same shadow index and move the same ref, and the one that came second failed its checkpoint,
// refusing the call. The lock is a file created exclusively, holding its owner's pid; the second waits for it. A
// lock whose owner is gone (killed mid-checkpoint) is taken over.
import { closeSync, promises as fs, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { processAlive } from '../core/process-alive.js';

/** Past this, a checkpoint gives up waiting (a first checkpoint of a big tree takes seconds). */
const WAIT_MS = 60_000;
/** An empty lock older than this was left by an owner killed between creating and writing it. */
const EMPTY_STALE_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the lock at `path` was left by an owner that is gone. */
async function stale(path: string): Promise<boolean> {
  const text = await fs.readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return false; // Released meanwhile: try again.
  const pid = Number.parseInt(text, 10);
  if (Number.isFinite(pid) && pid > 0) return pid !== process.pid && !processAlive(pid);
  const stat = await fs.stat(path).catch(() => undefined);
  return stat !== undefined && Date.now() - stat.mtimeMs > EMPTY_STALE_MS;
}

/**
 * `fn` with the store's lock held. Not reentrant: a store's own steps (a restore's snapshot) call its unlocked parts.
 * `waitMs`: how long to wait for another process's checkpoint before failing with a message that names the lock.
 * (Not AsyncLocalStorage for reentrancy: it turns on promise hooks for the whole process, 30 ms on a short run.)
 */
export function storeLock(gitDir: string, waitMs = WAIT_MS) {
  // Beside the shadow repository, not in it: the first checkpoint creates the repository while holding the lock.
  const path = join(dirname(gitDir), 'store.lock');
  // Calls of this process queue here, so only one of them waits on the file.
  let queue: Promise<unknown> = Promise.resolve();

  // Synchronous: three small system calls, cheaper than three trips through the thread pool (a checkpoint takes one).
  const tryLock = (made = false): boolean => {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !made) {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        return tryLock(true);
      }
      if (code === 'EEXIST') return false;
      throw error;
    }
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  };

  const acquire = async () => {
    const deadline = Date.now() + waitMs;
    for (let wait = 2; ; wait = Math.min(wait * 2, 25)) {
      if (tryLock()) return;
      if (await stale(path)) {
        await fs.rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(
          `another Keel is taking a checkpoint of this workspace (${path} is held); if no other Keel runs here, remove that file`,
        );
      await sleep(wait);
    }
  };

  return async function locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = queue.then(async () => {
      await acquire();
      try {
        return await fn();
      } finally {
        rmSync(path, { force: true });
      }
    });
    queue = run.catch(() => {});
    return run;
  };
}
