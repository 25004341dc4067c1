// End to end: the same multi-step TODO task from the built CLI against each hosted provider's own wire format.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWorkspace, runKeel } from '../support/cli.js';
import { type ModelServer, type ScriptStep, startModelServer } from '../support/model-server.js';

const servers: ModelServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const todoFiles = {
  'src/main.ts': 'export function main() {\n  // TODO: handle errors\n  return 1;\n}\n',
  'src/util.py': 'def f():\n    # TODO: speed this up\n    pass\n',
  'README.md': '# Demo\n',
};

const todoScript: ScriptStep[] = [
  {
    text: 'Let me look at the files.',
    reasoning: 'Start with a listing.',
    toolCalls: [{ name: 'list_files', args: { path: '.', recursive: true }, signature: 'sig-1' }],
  },
  {
    toolCalls: [
      { name: 'read_file', args: { path: 'src/main.ts' }, signature: 'sig-2' },
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

const key = 'sk-e2e-canary-5521';

interface Case {
  provider: 'gemini' | 'openrouter' | 'anthropic' | 'openai';
  envVar: string;
  url(s: ModelServer): string;
  /** The tool results of one request body, as text. */
  toolResults(body: Record<string, unknown>): string;
}

const parts = (body: Record<string, unknown>, key: string) => JSON.stringify(body[key] ?? []);
const cases: Case[] = [
  {
    provider: 'gemini',
    envVar: 'GEMINI_API_KEY',
    url: (s) => s.geminiUrl,
    toolResults: (b) => parts(b, 'contents'),
  },
  {
    provider: 'openrouter',
    envVar: 'OPENROUTER_API_KEY',
    url: (s) => s.openaiUrl,
    toolResults: (b) => parts(b, 'messages'),
  },
  {
    provider: 'anthropic',
    envVar: 'ANTHROPIC_API_KEY',
    url: (s) => s.anthropicUrl,
    toolResults: (b) => parts(b, 'messages'),
  },
  {
    provider: 'openai',
    envVar: 'OPENAI_API_KEY',
    url: (s) => s.openaiUrl,
    toolResults: (b) => parts(b, 'messages'),
  },
];

async function setup(c: Case, script: ScriptStep[]) {
  const s = await startModelServer({ script, openrouter: c.provider === 'openrouter' });
  servers.push(s);
  const ws = await makeWorkspace(todoFiles);
  dirs.push(ws);
  return { s, ws };
}

const run = (c: Case, s: ModelServer, ws: string, env: Record<string, string>, extra: string[] = []) =>
  runKeel(
    ['run', '--provider', c.provider, '--base-url', c.url(s), '--model', 'test-model', '--cwd', ws, ...extra],
    { env },
  );

describe.each(cases)('keel run --provider $provider', (c) => {
  it('finds TODO comments across files and writes tasks.md in a multi-step run', async () => {
    const { s, ws } = await setup(c, todoScript);
    const r = await run(c, s, ws, { [c.envVar]: key }, [
      '--prompt',
      'Find all TODO comments and create tasks.md',
    ]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('I found 2 TODO comments and wrote tasks.md.');
    expect(await readFile(join(ws, 'tasks.md'), 'utf8')).toContain('speed this up');
    expect(r.stderr).toContain('list_files');
    expect(r.stderr).toContain('write_file');
    expect(s.requests).toHaveLength(4);
    // Both parallel calls were answered with the real file contents, and the listing reached the model.
    const third = c.toolResults(s.requests[2]!.body);
    expect(third).toContain('handle errors');
    expect(third).toContain('speed this up');
    expect(c.toolResults(s.requests[1]!.body)).toContain('src/main.ts');
    expect(JSON.stringify(s.requests.map((q) => q.headers))).toContain(key);
    if (c.provider === 'gemini') {
      // Thought signatures went back on the calls they came with.
      expect(s.requests[0]!.path).toBe('/v1beta/models/test-model:streamGenerateContent');
      expect(s.requests[3]!.rawBody).toContain('"thoughtSignature":"sig-1"');
      expect(s.requests[3]!.rawBody).toContain('"thoughtSignature":"sig-2"');
    } else expect(s.requests[0]!.body.model).toBe('test-model');
  });

  it('exits 3 naming the variable to set when no key is configured, without calling the server', async () => {
    const { s, ws } = await setup(c, todoScript);
    const r = await run(c, s, ws, {}, ['--prompt', 'hi']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`no API key for ${c.provider}`);
    expect(r.stderr).toContain(c.envVar);
    expect(s.requests).toHaveLength(0);
  });

  it('exits 3 on a rejected key, naming the provider and never printing the key', async () => {
    const { s, ws } = await setup(c, [
      { status: 401, errorBody: { error: { message: `invalid key ${key}` } } },
    ]);
    const r = await run(c, s, ws, { [c.envVar]: key }, ['--prompt', 'hi']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`credentials rejected by ${c.provider}`);
    expect(r.stdout + r.stderr).not.toContain(key);
  });
});

describe('keel run --provider openrouter specifics', () => {
  const c = cases[1]!;
  it('lists url citations under the answer', async () => {
    const { s, ws } = await setup(c, [
      {
        text: 'Node 20 is an LTS release.',
        citations: [
          { url: 'https://nodejs.org/en/about/previous-releases', title: 'Node.js releases' },
          { url: 'https://example.com/node' },
        ],
      },
    ]);
    const r = await run(c, s, ws, { [c.envVar]: key }, ['--prompt', 'is node 20 lts?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'Node 20 is an LTS release.\n\nSources:\n[1] Node.js releases — https://nodejs.org/en/about/previous-releases\n[2] https://example.com/node\n',
    );
  });

  it('reports an error sent inside the stream with the server message', async () => {
    const { s, ws } = await setup(c, [{ text: 'partial', midStreamError: 'upstream provider overloaded' }]);
    const r = await run(c, s, ws, { [c.envVar]: key }, ['--prompt', 'hi', '--output', 'json']);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain('upstream provider overloaded');
  });
});
