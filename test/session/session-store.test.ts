// The session store and file: lines written and synced per event, secrets redacted without breaking the JSON,
// a cut-off last line ignored, and a resumed file continued on a line of its own.
import { access, appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventStream } from '../../src/core/events.js';
import { createRedactor } from '../../src/safety/redact.js';
import { resumedConversation } from '../../src/session/resume.js';
import { parseSession, readSession } from '../../src/session/session-file.js';
import { createSessionStore } from '../../src/session/session-store.js';
import { summarize } from '../../src/session/session-summary.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function store(resumed = false, file?: string) {
  const dir = await mkdtemp(join(tmpdir(), 'keel-session-'));
  dirs.push(dir);
  const path = file ?? join(dir, 's', 'one.jsonl');
  const s = createSessionStore({
    file: path,
    resumed,
    redact: createRedactor({}),
    meta: {
      id: 'one',
      workspace: '/w',
      provider: 'p',
      model: 'm',
    },
  });
  return { s, path, events: createEventStream(s.sink) };
}

describe('session store', () => {
  it('makes its folder when opened and the file at the first event, again if the folder went away meanwhile', async () => {
    const { s, path, events } = await store();
    await expect
      .poll(() =>
        access(dirname(path)).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    expect(await readdir(dirname(path))).toEqual([]);
    await rm(dirname(path), { recursive: true });
    events.emit({ type: 'run_start', provider: 'p', model: 'm', workspace: '/w' });
    await events.flush();
    expect(parseSession(await readFile(path, 'utf8'))?.events.map((e) => e.type)).toEqual(['run_start']);
    expect((await readdir(dirname(path))).sort()).toEqual(['one.active', 'one.jsonl']);
    await s.close();
    expect(await readdir(dirname(path))).toEqual(['one.jsonl']);
  });

  it('has every event on disk when flush resolves, secrets redacted inside valid JSON', async () => {
    const { s, path, events } = await store();
    events.emit({ type: 'run_start', provider: 'p', model: 'm', workspace: '/w' });
    events.emit({ type: 'message', role: 'user', content: 'key "sk-abcdefghijklmnop" \\ "x"' });
    events.emit({ type: 'text_delta', turn: 1, delta: 'not kept' });
    events.emit({
      type: 'usage',
      turn: 1,
      provider: 'p',
      model: 'm',
      input_tokens: 1000,
      output_tokens: 500,
      cost_usd: 0.002,
    });
    events.emit({ type: 'message', role: 'assistant', content: 'ok' });
    await events.flush();
    const record = parseSession(await readFile(path, 'utf8'));
    expect(record?.events.map((e) => e.type)).toEqual(['run_start', 'message', 'usage', 'message']);
    expect(JSON.stringify(record)).not.toContain('abcdefghijklmnop');
    expect(summarize(record!)).toMatchObject({ title: 'key "sk-[REDACTED]" \\ "x"', turns: 1, cost: 0.002 });
    await s.close();
  });

  it('ignores a cut-off last line and starts the next record on a line of its own', async () => {
    const first = await store();
    first.events.emit({ type: 'message', role: 'user', content: 'hello' });
    await first.events.flush();
    await first.s.close();
    await appendFile(first.path, '{"type":"message","role":"user","content":"cut');
    const cut = await readSession(first.path);
    expect(cut?.truncated).toBe(true);
    expect(resumedConversation(cut!).messages).toEqual([{ role: 'user', content: 'hello' }]);

    const again = await store(true, first.path);
    again.events.emit({ type: 'message', role: 'assistant', content: 'hi' });
    await again.events.flush();
    await again.s.close();
    const record = await readSession(first.path);
    expect(record?.truncated).toBe(false);
    expect(resumedConversation(record!).messages).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ]);
  });
});
