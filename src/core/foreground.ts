// Foreground work and the background work that yields to it. A read-only tool call is what the model waits for;
// the first checkpoint's hashing of a big tree runs in the background from launch. On a machine of two cores, both
// at once made a grep over 400 MB two to four times slower than rg alone: the background pauses between its jobs
// while a foreground call runs, and goes on while the model thinks.

let busy = 0;
let waiting: (() => void)[] = [];

/** Runs `work` as foreground work: background work waiting at whenIdle holds back until it (and any other) ends. */
export async function inForeground<T>(work: () => Promise<T>): Promise<T> {
  busy += 1;
  try {
    return await work();
  } finally {
    busy -= 1;
    if (busy === 0) {
      const woken = waiting;
      waiting = [];
      for (const wake of woken) wake();
    }
  }
}

/** Resolves once no foreground work runs (at once when none does); rejects with the signal's reason on abort. */
export function whenIdle(signal?: AbortSignal): Promise<void> {
  if (busy === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      waiting = waiting.filter((wake) => wake !== done);
      reject(signal?.reason);
    };
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    waiting.push(done);
  });
}
