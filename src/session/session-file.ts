// One session as a file: `<data dir>/sessions/<workspace key>/<id>.jsonl`, a metadata record then one line per
// event. Reading tolerates a half-written last line (a crash mid-write) and summarises a session for listing.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { workspaceKey } from '../config/paths.js';
import { ExitCode, KeelError } from '../core/errors.js';
import { type AgentEvent, replayConversation } from '../core/events.js';
import type { Message } from '../core/messages.js';

/** The first line of a session file. */
export const sessionMetaSchema = z.object({
  type: z.literal('session'),
  version: z.literal(1),
  id: z.string(),
  workspace: z.string(),
  provider: z.string(),
  model: z.string(),
  started: z.string(),
  /** Dollars per million tokens, when the model's price was known. */
  price: z.object({ inputPerMTok: z.number(), outputPerMTok: z.number() }).optional(),
});
export type SessionMeta = z.infer<typeof sessionMetaSchema>;

/** Every other line: an event as the stream carried it, with the time it was written. */
const eventLineSchema = z.looseObject({ type: z.string(), time: z.string() });

export interface SessionRecord {
  meta: SessionMeta;
  /** Events in order, each with its `time`. */
  events: (AgentEvent & { time: string })[];
  /** Whether the last line was cut off (a crash mid-write): it was ignored. */
  truncated: boolean;
}

export interface SessionSummary {
  id: string;
  title: string;
  workspace: string;
  provider: string;
  model: string;
  started: string;
  updated: string;
  /** The user's messages (a turn of the chat each). */
  turns: number;
  input_tokens: number;
  output_tokens: number;
  /** Dollars, when the price is known. */
  cost?: number;
}

export class SessionError extends KeelError {
  /** `usage`: the user named a session that is not there (exit 2); otherwise one that cannot be read (exit 1). */
  constructor(message: string, hint?: string, usage = false) {
    super('session', usage ? ExitCode.usage : ExitCode.failed, message, hint === undefined ? {} : { hint });
  }
}

/** `<data dir>/sessions/<workspace key>`: one workspace's sessions. */
export function sessionDir(dataDir: string, realRoot: string): string {
  return join(dataDir, 'sessions', workspaceKey(realRoot));
}

export function sessionPath(dir: string, id: string): string {
  return join(dir, `${id}.jsonl`);
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
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (meta === undefined) {
      const parsed = sessionMetaSchema.safeParse(value);
      if (parsed.success) meta = parsed.data;
      continue;
    }
    if (eventLineSchema.safeParse(value).success) events.push(value as AgentEvent & { time: string });
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

/** The first user message, on one line: the title, without asking the model. */
export function sessionTitle(record: SessionRecord): string {
  const first = record.events.find((e) => e.type === 'message' && e.role === 'user');
  const text = first && 'content' in first ? String(first.content) : '';
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 72 ? `${line.slice(0, 71)}…` : line || '(no message)';
}

export function summarize(record: SessionRecord): SessionSummary {
  const { meta, events } = record;
  let input = 0;
  let output = 0;
  let turns = 0;
  let provider = meta.provider;
  let model = meta.model;
  for (const e of events) {
    if (e.type === 'usage') {
      input += e.input_tokens;
      output += e.output_tokens;
    } else if (e.type === 'message' && e.role === 'user' && !isKeelNote(e.content)) turns += 1;
    else if (e.type === 'run_start') {
      provider = e.provider;
      model = e.model;
    }
  }
  const summary: SessionSummary = {
    id: meta.id,
    title: sessionTitle(record),
    workspace: meta.workspace,
    provider,
    model,
    started: meta.started,
    updated: events[events.length - 1]?.time ?? meta.started,
    turns,
    input_tokens: input,
    output_tokens: output,
  };
  if (meta.price) {
    summary.cost = (input * meta.price.inputPerMTok + output * meta.price.outputPerMTok) / 1_000_000;
  }
  return summary;
}

/** Notes Keel adds in the user's role (pruning, "continue", an interrupted call): not turns of the user. */
export function isKeelNote(content: string): boolean {
  return content.startsWith('[Keel:');
}

/** A workspace's sessions, newest first. */
export async function listSessions(dir: string): Promise<SessionSummary[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const summaries: SessionSummary[] = [];
  for (const name of names.filter((n) => n.endsWith('.jsonl'))) {
    const record = await readSession(join(dir, name));
    if (record) summaries.push(summarize(record));
  }
  return summaries.sort((a, b) => b.updated.localeCompare(a.updated) || b.id.localeCompare(a.id));
}

/** The session `id` names: the whole id or a prefix of exactly one. */
export async function findSession(dir: string, id: string): Promise<string> {
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => n.slice(0, -'.jsonl'.length));
  if (names.includes(id)) return id;
  const matches = names.filter((n) => n.startsWith(id));
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
