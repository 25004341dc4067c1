// The same multi-step TODO task against each hosted provider's own wire format, in-process through runCommand; the
// built CLI once for all four, in one chat that switches provider with /model, so each provider's module is loaded
// and talks its wire format from the bundle (a process per provider cost half a second of CPU each); missing and
// rejected keys and OpenRouter's specifics in-process.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';
import { expectTodoTaskDone, todoFiles, todoScript } from '../support/fixtures.js';
import type { ModelServer, ScriptStep } from '../support/model-server.js';
import { keelRun } from '../support/run-in-process.js';

const { server, workspace } = useE2E();
const signedTodoScript = todoScript(true);

const key = 'sk-e2e-canary-5521';

interface Case {
  provider: 'gemini' | 'openrouter' | 'anthropic' | 'openai';
  envVar: string;
  url(s: ModelServer): string;
  /** The tool results of one request body, as text. */
  toolResults(body: Record<string, unknown>): string;
}

// provider, the variable its key comes from, the server URL it talks to, where a request carries the tool results.
const cases: Case[] = (
  [
    ['gemini', 'GEMINI_API_KEY', 'geminiUrl', 'contents'],
    ['openrouter', 'OPENROUTER_API_KEY', 'openaiUrl', 'messages'],
    ['anthropic', 'ANTHROPIC_API_KEY', 'anthropicUrl', 'messages'],
    ['openai', 'OPENAI_API_KEY', 'openaiUrl', 'messages'],
  ] as const
).map(([provider, envVar, urlKey, resultsKey]) => ({
  provider,
  envVar,
  url: (s) => s[urlKey],
  toolResults: (body) => JSON.stringify(body[resultsKey] ?? []),
}));

async function setup(c: Case, script: ScriptStep[]) {
  const s = await server({ script, openrouter: c.provider === 'openrouter' });
  const ws = await workspace(todoFiles);
  return { s, ws };
}

/** `keel run` in-process (runCommand, as the binary runs it). */
const runHere = (
  c: Case,
  s: ModelServer,
  ws: string,
  env: Record<string, string>,
  prompt: string,
  json = false,
) =>
  keelRun(
    {
      provider: c.provider,
      baseUrl: c.url(s),
      model: 'test-model',
      cwd: ws,
      prompt,
      ...(json ? { output: 'json' as const } : {}),
    },
    { env },
  );

describe.each(cases)('keel run --provider $provider', (c) => {
  it('finds TODO comments across files and writes tasks.md in a multi-step run', async () => {
    const { s, ws } = await setup(c, signedTodoScript);
    const r = await runHere(c, s, ws, { [c.envVar]: key }, 'Find all TODO comments and create tasks.md');
    await expectTodoTaskDone(r, ws, s);
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
    const { s, ws } = await setup(c, signedTodoScript);
    const r = await runHere(c, s, ws, {}, 'hi');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`no API key for ${c.provider}`);
    expect(r.stderr).toContain(c.envVar);
    expect(s.requests).toHaveLength(0);
  });

  it('exits 3 on a rejected key, naming the provider and never printing the key', async () => {
    const { s, ws } = await setup(c, [
      { status: 401, errorBody: { error: { message: `invalid key ${key}` } } },
    ]);
    const r = await runHere(c, s, ws, { [c.envVar]: key }, 'hi');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`credentials rejected by ${c.provider}`);
    expect(r.stdout + r.stderr).not.toContain(key);
  });
});

describe('the built CLI with each hosted provider', () => {
  it('answers through gemini, anthropic, openai and openrouter in one chat, switching with /model, each with its own key and wire format', async () => {
    // OpenRouter last: there, `/model anthropic/…` names a vendor's model on OpenRouter, not the provider.
    const order = [...cases].sort(
      (a, b) => Number(a.provider === 'openrouter') - Number(b.provider === 'openrouter'),
    );
    const ws = await workspace(todoFiles);
    const s = await server(
      order.flatMap((c) => [
        { toolCalls: [{ name: 'list_files', args: { path: '.', recursive: true } }] },
        { text: `listed through ${c.provider}` },
      ]),
    );
    // Each provider's address from the config: a switch of provider leaves --base-url behind.
    const config = join(await workspace(), 'providers.yaml');
    await writeFile(
      config,
      stringify({ provider: Object.fromEntries(cases.map((c) => [c.provider, { base_url: c.url(s) }])) }),
    );
    const [first, ...others] = order;
    const input = [
      'list the files',
      ...others.flatMap((c) => [`/model ${c.provider}/test-model`, 'list the files']),
      '',
    ].join('\n');
    const keys = Object.fromEntries(cases.map((c) => [c.envVar, `${key}-${c.provider}`]));
    const r = await runKeel(
      ['chat', '--provider', first!.provider, '--model', 'test-model', '--config', config, '--cwd', ws],
      { env: keys, input },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(s.requests).toHaveLength(2 * order.length);
    for (const [i, c] of order.entries()) {
      expect(r.stdout).toContain(`listed through ${c.provider}`);
      const [call, answer] = [s.requests[2 * i]!, s.requests[2 * i + 1]!];
      // Each provider's own key, on its own wire format; the listing's result went back to it.
      expect(JSON.stringify(call.headers)).toContain(`${key}-${c.provider}`);
      expect(c.toolResults(answer.body)).toContain('src/main.ts');
      if (c.provider === 'gemini') expect(call.path).toBe('/v1beta/models/test-model:streamGenerateContent');
      else if (c.provider === 'anthropic') expect(call.path).toBe('/v1/messages');
      else expect(call.body.model).toBe('test-model');
    }
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
    const r = await runHere(c, s, ws, { [c.envVar]: key }, 'is node 20 lts?');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'Node 20 is an LTS release.\n\nSources:\n[1] Node.js releases — https://nodejs.org/en/about/previous-releases\n[2] https://example.com/node\n',
    );
  });

  it('retries an error sent inside the stream, then reports it with the server message', async () => {
    const failing = { text: 'partial', midStreamError: 'upstream provider overloaded' };
    const { s, ws } = await setup(c, [failing, failing, failing, failing]);
    const r = await runHere(c, s, ws, { [c.envVar]: key, KEEL_RETRY_BASE_MS: '5' }, 'hi', true);
    expect(r.code).not.toBe(0);
    expect(s.requests).toHaveLength(4);
    expect(r.stderr + r.stdout).toContain('upstream provider overloaded');
  });
});
