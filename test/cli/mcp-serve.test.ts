// `keel mcp serve`'s calls in process (servedCalls on the run assembly's tool host): each call one undo step, also
// when a client sends several at once. test/e2e/mcp-commands.test.ts drives the built server over stdio.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openCheckpointStore } from '../../src/checkpoint/checkpointer.js';
import { servedCalls, servedSpecs } from '../../src/cli/mcp-serve.js';
import { defaultConfig } from '../../src/runtime/config.js';
import { openToolHost, type ToolHost } from '../../src/runtime/tool-host.js';
import { makeWorkspace } from '../support/cli.js';
import { useUndoRuns } from '../support/undo-runs.js';

const keel = useUndoRuns();

let host: ToolHost | undefined;
let ws = '';
afterEach(async () => {
  host?.runner.killAll();
  host?.checkpoints?.close();
  await host?.checkpoints?.drained();
  await host?.languages.close();
  host = undefined;
  await rm(ws, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
});

async function serve(files: Record<string, string>) {
  ws = await makeWorkspace(files);
  host = await openToolHost({
    loaded: await defaultConfig(),
    dir: ws,
    mode: 'auto',
    sandbox: false,
    env: process.env,
    runId: 'mcp-test',
  });
  return servedCalls(host, 'mcp-test');
}

describe('keel mcp serve: calls sent at once', () => {
  it('makes each write its own undo step, with its own file, and keel undo takes back only the last', async () => {
    const call = await serve({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'c.txt': 'c0\n', 'r.txt': 'r\n' });
    const signal = new AbortController().signal;
    const results = await Promise.all([
      call('write_file', { path: 'a.txt', content: 'a1\n' }, signal),
      call('read_file', { path: 'r.txt' }, signal),
      call('write_file', { path: 'b.txt', content: 'b1\n' }, signal),
      call('write_file', { path: 'c.txt', content: 'c1\n' }, signal),
    ]);
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false]);

    const store = await openCheckpointStore({
      root: ws,
      stateDir: join(keel.stateHome(), 'keel'),
      env: process.env,
    });
    const steps = (await store.list()).reverse().map((c) => ({
      run: c.run,
      first: c.first,
      paths: c.paths,
      changed: c.changed?.map((f) => f.path),
    }));
    expect(steps).toEqual([
      { run: 'mcp-test-1', first: true, paths: ['a.txt'], changed: ['a.txt'] },
      { run: 'mcp-test-3', first: true, paths: ['b.txt'], changed: ['b.txt'] },
      { run: 'mcp-test-4', first: true, paths: ['c.txt'], changed: ['c.txt'] },
    ]);

    expect((await keel.undo(ws)).code).toBe(0);
    const contents = await Promise.all(['a.txt', 'b.txt', 'c.txt'].map((f) => readFile(join(ws, f), 'utf8')));
    expect(contents).toEqual(['a1\n', 'b1\n', 'c0\n']);
  });
});

describe('keel mcp serve: the tools offered', () => {
  it('offers in plan mode only the tools that plan, as a run does, and every tool otherwise', async () => {
    await serve({ 'a.txt': 'a\n' });
    const registry = (host as ToolHost).registry;
    const all = servedSpecs(registry, 'auto').map((s) => s.name);
    const planning = servedSpecs(registry, 'plan').map((s) => s.name);
    expect(all).toEqual(expect.arrayContaining(['write_file', 'edit_file', 'execute_command', 'read_file']));
    expect(planning).toEqual(expect.arrayContaining(['read_file', 'grep']));
    for (const name of ['write_file', 'edit_file', 'delete_path']) expect(planning).not.toContain(name);
    expect(planning.length).toBeLessThan(all.length);
  });
});
