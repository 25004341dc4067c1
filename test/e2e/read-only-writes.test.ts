// End to end: a "read-only" program that writes (`uniq -- -f keep.txt`, `uniq *`) is judged by what it writes —
// refused in restricted mode, and in full mode run after a checkpoint that `keel undo` restores keep.txt from.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';
import type { ScriptStep } from '../support/model-server.js';

const { server, workspace } = useE2E();

/** Each repro with its workspace: keep.txt is the operand uniq would write. */
const cases: [string, Record<string, string>][] = [
  ['uniq -- -f keep.txt', { '-f': 'line\nline\n', 'keep.txt': 'precious\n' }],
  ['uniq *', { 'a.txt': 'line\nline\n', 'keep.txt': 'precious\n' }],
];
const call = (command: string): ScriptStep[] => [
  { toolCalls: [{ name: 'execute_command', args: { command } }] },
  { text: 'Done.' },
];

/** A state dir kept across the keel runs of one test, so undo finds the run's checkpoints. */
async function keel() {
  const env = { XDG_STATE_HOME: await workspace() };
  return {
    run: (s: Awaited<ReturnType<typeof server>>, ws: string, args: string[]) =>
      runOllama(s, ws, args, { env, checkpoints: true }),
    undo: (ws: string) => runKeel(['undo', '--cwd', ws], { env, checkpoints: true }),
  };
}

describe('read-only programs judged by what they write', () => {
  it.each(cases)('restricted mode refuses `%s`, which would overwrite keep.txt', async (command, files) => {
    const ws = await workspace(files);
    const s = await server(call(command));
    const r = await (await keel()).run(s, ws, ['--mode', 'restricted', '--prompt', 'dedupe']);
    expect(r.code).toBe(0);
    const [result] = toolMessages(s.requests[1]?.body);
    expect(result).toContain('refused by policy');
    expect(result).toContain('writes the last one (`keep.txt`)');
    expect(await fs.readFile(join(ws, 'keep.txt'), 'utf8')).toBe('precious\n');
  });

  it.each(cases)(
    'full mode runs `%s` after a checkpoint, and keel undo brings keep.txt back',
    async (command, files) => {
      const ws = await workspace(files);
      const k = await keel();
      const s = await server(call(command));
      const r = await k.run(s, ws, ['--mode', 'full', '--prompt', 'dedupe']);
      expect(toolMessages(s.requests[1]?.body)[0]).toBe('exit code: 0');
      expect(r.code).toBe(0);
      expect(await fs.readFile(join(ws, 'keep.txt'), 'utf8')).toBe('line\n');

      const u = await k.undo(ws);
      expect(u.stderr).toBe('');
      expect(u.code).toBe(0);
      expect(u.stdout).toMatch(/restored +keep\.txt/);
      expect(await fs.readFile(join(ws, 'keep.txt'), 'utf8')).toBe('precious\n');
    },
  );
});
