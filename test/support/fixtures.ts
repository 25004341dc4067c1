// The multi-step TODO task several end-to-end tests give the agent: its files, the model's script, the outcome.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { KeelRun } from './cli.js';
import type { ModelServer, ScriptStep } from './model-server.js';

export const todoFiles = {
  'src/main.ts': 'export function main() {\n  // TODO: handle errors\n  return 1;\n}\n',
  'src/util.py': 'def f():\n    # TODO: speed this up\n    pass\n',
  'README.md': '# Demo\n',
};

/**
 * List, read both files in parallel, write tasks.md, answer. With `signed`, the first step also carries reasoning
 * and the first two calls Gemini thought signatures (sig-1, sig-2), which must come back on later requests.
 */
export function todoScript(signed = false): ScriptStep[] {
  const signature = (value: string) => (signed ? { signature: value } : {});
  return [
    {
      text: 'Let me look at the files.',
      ...(signed ? { reasoning: 'Start with a listing.' } : {}),
      toolCalls: [{ name: 'list_files', args: { path: '.', recursive: true }, ...signature('sig-1') }],
    },
    {
      toolCalls: [
        { name: 'read_file', args: { path: 'src/main.ts' }, ...signature('sig-2') },
        { name: 'read_file', args: { path: 'src/util.py' } },
      ],
    },
    {
      toolCalls: [
        {
          name: 'write_file',
          args: {
            path: 'tasks.md',
            content: '# Tasks\n\n- src/main.ts:2 handle errors\n- src/util.py:2 speed this up\n',
          },
        },
      ],
    },
    { text: 'I found 2 TODO comments and wrote tasks.md.', usage: { input: 300, output: 20 } },
  ];
}

/** What every provider's finished TODO run shows: the answer, tasks.md written, both tools on stderr, four requests. */
export async function expectTodoTaskDone(r: KeelRun, ws: string, s: ModelServer): Promise<void> {
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).toBe('I found 2 TODO comments and wrote tasks.md.');
  expect(await readFile(join(ws, 'tasks.md'), 'utf8')).toContain('speed this up');
  expect(r.stderr).toContain('list_files');
  expect(r.stderr).toContain('write_file');
  expect(s.requests).toHaveLength(4);
}
