// A saved session written out as it is read (`keel sessions show`, an export to stdout), in memory that does not
// grow with the file: a first pass line by line takes the summary for the heading, the sub-agent runs and where each
// message of the final conversation is (its line, or its place in an edit's line: compactions and /undo change the
// conversation after the fact); then each message is read back from its line and written before the next is read.
// The whole file read at once took 660 MB of memory for an 87 MB session.
import { open } from 'node:fs/promises';
import { type AgentEvent, type MessageEvent, messageFromEvent, replayEvent } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { markdownHeading, markdownMessage } from './export.js';
import { isEventLine, metaOf, parseLine, type SessionMeta } from './session-file.js';
import { type SessionSummary, SessionTally } from './session-summary.js';
import { SubagentRuns } from './subagent-runs.js';

/** Where a message of the conversation is: the line of its event, and for an edit's message, which one. */
interface MessageAt {
  offset: number;
  length: number;
  edit?: number;
  index?: number;
}

/** What the first pass learns of a session file. */
export interface SessionScan {
  meta: SessionMeta;
  summary: SessionSummary;
  /** The conversation as the model last read it, by where each message is. */
  messages: MessageAt[];
  subruns: ReadonlyMap<string, readonly string[]>;
  /** The byte range of the event lines: after the metadata line, up to the last complete line. */
  eventsFrom: number;
  eventsTo: number;
}

/** Writes text out, resolving when it may write more (the output's backpressure). */
export type Write = (text: string) => Promise<void>;

/** Bytes read at a time. */
const CHUNK = 1 << 20;

/** One complete line: where it starts, its length in bytes without the newline, and its text. */
interface Line {
  offset: number;
  length: number;
  text: string;
}

/** The complete lines of `file` in [from, to), in order; a last line without its newline (a write cut short) is left out. */
async function* linesOf(file: string, from = 0, to = Number.POSITIVE_INFINITY): AsyncGenerator<Line> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK);
    let position = from;
    let start = from;
    // The current line's bytes from earlier chunks (a line longer than a chunk).
    let pieces: Buffer[] = [];
    for (;;) {
      const want = Math.min(CHUNK, to - position);
      if (want <= 0) return;
      const { bytesRead } = await handle.read(buffer, 0, want, position);
      if (bytesRead === 0) return;
      const chunk = buffer.subarray(0, bytesRead);
      let at = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, at)) {
        const tail = chunk.subarray(at, nl);
        const bytes = pieces.length > 0 ? Buffer.concat([...pieces, tail]) : tail;
        pieces = [];
        at = nl + 1;
        const line = { offset: start, length: bytes.length, text: bytes.toString('utf8') };
        start = position + at;
        yield line;
      }
      // A copy: the buffer is read into again.
      if (at < bytesRead) pieces.push(Buffer.from(chunk.subarray(at)));
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/**
 * The first pass over a session file; undefined when it holds no session record (cut short, not a session) or
 * cannot be read. Lines that do not parse are skipped, as readSession skips them.
 */
export async function scanSession(file: string): Promise<SessionScan | undefined> {
  let meta: SessionMeta | undefined;
  let tally: SessionTally | undefined;
  let eventsFrom = 0;
  let eventsTo = 0;
  const runs = new SubagentRuns();
  const messages: MessageAt[] = [];
  try {
    for await (const { offset, length, text } of linesOf(file)) {
      eventsTo = offset + length + 1;
      const value = parseLine(text);
      if (value === undefined) continue;
      if (tally === undefined) {
        meta = metaOf(value);
        if (meta) tally = new SessionTally(meta);
        eventsFrom = eventsTo;
        continue;
      }
      if (!isEventLine(value)) continue;
      tally.add(value);
      runs.add(value);
      replayEvent(messages, value, (_, edit, index) =>
        edit === undefined ? { offset, length } : { offset, length, edit, index },
      );
    }
  } catch {
    return undefined;
  }
  if (!meta || !tally) return undefined;
  return { meta, summary: tally.current, messages, subruns: runs.byTask, eventsFrom, eventsTo };
}

/** Reads the messages of a scan back from the file, one line at a time (the last one kept: an edit holds many). */
async function messageReader(file: string) {
  const handle = await open(file, 'r');
  let last: { offset: number; value: unknown } | undefined;
  return {
    async read(at: MessageAt): Promise<Message> {
      if (last?.offset !== at.offset) {
        const bytes = Buffer.alloc(at.length);
        await handle.read(bytes, 0, at.length, at.offset);
        last = { offset: at.offset, value: JSON.parse(bytes.toString('utf8')) };
      }
      const event = last.value as AgentEvent;
      const message =
        at.edit === undefined || !('edits' in event)
          ? (event as MessageEvent)
          : event.edits[at.edit]!.messages[at.index!]!;
      return messageFromEvent(message);
    },
    close: () => handle.close(),
  };
}

/**
 * The session as Markdown, exactly as toMarkdown gives it: each piece written once its message is read. Trailing
 * white space is held back until more text follows, so the end is trimmed as toMarkdown trims it, and no piece ends
 * inside a `\r\n`.
 */
export async function writeMarkdown(
  file: string,
  scan: SessionScan,
  write: Write,
  signal?: AbortSignal,
): Promise<void> {
  let held = '';
  const put = async (lines: string[]) => {
    const text = held + lines.map((line) => `${line}\n`).join('');
    const end = text.trimEnd().length;
    held = text.slice(end);
    if (end > 0) await write(text.slice(0, end));
  };
  await put(markdownHeading(scan.summary));
  for await (const m of messagesOf(file, scan)) {
    // Nobody reads any more (`| head`): the rest is not read either.
    if (signal?.aborted) return;
    await put(markdownMessage(m, scan.subruns));
  }
  await write('\n');
}

/** `JSON.stringify(value, null, 2)` as it reads `depth` levels in. */
const nested = (value: unknown, depth: number) =>
  JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);

/** The items of a JSON array at depth 1, written one by one as JSON.stringify would lay them out. */
async function writeArray(
  name: string,
  items: AsyncIterable<unknown>,
  write: Write,
  signal?: AbortSignal,
): Promise<void> {
  await write(`,\n  ${JSON.stringify(name)}: [`);
  let count = 0;
  for await (const item of items) {
    if (signal?.aborted) return;
    await write(`${count++ > 0 ? ',' : ''}\n    ${nested(item, 2)}`);
  }
  await write(count > 0 ? '\n  ]' : ']');
}

/**
 * The session as JSON, exactly as exportSession gives it (the summary, the price, the messages and the events), each
 * message and event written once it is read.
 */
export async function writeJson(
  file: string,
  scan: SessionScan,
  write: Write,
  signal?: AbortSignal,
): Promise<void> {
  // The object's own fields, without its closing brace.
  await write(JSON.stringify({ ...scan.summary, price: scan.meta.price }, null, 2).slice(0, -2));
  await writeArray('messages', messagesOf(file, scan), write, signal);
  await writeArray('events', eventsOf(file, scan), write, signal);
  await write('\n}\n');
}

/** The scanned conversation's messages, read in turn. */
async function* messagesOf(file: string, scan: SessionScan): AsyncGenerator<Message> {
  const reader = await messageReader(file);
  try {
    for (const at of scan.messages) yield await reader.read(at);
  } finally {
    await reader.close();
  }
}

/** The event lines of the scanned range, read in turn. */
async function* eventsOf(file: string, scan: SessionScan): AsyncGenerator<AgentEvent> {
  for await (const { text } of linesOf(file, scan.eventsFrom, scan.eventsTo)) {
    const value = parseLine(text);
    if (isEventLine(value)) yield value;
  }
}
