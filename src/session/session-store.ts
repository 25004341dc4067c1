// The session store: an event consumer appending the conversation and its usage to the session file. Each
// event it keeps becomes one line; the lines of a burst go out in one write to a file opened to append in synchronous
// mode (O_APPEND | O_SYNC: on disk when the write resolves), and
// the sink returns that write's promise, so the loop's flush() before each model call waits until it is on disk.
// It also keeps the session's running summary and rewrites its sidecar (session-sidecar.ts) at each turn's end.
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atPath } from '../core/errors.js';
import type { AgentEvent, EventSink } from '../core/events.js';
import { type Redactor, redactDeep } from '../safety/redact.js';
import { clearMarker, writeMarker } from './marker.js';
import type { SessionMeta } from './session-file.js';
import { withStoredImages } from './session-images.js';
import { writeSidecar } from './session-sidecar.js';
import { type SessionSummary, SessionTally } from './session-summary.js';

const isMissing = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/** What a session keeps: the conversation, what was called and its outcome, usage, the todo list, and each run's bounds. */
const kept = new Set<AgentEvent['type']>([
  'run_start',
  'message',
  'conversation_pruned',
  'compaction',
  'conversation_edited',
  'tool_call',
  'tool_result',
  'usage',
  'todo',
  'error',
  'run_end',
]);

export interface SessionStoreOptions {
  file: string;
  /** Written as the first line when the file is new; a resumed session's file already has it. */
  meta: Omit<SessionMeta, 'type' | 'version' | 'started'>;
  resumed: boolean;
  /** A resumed session's summary so far: the totals continue from it. */
  summary?: SessionSummary;
  redact: Redactor;
  now?: () => Date;
}

export interface SessionStore {
  readonly id: string;
  readonly file: string;
  sink: EventSink;
  /** A clean exit: the active-session marker goes (after a crash it stays, and the next chat says so). */
  close(): Promise<void>;
}

export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const now = options.now ?? (() => new Date());
  let queue: string[] = [];
  let writing: Promise<void> | undefined;
  let opened: Promise<import('node:fs/promises').FileHandle> | undefined;
  let started = options.resumed;
  /** Bytes in the file: its size when opened plus every line written since (the sidecar says which size it covers). */
  let bytes = 0;
  let tally: SessionTally | undefined = options.summary
    ? new SessionTally({ ...options.meta, started: options.summary.started }, options.summary)
    : undefined;
  let sidecarDue = false;

  // Its folder now, off the first request's path (creating a new home's folders took over a millisecond there); the
  // file on the first run, so a chat left before its first message leaves no empty session behind.
  const makeFolder = () => mkdir(dirname(options.file), { recursive: true, mode: 0o700 });
  const folder = makeFolder();
  folder.catch(() => {}); // reported by the first write, which awaits it
  // The marker and the file at once. Appends in synchronous mode (O_SYNC): a write is on disk when it resolves, one
  // trip to the thread pool where a write and an fdatasync were two (the first request waits on them).
  const create = () =>
    Promise.allSettled([open(options.file, 'as+', 0o600), writeMarker(options.file)] as const);
  const handle = () => {
    opened ??= (async () => {
      await folder;
      let [opening, marking] = await create();
      // The folder went away since the session opened (a chat idle before its first message): made again.
      if ([opening, marking].some((made) => made.status === 'rejected' && isMissing(made.reason))) {
        if (opening.status === 'fulfilled') await opening.value.close().catch(() => {});
        await makeFolder();
        [opening, marking] = await create();
      }
      if (opening.status === 'rejected') throw opening.reason;
      const file = opening.value;
      if (marking.status === 'rejected') {
        await file.close().catch(() => {});
        throw marking.reason;
      }
      // A crash may have cut the last line short: the next record starts on a line of its own.
      const { size } = await file.stat();
      bytes = size;
      const last = Buffer.alloc(1);
      if (size > 0 && (await file.read(last, 0, 1, size - 1)).bytesRead === 1 && last[0] !== 0x0a) {
        await file.write('\n');
        bytes += 1;
      }
      return file;
    })();
    return opened;
  };

  const drain = async (): Promise<void> => {
    const file = await handle();
    while (queue.length > 0 || sidecarDue) {
      if (queue.length === 0) {
        sidecarDue = false;
        // Derived data: a failure here costs a full read at the next listing, never the session.
        if (tally) await writeSidecar(options.file, tally.current, bytes).catch(() => {});
        continue;
      }
      const lines = queue.join('');
      queue = [];
      await file.write(lines).catch((error: unknown) => {
        // A full disk: the session file is where it happened (environmentError names it and the fix).
        throw atPath(error, options.file);
      });
      bytes += Buffer.byteLength(lines);
    }
  };

  const write = () => {
    writing ??= drain().finally(() => {
      writing = undefined;
    });
    return writing;
  };

  const sink: EventSink = (event) => {
    if (event.type === 'turn_end' || event.type === 'run_end') {
      sidecarDue = true;
      // The run_end line itself is kept: the sidecar is written after it, by the drain below.
      if (!kept.has(event.type)) return started ? write() : undefined;
    }
    if (!kept.has(event.type)) return;
    if (!started) {
      started = true;
      const meta: SessionMeta = {
        type: 'session',
        version: 1,
        ...options.meta,
        started: now().toISOString(),
      };
      tally ??= new SessionTally(meta);
      queue.push(`${JSON.stringify(redactDeep(meta, options.redact))}\n`);
    }
    const line = redactDeep(
      { ...withStoredImages(event, options.file), time: now().toISOString() },
      options.redact,
    );
    tally?.add(line);
    queue.push(`${JSON.stringify(line)}\n`);
    return write();
  };

  return {
    id: options.meta.id,
    file: options.file,
    sink,
    async close() {
      await writing?.catch(() => {});
      // A file that could not be opened (a full disk, an unwritable dir) was reported when the run failed on it.
      const file = await opened?.catch(() => undefined);
      if (!file) return clearMarker(options.file).catch(() => {});
      await file.close();
      await clearMarker(options.file);
    },
  };
}
