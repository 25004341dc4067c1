// A spinner with the elapsed time on one line of stderr, while the chat waits for the model or a tool. It draws
// nothing until its first tick, so output written right after start() is never overwritten, and stop() clears
// the line it drew, leaving the cursor where it was. The chat's screen and `keel run` on a terminal drive it from
// the event stream alike (waitAfter).
import type { AgentEvent, EventSink } from '../core/events.js';
import { sanitize } from './sanitize.js';

export interface Spinner {
  /**
   * Starts (or restarts) with this label; the elapsed time counts from `since` (default: now). Already turning with
   * the same label and `since`, it turns on undisturbed (a restart would wait a tick before drawing again).
   */
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

/**
 * `note`: more to say after the elapsed time, read at each tick (the chat: what was typed meanwhile); the line is cut
 * to the stream's width, so it never wraps (the next tick could not clear a wrapped line).
 */
export function createSpinner(
  stream: NodeJS.WritableStream & { columns?: number },
  dim: (text: string) => string,
  note?: () => string,
): Spinner {
  let timer: NodeJS.Timeout | undefined;
  let drawn = false;
  let turning = '';
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    turning = '';
    if (drawn) stream.write('\r\x1b[2K');
    drawn = false;
  };
  return {
    start(label, since) {
      const started = since ?? Date.now();
      if (timer && turning === `${started} ${label}`) return;
      stop();
      turning = `${started} ${label}`;
      let frame = 0;
      timer = setInterval(() => {
        const glyph = FRAMES[frame++ % FRAMES.length];
        const base = `${label} ${formatElapsed(Date.now() - started)}`;
        const extra = note?.() ?? '';
        const room = Math.max(0, (stream.columns || 80) - 3 - base.length);
        const shown = extra.length <= room ? extra : `${extra.slice(0, Math.max(0, room - 1))}…`;
        stream.write(`\r\x1b[2K${glyph} ${dim(base + shown)}`);
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

/** What a run waits for after an event, if anything: the spinner shows it. Null: nothing; undefined: keep the wait. */
export function waitAfter(event: AgentEvent): string | null | undefined {
  // While a sub-agent works, its task still runs: the spinner names the sub-agent's tool, nothing else ends the wait.
  if (event.parent !== undefined)
    return event.type === 'tool_call' ? `task: running ${sanitize(event.name)}` : undefined;
  switch (event.type) {
    case 'turn_start':
      return 'thinking';
    case 'status':
      return 'waiting';
    case 'tool_call':
      return `running ${sanitize(event.name)}`;
    case 'approval_answered':
      return event.approved ? 'running' : undefined;
    case 'text_delta':
    case 'reasoning_delta':
    case 'approval_requested':
    // The question's prompt takes the line the spinner would redraw.
    case 'user_question':
    case 'tool_result':
    case 'turn_end':
    case 'run_end':
    case 'error':
      return null;
    default:
      return undefined;
  }
}

/**
 * `sink` with the spinner kept in step: cleared before each event prints, started again (its time kept) while
 * the run still waits. For `keel run` at a terminal; the chat's screen does the same with its own writes.
 */
export function spinningSink(sink: EventSink, spinner: Spinner): EventSink {
  let waiting: { label: string; since: number } | undefined;
  return (event) => {
    spinner.stop();
    const next = waitAfter(event);
    if (next === null) waiting = undefined;
    else if (next !== undefined) waiting = { label: next, since: Date.now() };
    const done = sink(event);
    if (waiting) spinner.start(waiting.label, waiting.since);
    return done;
  };
}
