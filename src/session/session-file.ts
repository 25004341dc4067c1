// One session as a file: `<data dir>/sessions/<workspace key>/<id>.jsonl`, a metadata record then one line per
// event. Reading tolerates a half-written last line (a crash mid-write). Summaries for listing: session-summary.ts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { ExitCode, KeelError } from '../core/errors.js';
import { type AgentEvent, replayConversation } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { once } from '../core/once.js';

/** The first line of a session file. */
const sessionMetaSchema = once(() =>
  z.object({
    type: z.literal('session'),
    version: z.literal(1),
    id: z.string(),
    workspace: z.string(),
    provider: z.string(),
    model: z.string(),
    started: z.string(),
    /**
     * Dollars per million tokens of the model the session started with, when known: written before each usage event
     * carried its own cost, and the price of those events' tokens (session-summary.ts requestCost).
     */
    price: z
      .object({
        inputPerMTok: z.number(),
        outputPerMTok: z.number(),
        cacheReadPerMTok: z.number().optional(),
        cacheWritePerMTok: z.number().optional(),
      })
      .optional(),
  }),
);
export type SessionMeta = z.infer<ReturnType<typeof sessionMetaSchema>>;

/**
 * Every other line: an event as the stream carried it, with the time it was written. Checked by hand, not by a zod
 * looseObject: its per-key walk cost a resumed 10k-message session a tenth of a second before the first request.
 */
export function isEventLine(value: unknown): value is AgentEvent & { time: string } {
  if (typeof value !== 'object' || value === null) return false;
  const line = value as { type?: unknown; time?: unknown };
  return typeof line.type === 'string' && typeof line.time === 'string';
}

export interface SessionRecord {
  meta: SessionMeta;
  /** Events in order, each with its `time`. */
  events: (AgentEvent & { time: string })[];
  /** Whether the last line was cut off (a crash mid-write): it was ignored. */
  truncated: boolean;
}

export class SessionError extends KeelError {
  /** `usage`: the user named a session that is not there (exit 2); otherwise one that cannot be read (exit 1). */
  constructor(message: string, hint?: string, usage = false) {
    super('session', usage ? ExitCode.usage : ExitCode.failed, message, hint === undefined ? {} : { hint });
  }
}

export function sessionPath(dir: string, id: string): string {
  return join(dir, `${id}.jsonl`);
}

/** A parsed line as the metadata record that opens a session file, or undefined when it is not one. */
export function metaOf(value: unknown): SessionMeta | undefined {
  const parsed = sessionMetaSchema().safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A line's JSON, or undefined when it does not parse. */
export function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Parses a session file's text; lines that do not parse are skipped, a cut-off last line included. */
export function parseSession(text: string): SessionRecord | undefined {
  const lines = text.split('\n');
  // A file ends with a newline after every complete record; anything after the last one is a write cut short.
  const truncated = lines[lines.length - 1] !== '';
  lines.pop();
  let meta: SessionMeta | undefined;
  const events: SessionRecord['events'] = [];
  for (const line of lines) {
    const value = parseLine(line);
    if (value === undefined) continue;
    if (meta === undefined) meta = metaOf(value);
    else if (isEventLine(value)) events.push(value);
  }
  return meta && { meta, events, truncated };
}

export async function readSession(file: string): Promise<SessionRecord | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseSession(text);
}

/** The conversation a session holds, exactly as the model last read it. */
export function sessionMessages(record: SessionRecord): Message[] {
  return replayConversation(record.events);
}

/** The session `id` names: the whole id or (unless `exact`) a prefix of exactly one. */
export async function findSession(dir: string, id: string, exact = false): Promise<string> {
  // An empty id (`--resume ""`, a variable left unset) is a prefix of every id: it names no session.
  if (id.trim() === '') {
    throw new SessionError(
      'a session id is needed, and the one given is empty',
      'keel sessions list shows the ids (the first characters of one are enough)',
      true,
    );
  }
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => n.slice(0, -'.jsonl'.length));
  if (names.includes(id)) return id;
  const matches = exact ? [] : names.filter((n) => n.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new SessionError(
      `no session ${JSON.stringify(id)} in this workspace`,
      'see keel sessions list',
      true,
    );
  }
  throw new SessionError(
    `${JSON.stringify(id)} names ${matches.length} sessions: ${matches.slice(0, 5).join(', ')}`,
    'give more of the id',
    true,
  );
}
