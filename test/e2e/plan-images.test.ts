// Plan mode headless (the plan as JSON from the built CLI, then executed in-process from that file as --plan-file
// reads it) and an image attached with `keel run -p @shot.png` (sent by the built CLI; refused in-process for a
// model that does not read images), against the scripted model server.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachImages } from '../../src/cli/chat-attach.js';
import { UsageError } from '../../src/core/errors.js';
import { loadPlan } from '../../src/plan/parse.js';
import { planToPrompt } from '../../src/plan/prompt.js';
import { assembleRun } from '../../src/runtime/assemble.js';
import { createReadJail } from '../../src/safety/read-jail.js';
import { runInProcess, useTempHome } from '../support/assemble-in-process.js';
import { runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { runOllama, useE2E } from '../support/e2e.js';
import type { ReceivedRequest } from '../support/model-server.js';

const { server, workspace } = useE2E();
useTempHome();

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
    // The message goes as written: no intent note telling the model to implement and verify.
    expect(s.requests[0]!.body.messages[1]).toMatchObject({ role: 'user', content: 'add a --json flag' });

    const file = join(ws, 'plan.json');
    await writeFile(file, planned.stdout);
    // What `keel run --plan-file plan.json --mode auto` runs: the plan's prompt, its steps tracked as todos.
    const plan = await loadPlan(file);
    const executed = await runInProcess(s, ws, planToPrompt(plan, { tracked: true }), {
      mode: 'auto',
      plan: plan.instructions,
    });
    expect(executed.result.reason).toBe('done');
    const user = JSON.stringify(s.requests[2]!.body.messages);
    expect(user).toContain('Add the --json flag');
    expect(user).toContain('Two steps: read first');
    expect(toolNames(s.requests[2]!)).toContain('write_file');
  });

  it('--mode plan with text output prints the plan above the rationale on stdout', async () => {
    const steps = [
      { id: '1', content: 'Read src/cli.ts', status: 'pending' },
      { id: '2', content: 'Add the --json flag', status: 'pending' },
    ];
    const s = await server([
      { toolCalls: [{ name: 'todo_write', args: { todos: steps } }] },
      { text: 'Rationale: one file.' },
    ]);
    const ws = await workspace({ 'src/cli.ts': 'export {};\n' });
    const r = await runCli([
      'run',
      '--mode',
      'plan',
      '--base-url',
      s.ollamaUrl,
      '--cwd',
      ws,
      '-p',
      'add --json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Plan:\n1. Read src/cli.ts\n2. Add the --json flag\n\nRationale: one file.\n');
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
    // The same attaching keel run does, for a model whose capabilities say it reads no images.
    const blind = await assembleRun({
      cwd: ws,
      flags: { provider: 'openai-compatible', baseUrl: s.openaiUrl, model: 'test-model' },
      mode: () => 'restricted',
      session: { save: false },
    });
    try {
      const refused = await attachImages(
        'what is in @shot.png?',
        blind.workspace,
        createReadJail(process.env),
        {
          readsImages: blind.model.capabilities?.images === true,
          model: blind.model.modelId,
        },
      ).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UsageError);
      expect((refused as UsageError).exitCode).toBe(2);
      expect((refused as UsageError).message).toContain('cannot attach @shot.png');
    } finally {
      await blind.close();
    }
    expect(s.requests).toHaveLength(1);
    expect(await readFile(join(ws, 'shot.png'))).toEqual(png);
  });
});
