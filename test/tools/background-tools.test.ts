// Tests for background commands through the executor: execute_command with background, command_output and
// kill_command, under the same policy as any command.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { ExecutionMode } from '../../src/safety/policy.js';
import { createTripwire } from '../../src/safety/tripwire.js';
import { executeToolCall, formatForModel } from '../../src/tools/executor.js';
import { createRegistry, defaultTools } from '../../src/tools/registry.js';
import { processesWith, uniqueDuration } from '../support/processes.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace | undefined;
const registry = createRegistry(defaultTools());

afterEach(async () => {
  ws?.ctx.runner.killAll();
  await ws?.cleanup();
  ws = undefined;
});

async function workspace(mode: ExecutionMode = 'full'): Promise<TestWorkspace> {
  ws = await makeWorkspace({ mode });
  return ws;
}

let calls = 0;
async function call(name: string, args: object): Promise<{ success: boolean; text: string }> {
  calls += 1;
  const result = await executeToolCall(
    { id: `call-${calls}`, name, input: JSON.stringify(args) },
    1,
    { registry, ...ws!.held },
    ws!.ctx,
  );
  return { success: result.success, text: formatForModel(result) };
}

test('a background command returns its id at once, then its output and status on request, until killed', async () => {
  await workspace();
  const sleep = `sleep ${uniqueDuration()}`;
  const started = await call('execute_command', {
    command: `echo ready; while [ ! -e go ]; do read -t 0.05 < /dev/zero; done; echo went; ${sleep}`,
    background: true,
  });
  // Whatever it wrote in its first moment comes with the id (on a loaded machine, maybe nothing yet).
  expect(started.success).toBe(true);
  expect(started.text).toMatch(/^background command bg1: running(\nstdout:\nready)?$/);

  await ws!.write('go', '');
  const stdoutOf = (text: string): string[] => (text.split('stdout:\n')[1] ?? '').split('\n');
  const seen = stdoutOf(started.text);
  for (let i = 0; i < 400 && !seen.includes('went'); i++) {
    await ws!.ctx.runner.background('bg1')?.settle(25);
    const output = await call('command_output', { id: 'bg1' });
    expect(output.text).toMatch(/^bg1: running\n/);
    seen.push(...stdoutOf(output.text));
  }
  expect(seen.filter(Boolean)).toEqual(['ready', 'went']);
  expect((await call('command_output', { id: 'bg1' })).text).toBe('bg1: running\n(no new output)');

  expect(await call('kill_command', { id: 'bg1' })).toEqual({
    success: true,
    text: 'bg1: killed by kill_command',
  });
  expect(processesWith(sleep)).toEqual([]);
});

test('a background command that finished reports its exit code and what it left running', async () => {
  await workspace();
  await call('execute_command', {
    command: `setsid sleep ${uniqueDuration()} >/dev/null 2>&1 & exit 3`,
    background: true,
  });
  let output = await call('command_output', { id: 'bg1' });
  for (let i = 0; i < 200 && output.text.includes('running'); i++) {
    await ws!.ctx.runner.background('bg1')?.settle(50);
    output = await call('command_output', { id: 'bg1' });
  }
  expect(output.text).toBe(
    'bg1: exited with code 3\n[1 process the command left running in the background was stopped]\n(no new output)',
  );
});

test('command_output and kill_command name only ids of this run', async () => {
  await workspace();
  expect(await call('command_output', { id: 'bg7' })).toEqual({
    success: false,
    text: 'Error: no background command bg7; none is running',
  });
  await call('execute_command', { command: `sleep ${uniqueDuration()}`, background: true });
  expect((await call('kill_command', { id: '1' })).text).toBe('Error: no background command 1; running: bg1');
});

test('the policy judges a background command when it starts: refused in restricted mode, nothing runs', async () => {
  await workspace('restricted');
  const result = await call('execute_command', { command: 'touch canary', background: true });
  expect(result.success).toBe(false);
  expect(result.text).toContain('refused by policy');
  expect(existsSync(path.join(ws!.root, 'canary'))).toBe(false);
  expect(ws!.ctx.runner.running()).toEqual([]);
});

test('a protected file a background command plants after its call returned is put back before the next call', async () => {
  await workspace();
  ws!.held.tripwire = createTripwire({ root: ws!.root, globs: [], env: process.env });
  const sleep = `sleep ${uniqueDuration()}`;
  // A script, so the policy cannot see the write coming (as with any program that writes where it likes).
  await ws!.write(
    'plant.sh',
    `while [ ! -e go ]; do read -t 0.05 < /dev/zero; done; echo 'hooks: {}' > .keel.yaml; touch planted; ${sleep}\n`,
  );
  const started = await call('execute_command', { command: 'bash plant.sh', background: true });
  expect(started.success, started.text).toBe(true);
  expect(started.text).not.toContain('[tripwire]');
  await ws!.write('go', '');
  for (let i = 0; i < 400 && !existsSync(path.join(ws!.root, 'planted')); i++) {
    await ws!.ctx.runner.background('bg1')?.settle(25);
  }
  const next = await call('command_output', { id: 'bg1' });
  expect(next.text).toContain('[tripwire] a background command changed files');
  expect(next.text).toContain('.keel.yaml (created; removed again)');
  expect(existsSync(path.join(ws!.root, '.keel.yaml'))).toBe(false);
});
