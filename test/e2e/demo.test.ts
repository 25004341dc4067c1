// The shipped offline demo: examples/demo.cassette.json is a recording of the sample plan run against
// the scripted model server. This test records the run afresh (in-process, as keel run --plan --record runs it),
// and runs `npm run demo`'s script, whose replay of the shipped cassette must end the same way. Regenerate it with
//   KEEL_UPDATE_CASSETTE=1 npx vitest run test/e2e/demo.test.ts
import { spawnSync } from 'node:child_process';
import { copyFile, cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPlan } from '../../src/plan/parse.js';
import { planToPrompt } from '../../src/plan/prompt.js';
import { runInProcess, useTempHome } from '../support/assemble-in-process.js';
import { type ScriptStep, startModelServer } from '../support/model-server.js';

useTempHome();

const root = resolve(import.meta.dirname, '../..');
const shippedCassette = join(root, 'examples/demo.cassette.json');
const plan = join(root, 'examples/plan.yaml');

const todoMd = `# TODO

## lib/format.py
- [ ] line 2: handle titles longer than 80 characters

## src/app.js
- [ ] line 5: read books from a file instead of hard-coding them

## src/store.js
- [ ] line 5: validate the ISBN before storing
- [ ] line 14: keep a history of removed books
`;

const steps = [
  "List the project's files",
  'Read each source file and note its TODO comments with file and line',
  'Write TODO.md with one checklist item per TODO, grouped by file',
  'Check with grep that no TODO was missed',
];
/** The plan's todo list with the first `done` instructions done and the next one in progress. */
const progress = (done: number) => ({
  name: 'todo_write',
  args: {
    todos: steps.map((content, i) => ({
      id: String(i + 1),
      content,
      status: i < done ? 'done' : i === done ? 'in_progress' : 'pending',
    })),
  },
});

// The recorded model keeps the plan's todo list as it works, so the demo ends with every instruction done.
const demoScript: ScriptStep[] = [
  {
    text: "I'll start by listing the project's files.",
    toolCalls: [progress(0), { name: 'list_files', args: { path: '.', recursive: true } }],
    usage: { input: 1450, output: 28 },
  },
  {
    text: 'Now I will read the three source files.',
    toolCalls: [
      progress(1),
      { name: 'read_file', args: { path: 'lib/format.py' } },
      { name: 'read_file', args: { path: 'src/app.js' } },
      { name: 'read_file', args: { path: 'src/store.js' } },
    ],
    usage: { input: 1530, output: 64 },
  },
  {
    text: 'I found four TODO comments. Writing TODO.md.',
    toolCalls: [progress(2), { name: 'write_file', args: { path: 'TODO.md', content: todoMd } }],
    usage: { input: 1890, output: 150 },
  },
  {
    text: 'Checking with grep that none was missed.',
    toolCalls: [progress(3), { name: 'execute_command', args: { command: 'grep -rn TODO src lib' } }],
    usage: { input: 2010, output: 30 },
  },
  {
    text: 'grep finds the same four. Every instruction is done.',
    toolCalls: [progress(4)],
    usage: { input: 2150, output: 32 },
  },
  {
    text: 'Collected 4 TODO comments from 3 files into TODO.md, grouped by file; grep confirms none was missed.',
    usage: { input: 2210, output: 30 },
  },
];

const temps: string[] = [];
async function sampleCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'keel-demo-test-'));
  temps.push(dir);
  await cp(join(root, 'examples/workspace'), dir, { recursive: true });
  return dir;
}
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

describe('the offline demo', () => {
  it('records the sample plan against the scripted server, writing the TODO.md the demo shows', async () => {
    const server = await startModelServer({ script: demoScript });
    const recordedIn = await sampleCopy();
    const cassette = join(recordedIn, '..', `${recordedIn.split('/').pop()}.json`);
    temps.push(cassette);
    try {
      // What `keel run --model qwen3 --record <cassette> --plan examples/plan.yaml` runs.
      const loaded = await loadPlan(plan);
      const recorded = await runInProcess(server, recordedIn, planToPrompt(loaded, { tracked: true }), {
        flags: { provider: 'ollama', baseUrl: server.ollamaUrl, model: 'qwen3' },
        record: cassette,
        plan: loaded.instructions,
      });
      expect(recorded.result.reason).toBe('done');
      expect(recorded.run.todos().every((todo) => todo.status === 'done')).toBe(true);
    } finally {
      await server.close();
    }
    expect(await readFile(join(recordedIn, 'TODO.md'), 'utf8')).toBe(todoMd);
    if (process.env.KEEL_UPDATE_CASSETTE) await copyFile(cassette, shippedCassette);
  });

  it('npm run demo replays the shipped cassette in a fresh copy of the sample workspace: every step done, the answer and TODO.md', () => {
    const result = spawnSync(process.execPath, [join(root, 'scripts/demo.mjs')], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.stderr).not.toContain('plan not finished');
    expect(result.stderr).toContain('✓ 4 done');
    expect(result.stdout).toContain('Collected 4 TODO comments');
    const dir = /copy of examples\/workspace at (\S+)/.exec(result.stderr)?.[1];
    expect(dir).toBeTruthy();
    temps.push(dir!);
    expect(result.stdout).toContain(`--- ${join(dir!, 'TODO.md')} ---\n${todoMd}`);
  });
});
