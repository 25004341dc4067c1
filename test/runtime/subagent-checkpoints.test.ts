// Sub-agents' changes in `keel undo --list`: tasks whose agents may change files run one at a time (only read-only
// tasks run side by side), so each checkpoint a sub-agent's write takes names that write's file alone.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { openCheckpointStore } from '../../src/checkpoint/checkpointer.js';
import { makeWorkspace } from '../support/cli.js';
import { type ReceivedRequest, type ScriptStep, startModelServer } from '../support/model-server.js';
import { useUndoRuns } from '../support/undo-runs.js';

const keel = useUndoRuns();

it('gives each write of two writing tasks of one turn a checkpoint holding its own file only', async () => {
  const ws = await makeWorkspace({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
  const agents = join(dirname(keel.stateHome()), 'config', 'keel', 'agents');
  await mkdir(agents, { recursive: true });
  await writeFile(join(agents, 'writer.md'), '---\ndescription: writes\ntools: [write_file]\n---\n');
  // Each sub-agent writes the file its task names, then answers; the parent answers once both are done.
  const step: ScriptStep = (r: ReceivedRequest) => {
    const answered = (r.body.messages as { role: string }[]).some((m) => m.role === 'tool');
    if (!r.rawBody.includes('You are a sub-agent')) return { text: 'done' };
    const file = r.rawBody.includes('WRITE_A') ? 'a.txt' : 'b.txt';
    if (answered) return { text: `wrote ${file}` };
    return { toolCalls: [{ id: `w-${file}`, name: 'write_file', args: { path: file, content: 'new\n' } }] };
  };
  const task = (id: string, prompt: string) => ({
    id,
    name: 'task',
    args: { description: prompt, prompt, agent: 'writer' },
  });
  const s = await startModelServer({
    script: [{ toolCalls: [task('t1', 'WRITE_A'), task('t2', 'WRITE_B')] }, step, step, step, step, step],
  });
  try {
    expect((await keel.run(s, ws, 'Delegate: write a and b')).reasons).toEqual(['done']);
  } finally {
    await s.close();
  }
  const store = await openCheckpointStore({
    root: ws,
    stateDir: join(keel.stateHome(), 'keel'),
    env: process.env,
  });
  const steps = (await store.list())
    .reverse()
    .map((c) => ({ paths: c.paths, changed: c.changed?.map((f) => f.path) }));
  expect(steps).toEqual([
    { paths: ['a.txt'], changed: ['a.txt'] },
    { paths: ['b.txt'], changed: ['b.txt'] },
  ]);
}, 20_000);
