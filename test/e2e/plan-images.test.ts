// End to end: plan mode headless (the plan as JSON, then executed with --plan-file) and an image attached with
// `keel run -p @shot.png`, against the scripted model server.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { runOllama, useE2E } from '../support/e2e.js';
import type { ReceivedRequest } from '../support/model-server.js';

const { server, workspace } = useE2E();

const toolNames = (request: ReceivedRequest): string[] =>
  ((request.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('plan mode, headless', () => {
  it('--mode plan prints the plan as JSON, offering no tool that changes files; --plan-file executes it', async () => {
    const steps = [
      { id: '1', content: 'Read src/cli.ts', status: 'pending' },
      { id: '2', content: 'Add the --json flag', status: 'pending' },
    ];
    const s = await server([
      { toolCalls: [{ name: 'todo_write', args: { todos: steps } }] },
      { text: 'Two steps: read first, then change one file.' },
      // The execution: both steps done, then the answer.
      { toolCalls: [{ name: 'todo_write', args: { todos: steps.map((t) => ({ ...t, status: 'done' })) } }] },
      { text: 'Done.' },
    ]);
    const ws = await workspace({ 'src/cli.ts': 'export {};\n' });
    const planned = await runOllama(s, ws, ['--mode', 'plan', '--output', 'json', '-p', 'add a --json flag']);
    expect(planned.code).toBe(0);
    const output = JSON.parse(planned.stdout);
    expect(output.goal).toBe('add a --json flag');
    expect(output.answer).toBe('Two steps: read first, then change one file.');
    expect(output.plan.map((p: { instruction: string }) => p.instruction)).toEqual([
      'Read src/cli.ts',
      'Add the --json flag',
    ]);
    const offered = toolNames(s.requests[0]!);
    expect(offered).toContain('todo_write');
    expect(offered).toContain('read_file');
    expect(offered).not.toContain('write_file');
    expect(offered).not.toContain('execute_command');
    expect(JSON.stringify(s.requests[0]!.body.messages[0])).toContain('plan mode');

    const file = join(ws, 'plan.json');
    await writeFile(file, planned.stdout);
    const executed = await runOllama(s, ws, ['--plan-file', file, '--mode', 'auto']);
    expect(executed.code).toBe(0);
    const user = JSON.stringify(s.requests[2]!.body.messages);
    expect(user).toContain('Add the --json flag');
    expect(user).toContain('Two steps: read first');
    expect(toolNames(s.requests[2]!)).toContain('write_file');
  });
});

describe('images from the command line', () => {
  it('run -p @shot.png sends the image to a model that reads images, and refuses it for one that does not', async () => {
    const s = await server([{ text: 'A single red pixel.' }]);
    const ws = await workspace();
    await writeFile(join(ws, 'shot.png'), png);
    const base = ['run', '--provider', 'openai-compatible', '--base-url', s.openaiUrl, '--cwd', ws];
    const seen = await runKeel([...base, '--model', 'gpt-4o', '-p', 'what is in @shot.png?']);
    expect(seen.code).toBe(0);
    const user = (s.requests[0]!.body.messages as { role: string; content: unknown }[]).find(
      (m) => m.role === 'user',
    )!;
    expect(user.content).toContainEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
    });
    const blind = await runKeel([...base, '--model', 'test-model', '-p', 'what is in @shot.png?']);
    expect(blind.code).toBe(2);
    expect(blind.stderr).toContain('cannot attach @shot.png');
    expect(s.requests).toHaveLength(1);
    expect(await readFile(join(ws, 'shot.png'))).toEqual(png);
  });
});
