// A fork of a saved session: a new session file holding the first messages of its conversation (as the model
// last read them, each with the time it was recorded, so /rewind --files still finds the checkpoints), what the
// sub-agents of its task calls did, and the todo list as it stood then. The original file is only read.
import { open } from 'node:fs/promises';
import { messageEvent } from '../core/events.js';
import { messageTimes } from './message-times.js';
import { type SessionMeta, type SessionRecord, sessionMessages, sessionPath } from './session-file.js';

/** Writes the fork under the first free id of `id`, `id-2`, …; returns the id it took. */
export async function writeFork(
  dir: string,
  record: SessionRecord,
  /** How many messages of the conversation the fork keeps. */
  keep: number,
  id: string,
  now: Date = new Date(),
): Promise<string> {
  const messages = sessionMessages(record).slice(0, keep);
  const times = messageTimes(record);
  const fallback = now.toISOString();
  const meta: SessionMeta = { ...record.meta, id, started: fallback };
  const lines = messages.map((m, i) => ({ ...messageEvent(m), time: times[i] ?? fallback }));
  // The todo list as it last stood before the cut.
  const until = lines.at(-1)?.time ?? '';
  const todo = record.events.findLast((e) => e.type === 'todo' && e.time <= until);
  // What the sub-agents of the kept task calls did (shown under each task), by the task call's id.
  const calls = new Set(
    messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []).map((c) => c.id)),
  );
  const subagents = record.events.filter(
    (e) => e.parent !== undefined && calls.has(e.parent.split('/')[0] ?? ''),
  );
  const events = [...lines, ...subagents, ...(todo ? [todo] : [])];
  for (let n = 1; ; n++) {
    const taken = n === 1 ? id : `${id}-${n}`;
    const file = await open(sessionPath(dir, taken), 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST' && n < 100) return undefined;
      throw error;
    });
    if (!file) continue;
    try {
      const text = [{ ...meta, id: taken }, ...events].map((line) => `${JSON.stringify(line)}\n`).join('');
      await file.writeFile(text);
      await file.datasync();
    } finally {
      await file.close();
    }
    return taken;
  }
}
