// A spinner with the elapsed time on one line of stderr, while the chat waits for the model or a tool. It draws
// nothing until its first tick, so output written right after start() is never overwritten, and stop() clears
// the line it drew, leaving the cursor where it was.

export interface Spinner {
  /** Starts (or restarts) with this label; the elapsed time counts from `since` (default: now). */
  start(label: string, since?: number): void;
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 100;

/** `0.4s`, `12s`, `2m05s`. */
export function formatElapsed(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  if (seconds < 60) return `${Math.floor(seconds)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}

export function createSpinner(stream: NodeJS.WritableStream, dim: (text: string) => string): Spinner {
  let timer: NodeJS.Timeout | undefined;
  let drawn = false;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    if (drawn) stream.write('\r\x1b[2K');
    drawn = false;
  };
  return {
    start(label, since) {
      stop();
      const started = since ?? Date.now();
      let frame = 0;
      timer = setInterval(() => {
        const glyph = FRAMES[frame++ % FRAMES.length];
        stream.write(`\r\x1b[2K${glyph} ${dim(`${label} ${formatElapsed(Date.now() - started)}`)}`);
        drawn = true;
      }, TICK_MS);
      // A spinner never keeps the process alive.
      timer.unref();
    },
    stop,
  };
}

/** A spinner that does nothing: output that is not a terminal. */
export const noSpinner: Spinner = { start() {}, stop() {} };
