// A session written out as it is read: the same Markdown and JSON as the whole-file exporters, for a file with
// compactions, an /undo, sub-agent work, a line longer than a read and a cut-off last line; and the messages read
// from the file one at a time, as they are written.
import { appendFile, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventStream } from '../../src/core/events.js';
import { createRedactor } from '../../src/safety/redact.js';
import { exportSession, toMarkdown } from '../../src/session/export.js';
import { readSession } from '../../src/session/session-file.js';
import { createSessionStore } from '../../src/session/session-store.js';
import { scanSession, writeJson, writeMarkdown } from '../../src/session/session-stream.js';
import { writeBigSession } from './big-session.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'keel-session-stream-'));
  dirs.push(dir);
  return join(dir, 's.jsonl');
}

/** What a stream writes, and each piece as it came. */
function collect() {
  const pieces: string[] = [];
  return { pieces, write: async (text: string) => void pieces.push(text), text: () => pieces.join('') };
}

/** A session with everything that changes the conversation after the fact, written by the store. */
async function eventfulSession(file: string): Promise<void> {
  const store = createSessionStore({
    file,
    resumed: false,
    redact: createRedactor({}),
    meta: { id: 's', workspace: '/w', provider: 'p', model: 'm' },
  });
  const events = createEventStream(store.sink);
  // Longer than a read (1 MB), with characters of two bytes across the read's edges.
  const long = 'é'.repeat(700_000);
  events.emit({ type: 'run_start', provider: 'p', model: 'm', workspace: '/w' });
  events.emit({ type: 'message', role: 'system', content: 'You are Keel.' });
  events.emit({ type: 'message', role: 'user', content: 'first\r\nquestion  ' });
  events.emit({
    type: 'message',
    role: 'assistant',
    content: 'calling',
    reasoning: 'think\nmore',
    tool_calls: [{ id: 'T1', name: 'task', input: '{"description":"look"}' }],
  });
  events.emit({
    type: 'tool_call',
    turn: 1,
    id: 'r1',
    name: 'read_file',
    args: { path: 'a.ts' },
    parent: 'T1',
  });
  events.emit({
    type: 'tool_result',
    turn: 1,
    id: 'r1',
    name: 'read_file',
    success: true,
    display: 'read a.ts\nmore',
    truncated: false,
    metadata: {},
    duration_ms: 1,
    parent: 'T1',
  });
  events.emit({ type: 'message', role: 'user', content: 'a sub-agent message', parent: 'T1' });
  events.emit({ type: 'message', role: 'tool', tool_call_id: 'T1', tool_name: 'task', content: long });
  events.emit({
    type: 'usage',
    turn: 1,
    provider: 'p',
    model: 'm',
    input_tokens: 7,
    output_tokens: 3,
    cost_usd: 0.01,
  });
  events.emit({ type: 'message', role: 'assistant', content: 'first answer' });
  events.emit({ type: 'message', role: 'user', content: 'second' });
  events.emit({ type: 'message', role: 'assistant', content: 'undone answer' });
  events.emit({
    type: 'conversation_edited',
    reason: 'undo',
    edits: [{ from: 5, count: 2, messages: [] }],
  });
  events.emit({
    type: 'compaction',
    turn: 2,
    trigger: 'manual',
    tokens_before: 100,
    tokens_after: 10,
    summary: 'so far',
    edits: [
      {
        from: 1,
        count: 1,
        messages: [
          { type: 'message', role: 'user', content: 'summary one' },
          { type: 'message', role: 'assistant', content: 'summary two' },
        ],
      },
    ],
  });
  events.emit({ type: 'message', role: 'user', content: 'third' });
  events.emit({ type: 'message', role: 'assistant', content: 'last answer\n\n  \t\n' });
  await events.flush();
  await store.close();
  // A line that does not parse, and a write cut short.
  await appendFile(file, 'not json\n{"type":"message","role":"user","content":"cut');
}

describe('a session written out as it is read', () => {
  it('gives the Markdown and the JSON the whole-file exporters give', async () => {
    const file = await tempFile();
    await eventfulSession(file);
    const record = (await readSession(file))!;
    expect(record.truncated).toBe(true);
    const scan = (await scanSession(file))!;
    const md = collect();
    await writeMarkdown(file, scan, md.write);
    expect(md.text()).toBe(toMarkdown(record));
    expect(md.text()).toContain('summary two');
    expect(md.text()).not.toContain('first\r\nquestion');
    expect(md.text()).not.toContain('undone answer');
    expect(md.text()).toContain('é'.repeat(700_000));
    expect(md.text()).toContain('✓ read_file {"path":"a.ts"} → read a.ts');
    const json = collect();
    await writeJson(file, scan, json.write);
    expect(json.text()).toBe(exportSession(record, 'json'));
  });

  it('gives the same for a session without events, and nothing for a file without a session record', async () => {
    const file = await tempFile();
    await writeFile(
      file,
      `${JSON.stringify({ type: 'session', version: 1, id: 'e', workspace: '/w', provider: 'p', model: 'm', started: '2026-01-01T00:00:00.000Z' })}\n`,
    );
    const record = (await readSession(file))!;
    const scan = (await scanSession(file))!;
    const md = collect();
    await writeMarkdown(file, scan, md.write);
    expect(md.text()).toBe(toMarkdown(record));
    const json = collect();
    await writeJson(file, scan, json.write);
    expect(json.text()).toBe(exportSession(record, 'json'));

    await writeFile(file, '{"type":"sess');
    expect(await scanSession(file)).toBeUndefined();
    expect(await scanSession(join(file, 'missing'))).toBeUndefined();
  });

  it('writes each message once it is read from the file, not from a copy of the file taken before', async () => {
    const file = await tempFile();
    await writeBigSession(file, 's', '/w', 3_000_000);
    const scan = (await scanSession(file))!;
    const { size } = await stat(file);
    const text = await readFile(file, 'latin1');
    const last = text.lastIndexOf('answer ');
    const md = collect();
    let changed = false;
    await writeMarkdown(file, scan, async (piece) => {
      md.pieces.push(piece);
      if (changed) return;
      changed = true;
      // Once the heading is out, the last answer changes on disk (same length): what is shown is read after this.
      const handle = await open(file, 'r+');
      await handle.write('ANSWER ', last);
      await handle.close();
    });
    expect(md.pieces.length).toBeGreaterThan(scan.messages.length / 2);
    expect(md.text()).toMatch(/ANSWER \d+\n$/);
    expect((await stat(file)).size).toBe(size);
  });
});
