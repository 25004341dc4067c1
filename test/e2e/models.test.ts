// `keel models` against each provider's model list (in process, through the command function the CLI calls; the
// built CLI once, for the default provider's table on stdout); and, in process, a run refusing a model /api/show
// says lacks tools, and capping num_ctx at another's context length.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoopResult } from '../../src/agent/loop.js';
import type { GlobalOptions } from '../../src/cli/global-options.js';
import { modelsCommand } from '../../src/cli/models-command.js';
import type { KeelError } from '../../src/core/errors.js';
import { assembleRun, type Run } from '../../src/runtime/assemble.js';
import { freePort } from '../providers/helpers.js';
import { runKeel } from '../support/cli.js';
import { homeEnv, useE2E } from '../support/e2e.js';
import type { ModelServer } from '../support/model-server.js';
import { geminiFlashListed, type OllamaModelSpec, qwen3Spec } from '../support/wire-models.js';

const { server, workspace } = useE2E();

const ollamaModels: OllamaModelSpec[] = [
  qwen3Spec,
  { name: 'tiny:latest', architecture: 'gemma', contextLength: 8192, capabilities: ['completion'] },
  { name: 'small:latest', architecture: 'llama', contextLength: 6000, capabilities: ['completion', 'tools'] },
];

const saved = { ...process.env };
let cwd = '';
beforeEach(async () => {
  cwd = await workspace();
  Object.assign(process.env, { ...homeEnv(cwd), NO_COLOR: '1' });
  for (const name of [
    'OLLAMA_HOST',
    'OPENROUTER_API_KEY',
    'GEMINI_API_KEY',
    'ANTHROPIC_API_KEY',
    'KEEL_PROVIDER',
  ])
    delete process.env[name];
});
afterEach(() => {
  process.env = { ...saved };
});

/** `keel models [provider] …` in process, in a temp workspace: its exit code, stdout and stderr. */
async function models(
  provider: string | undefined,
  options: Partial<GlobalOptions> = {},
  env: Record<string, string> = {},
) {
  Object.assign(process.env, env);
  const r = { code: 0, stdout: '', stderr: '' };
  r.code = await modelsCommand(
    provider,
    { output: 'text', cwd, ...options },
    {
      print: (t) => {
        r.stdout += t;
      },
      notice: (t) => {
        r.stderr += t;
      },
    },
  );
  return r;
}

/** The table's rows as cells (split on runs of two or more spaces), the `*` mark kept as its own first cell. */
const rows = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/));

describe('keel models', () => {
  it('ollama (the default provider): every installed model with /api/show data, the configured one marked', async () => {
    const s = await server({ script: [], ollamaModels });
    const r = await runKeel(['models', '--base-url', s.ollamaUrl]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [header, ...body] = rows(r.stdout);
    expect(header).toEqual(['MODEL', 'CONTEXT', 'MAX OUT', 'TOOLS', 'STREAM', 'PRICE IN/OUT PER 1M']);
    expect(body).toEqual([
      ['* qwen3:latest', '40,960', '-', 'yes', 'yes', '-'],
      ['small:latest', '6,000', '-', 'yes', 'yes', '-'],
      ['tiny:latest', '8,192', '-', 'no', 'yes', '-'],
    ]);
  });

  it('openrouter: context, output limit, tools and prices from its /models', async () => {
    const s = await server({ script: [], openrouter: true });
    const r = await models('openrouter', { baseUrl: s.openaiUrl }, { OPENROUTER_API_KEY: 'or-key' });
    expect(r.code).toBe(0);
    expect(rows(r.stdout).slice(1)).toEqual([
      ['* anthropic/claude-sonnet-4', '200,000', '64,000', 'yes', 'yes', '$3.00/$15.00'],
      ['mistralai/mistral-7b-instruct:free', '32,768', '-', 'no', 'yes', '$0.00/$0.00'],
    ]);
  });

  it('gemini --output json: an array with the server’s token limits', async () => {
    const s = await server({ script: [] });
    const r = await models('gemini', { baseUrl: s.geminiUrl, output: 'json' }, { GEMINI_API_KEY: 'g-key' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ ...geminiFlashListed, configured: true }]);
  });

  it('an unknown provider is a usage error (exit 2)', async () => {
    const r = await models('nope');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown provider "nope"/);
    expect(r.stderr).toMatch(/openrouter/);
  });

  it('an unreachable server is exit 3 naming the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const r = await models(undefined, { baseUrl: url });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`cannot reach Ollama at ${url}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a hosted provider without a key: the built-in table with a note on stderr, exit 0', async () => {
    const r = await models('anthropic');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "no API key for anthropic: showing Keel's built-in table; set ANTHROPIC_API_KEY for the provider's live list\n",
    );
    const body = rows(r.stdout).slice(1);
    expect(body).toContainEqual(['* claude-sonnet-4-5', '200,000', '64,000', 'yes', 'yes', '$3.00/$15.00']);
    expect(body.every((row) => row.join(' ').includes('claude-'))).toBe(true);
  });

  it('openrouter without a key: the table under vendor-prefixed ids, as JSON too', async () => {
    const r = await models('openrouter', { output: 'json' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('set OPENROUTER_API_KEY');
    const ids = (JSON.parse(r.stdout) as { id: string; configured: boolean }[]).map((m) => m.id);
    expect(ids).toContain('anthropic/claude-sonnet-4');
    expect(ids).toContain('google/gemini-2.5-flash');
    expect(ids).toContain('openai/gpt-4.1');
  });
});

/** One run of "hi" as keel run makes it (no session, no sandbox) with the scripted server's Ollama model. */
async function runHi(s: ModelServer, ws: string, model: string): Promise<LoopResult> {
  let agent: Run | undefined;
  try {
    agent = await assembleRun({
      cwd: ws,
      flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model },
      mode: () => 'restricted',
      sandbox: false,
      session: { save: false },
    });
    agent.conversation.push({ role: 'user', content: 'hi' });
    return await agent.run(new AbortController().signal);
  } finally {
    await agent?.close();
  }
}

describe('capabilities in a run', () => {
  it('refuses an Ollama model whose /api/show lacks "tools" before any chat request with tool_protocol native (exit 2)', async () => {
    const s = await server({ script: [{ text: 'never sent' }], ollamaModels });
    const ws = await workspace({ '.keel.yaml': 'provider:\n  ollama:\n    tool_protocol: native\n' });
    // Refused before any chat request: keel run reports it (message, then "hint: …") and exits 2.
    const refused = await runHi(s, ws, 'tiny').then(
      () => undefined,
      (error: unknown) => error as KeelError,
    );
    expect(refused?.exitCode).toBe(2);
    expect(refused?.message).toContain('model "tiny" does not support tools');
    expect(refused?.hint).toMatch(/^pick a model with tool support/);
    expect(refused?.hint).toContain('tool_protocol: text');
    expect(s.routes).toContain('POST /api/show');
    expect(s.requests).toHaveLength(0);
  });

  it('caps num_ctx at the model’s context length', async () => {
    const s = await server({ script: [{ text: 'ok' }], ollamaModels });
    const ws = await workspace();
    const result = await runHi(s, ws, 'small');
    expect(result.reason).toBe('done');
    // Without the cap the smallest num_ctx Keel sends is 8192.
    expect(s.requests[0]!.body.options.num_ctx).toBe(6000);
  });
});
