// A fork's file: the kept messages, what the sub-agents of their task calls did, and the todo list before the cut.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { writeFork } from '../../src/session/fork.js';
import { parseSession } from '../../src/session/session-file.js';
import { subagentRuns } from '../../src/session/subagent-runs.js';

const line = (time: number, event: object) =>
  JSON.stringify({ ...event, time: new Date(Date.UTC(2026, 0, 1, 0, 0, time)).toISOString() });

test("a fork keeps the sub-agent work of the task calls it keeps, and none of the later ones'", async () => {
  const task = (id: string) => ({ id, name: 'task', args: { description: `look ${id}` } });
  const sub = (parent: string, id: string, time: number) => [
    line(time, { type: 'tool_call', id, name: 'read_file', args: { path: `${parent}.ts` }, parent }),
    line(time, { type: 'tool_result', id, name: 'read_file', success: true, display: 'read', parent }),
  ];
  const text = [
    JSON.stringify({
      type: 'session',
      version: 1,
      id: 's',
      workspace: '/w',
      provider: 'p',
      model: 'm',
      started: 'x',
    }),
    line(1, { type: 'message', role: 'user', content: 'explore' }),
    line(2, { type: 'message', role: 'assistant', content: '', tool_calls: [task('c1')] }),
    ...sub('c1', 'r1', 3),
    line(4, { type: 'message', role: 'tool', tool_call_id: 'c1', tool_name: 'task', content: 'found it' }),
    line(5, { type: 'message', role: 'assistant', content: 'done' }),
    line(6, { type: 'message', role: 'user', content: 'again' }),
    line(7, { type: 'message', role: 'assistant', content: '', tool_calls: [task('c2')] }),
    ...sub('c2', 'r2', 8),
    line(9, { type: 'message', role: 'tool', tool_call_id: 'c2', tool_name: 'task', content: 'found more' }),
  ].join('\n');
  const record = parseSession(`${text}\n`)!;
  const dir = await mkdtemp(join(tmpdir(), 'keel-fork-'));
  try {
    const id = await writeFork(dir, record, 4, 'f');
    const fork = parseSession(await readFile(join(dir, `${id}.jsonl`), 'utf8'))!;
    const runs = subagentRuns(fork.events);
    expect([...runs.keys()]).toEqual(['c1']);
    expect(runs.get('c1')).toEqual(['✓ read_file {"path":"c1.ts"} → read']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
