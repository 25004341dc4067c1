// When the reader of stdout or stderr goes away (`keel run --output stream-json | head -1`, a closed terminal), Keel
// stops its work like an interrupt (running commands are killed) and exits 0 without a word, instead of dying on
// EPIPE or EIO.

/** A watch of output streams: `signal` aborts once one of them has been closed by its reader. */
export function closedOutputWatch(): {
  signal: AbortSignal;
  watch(streams: NodeJS.WriteStream[]): void;
} {
  const closed = new AbortController();
  return {
    signal: closed.signal,
    watch(streams) {
      for (const stream of streams) {
        stream.on('error', (error: NodeJS.ErrnoException) => {
          // EPIPE: the pipe's reader left; EIO: the terminal was closed. Either way nobody sees what comes next.
          if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
          if (closed.signal.aborted) return;
          // Nobody reads any more, so nothing more is said: not the rest of the events, not "interrupted".
          for (const each of streams) mute(each);
          closed.abort();
        });
      }
    },
  };
}

// One per process, like the two streams it watches.
const processOutput = closedOutputWatch();

/** Aborted once stdout or stderr has been closed by its reader. */
export const outputClosed: AbortSignal = processOutput.signal;

/** Installed once at start-up, before any command writes. Other stream errors still fail loudly. */
export function watchClosedOutput(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  processOutput.watch(streams);
}

/** Calls handler when output closes (at once if it already has); returns the function that stops listening. */
export function onOutputClosed(handler: () => void): () => void {
  if (outputClosed.aborted) {
    handler();
    return () => {};
  }
  outputClosed.addEventListener('abort', handler, { once: true });
  return () => outputClosed.removeEventListener('abort', handler);
}

function mute(stream: NodeJS.WriteStream): void {
  stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown) => {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done);
    return true;
  }) as NodeJS.WriteStream['write'];
}
