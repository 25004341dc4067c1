// A "read-only" program that writes (`uniq -- -f keep.txt`, `uniq *`) is judged by what it writes — refused in
// restricted mode, and in full mode run after a checkpoint that `keel undo` restores keep.txt from. Runs and undo
// in process against the scripted model server, in a temp home.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolMessages, useE2E } from '../support/e2e.js';
import type { ScriptStep } from '../support/model-server.js';
import { useUndoRuns } from '../support/undo-runs.js';

const { server, workspace } = useE2E();
const keel = useUndoRuns();

/** Each repro with its workspace: keep.txt is the operand uniq would write. */
const cases: [string, Record<string, string>][] = [
  ['uniq -- -f keep.txt', { '-f': 'line\nline\n', 'keep.txt': 'precious\n' }],
  ['uniq *', { 'a.txt': 'line\nline\n', 'keep.txt': 'precious\n' }],
];
const call = (command: string): ScriptStep[] => [
  { toolCalls: [{ name: 'execute_command', args: { command } }] },
  { text: 'Done.' },
];

describe('read-only programs judged by what they write', () => {
  it.each(cases)('restricted mode refuses `%s`, which would overwrite keep.txt', async (command, files) => {
    const ws = await workspace(files);
    const s = await server(call(command));
    // Refused, so nothing to undo: no checkpoint store either (a restricted run prepares one at launch).
    const off = { ...process.env, KEEL_CHECKPOINTS: 'off' };
    const r = await keel.run(s, ws, 'dedupe', { mode: () => 'restricted', env: off });
    expect(r.reasons).toEqual(['done']);
    const [result] = toolMessages(s.requests[1]?.body);
    expect(result).toContain('refused by policy');
    expect(result).toContain('writes the last one (`keep.txt`)');
    expect(await fs.readFile(join(ws, 'keep.txt'), 'utf8')).toBe('precious\n');
  });

  it.each(cases)(
    'full mode runs `%s` after a checkpoint, and keel undo brings keep.txt back',
    async (command, files) => {
      const ws = await workspace(files);
      const s = await server(call(command));
      const r = await keel.run(s, ws, 'dedupe');
      expect(toolMessages(s.requests[1]?.body)[0]).toBe('exit code: 0');
      expect(r.reasons).toEqual(['done']);
      expect(await fs.readFile(join(ws, 'keep.txt'), 'utf8')).toBe('line\n');

      const u = await keel.undo(ws);
      expect(u.stderr).toBe('');
      expect(u.code).toBe(0);
      expect(u.stdout).toMatch(/restored +keep\.txt/);
      expect(await fs.readFile(join(ws, 'keep.txt'), 'utf8')).toBe('precious\n');
    },
  );
});
