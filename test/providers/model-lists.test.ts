// Each provider's model list over loopback HTTP (listModels), the Ollama /api/show probe, and their failures.
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import type { KeelError } from '../../src/core/errors.js';
import { createModel, listModels } from '../../src/providers/index.js';
import { readOllamaShow } from '../../src/providers/ollama-api.js';
import { trackedModelServer, useCleanup } from '../support/cleanup.js';
import { startGitHubServer } from '../support/github-server.js';
import type { ModelServer } from '../support/model-server.js';
import { geminiFlashListed, type OllamaModelSpec, qwen3Spec } from '../support/wire-models.js';
import { freePort } from './helpers.js';

const track = useCleanup();
const server = (options: { ollamaModels?: OllamaModelSpec[]; openrouter?: boolean } = {}) =>
  trackedModelServer(track, { script: [], ...options });

const providerConfig = (provider: Record<string, unknown>) => configSchema.parse({ provider }).provider;
const env = {
  KEEL_KEYRING: 'off',
  HOME: '/nonexistent-keel-home',
  XDG_CONFIG_HOME: '/nonexistent-keel-home',
};
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as KeelError,
  );

describe('ollama', () => {
  const models: OllamaModelSpec[] = [
    qwen3Spec,
    { name: 'gemma:2b', architecture: 'gemma', contextLength: 8192, capabilities: ['completion'] },
    { name: 'old:latest', architecture: 'llama', contextLength: 4096, capabilities: null },
  ];

  it('lists /api/tags with each model’s context length and tool support from /api/show', async () => {
    const s = await server({ ollamaModels: models });
    const list = await listModels(providerConfig({ type: 'ollama', ollama: { base_url: s.ollamaUrl } }), {
      env,
    });
    expect(list).toEqual([
      {
        id: 'qwen3:latest',
        contextWindow: 40960,
        tools: true,
        images: false,
        streaming: true,
        source: 'server',
      },
      { id: 'gemma:2b', contextWindow: 8192, tools: false, images: false, streaming: true, source: 'server' },
      { id: 'old:latest', contextWindow: 4096, streaming: true, source: 'server' },
    ]);
    expect(s.routes.filter((r) => r === 'POST /api/show')).toHaveLength(3);
  });

  it('reads an older /api/show without capabilities as unknown tool support', async () => {
    const s = await server({ ollamaModels: models });
    expect(await readOllamaShow(s.ollamaUrl, 'old')).toEqual({
      id: 'old',
      contextWindow: 4096,
      streaming: true,
    });
  });

  it('an unreachable server is exit 3 naming the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const error = await rejection(
      listModels(providerConfig({ type: 'ollama', ollama: { base_url: url } }), { env }),
    );
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain(url);
  });

  it('createModel asks /api/show first: tool support gates a native model, the context length rides along', async () => {
    const s = await server({ ollamaModels: models });
    const qwen = await createModel(providerConfig({ type: 'ollama', ollama: { base_url: s.ollamaUrl } }), {
      env,
    });
    expect(qwen.capabilities).toMatchObject({ contextWindow: 40960, tools: true, source: 'server' });
    const error = await rejection(
      createModel(
        providerConfig({
          type: 'ollama',
          ollama: { base_url: s.ollamaUrl, model: 'gemma:2b', tool_protocol: 'native' },
        }),
        { env },
      ),
    );
    expect(error.code).toBe('model_without_tools');
    expect(error.exitCode).toBe(2);
    // auto (the default) describes the tools in the prompt instead.
    const gemma = await createModel(
      providerConfig({ type: 'ollama', ollama: { base_url: s.ollamaUrl, model: 'gemma:2b' } }),
      { env },
    );
    expect(gemma.capabilities).toMatchObject({ tools: false, source: 'server' });
    expect(s.requests).toHaveLength(0);
  });

  it('createModel goes on when /api/show fails: an unknown model is left to the chat request', async () => {
    const s = await server({ ollamaModels: models });
    const model = await createModel(
      providerConfig({ type: 'ollama', ollama: { base_url: s.ollamaUrl, model: 'llama3:latest' } }),
      { env },
    );
    // The table's llama3 floor, and no refusal: only the server's word refuses a model.
    expect(model.capabilities).toMatchObject({ contextWindow: 8192, source: 'table' });
  });

  it('createModel with probe false asks nothing first: the table tells what is known, nothing refuses', async () => {
    const s = await server({ ollamaModels: models });
    const model = await createModel(
      providerConfig({
        type: 'ollama',
        ollama: { base_url: s.ollamaUrl, model: 'llama3:latest', tool_protocol: 'native' },
      }),
      { env, probe: false },
    );
    expect(s.routes).toEqual([]);
    expect(model.capabilities).toMatchObject({ contextWindow: 8192, source: 'table' });
    const unknown = await createModel(
      providerConfig({ type: 'ollama', ollama: { base_url: s.ollamaUrl, model: 'mine:7b' } }),
      { env, probe: false },
    );
    expect(unknown.capabilities).toEqual({ id: 'mine:7b', source: 'unknown' });
    expect(s.routes).toEqual([]);
  });
});

describe('hosted providers', () => {
  let s: ModelServer;

  it('openrouter: context, max output, tools and per-million prices from /models', async () => {
    s = await server({ openrouter: true });
    const config = providerConfig({ type: 'openrouter', openrouter: { base_url: s.openaiUrl } });
    const list = await listModels(config, { env: { ...env, OPENROUTER_API_KEY: 'or-key' } });
    expect(list).toEqual([
      {
        id: 'anthropic/claude-sonnet-4',
        contextWindow: 200000,
        maxOutput: 64000,
        tools: true,
        streaming: true,
        // The table's: this list gives no input modalities.
        images: true,
        price: { inputPerMTok: 3, outputPerMTok: 15 },
        source: 'server',
      },
      {
        id: 'mistralai/mistral-7b-instruct:free',
        contextWindow: 32768,
        tools: false,
        streaming: true,
        price: { inputPerMTok: 0, outputPerMTok: 0 },
        source: 'server',
      },
    ]);
  });

  it('gemini: token limits from /v1beta/models, models/ prefix stripped, embeddings left out, key in a header', async () => {
    s = await server();
    const config = providerConfig({ type: 'gemini', gemini: { base_url: s.geminiUrl } });
    const list = await listModels(config, { env: { ...env, GEMINI_API_KEY: 'g-key' } });
    expect(list).toEqual([expect.objectContaining(geminiFlashListed)]);
  });

  it('anthropic: ids from /v1/models (x-api-key, anthropic-version) with the table’s limits', async () => {
    s = await server();
    const config = providerConfig({ type: 'anthropic', anthropic: { base_url: s.anthropicUrl } });
    const list = await listModels(config, { env: { ...env, ANTHROPIC_API_KEY: 'a-key' } });
    expect(list.map((m) => [m.id, m.contextWindow, m.maxOutput, m.source])).toEqual([
      ['claude-sonnet-4-5-20250929', 200000, 64000, 'table'],
      ['claude-haiku-4-5-20251001', 200000, 64000, 'table'],
    ]);
  });

  it('openai: ids from /v1/models without embedding models; openai-compatible keeps every id', async () => {
    s = await server();
    const openai = await listModels(providerConfig({ type: 'openai', openai: { base_url: s.openaiUrl } }), {
      env: { ...env, OPENAI_API_KEY: 'o-key' },
    });
    expect(openai).toEqual([
      expect.objectContaining({ id: 'gpt-4o-mini', contextWindow: 128000, source: 'table' }),
    ]);
    const compatible = await listModels(
      providerConfig({ type: 'openai-compatible', 'openai-compatible': { base_url: s.openaiUrl } }),
      { env },
    );
    expect(compatible.map((m) => m.id)).toEqual(['gpt-4o-mini', 'text-embedding-3-small']);
  });

  it('a missing key is exit 3 naming the variable, before any request', async () => {
    s = await server();
    const config = providerConfig({ type: 'gemini', gemini: { base_url: s.geminiUrl } });
    const error = await rejection(listModels(config, { env }));
    expect(error.exitCode).toBe(3);
    expect(error.hint).toMatch(/GEMINI_API_KEY/);
    expect(s.routes).toHaveLength(0);
  });

  it('a wrong base URL (404) says to check it', async () => {
    s = await server();
    const config = providerConfig({ type: 'gemini', gemini: { base_url: `${s.url}/nope` } });
    const error = await rejection(listModels(config, { env: { ...env, GEMINI_API_KEY: 'g' } }));
    expect(error.message).toContain(`${s.url}/nope/models`);
    expect(error.hint).toMatch(/--base-url/);
  });
});

describe('copilot', () => {
  it('lists the account’s chat models with the prompt budget and tool support', async () => {
    const gh = await startGitHubServer({ githubToken: 'ghu_x' });
    track(gh.close);
    const config = providerConfig({ type: 'copilot', copilot: { github_api_url: gh.url } });
    const list = await listModels(config, { env: { ...env, GITHUB_TOKEN: 'ghu_x' } });
    expect(list).toEqual([
      {
        id: 'gpt-4.1',
        contextWindow: 111000,
        maxOutput: 16384,
        tools: true,
        streaming: true,
        images: true,
        price: { inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0.5 },
        source: 'server',
      },
    ]);
  });

  it('without a GitHub token: exit 3 with the login hint', async () => {
    const error = await rejection(listModels(providerConfig({ type: 'copilot' }), { env }));
    expect(error.exitCode).toBe(3);
    expect(error.hint).toMatch(/keel auth login copilot/);
  });
});
