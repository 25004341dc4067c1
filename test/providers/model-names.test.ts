// Whether a provider has a model of a given name (the chat's /model checks it): the names closest to one it lacks, as
// a table, and the lists asked for over loopback (Ollama's tags, an OpenAI-compatible server's models) or not asked.
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { checkModelName, listedModelNames } from '../../src/providers/model-names.js';
import { trackedModelServer, useCleanup } from '../support/cleanup.js';
import { freePort } from './helpers.js';

const track = useCleanup();
const providerConfig = (provider: Record<string, unknown>) => configSchema.parse({ provider }).provider;
const env = {
  KEEL_KEYRING: 'off',
  HOME: '/nonexistent-keel-home',
  XDG_CONFIG_HOME: '/nonexistent-keel-home',
};

describe('checkModelName', () => {
  const ollama = ['qwen3:latest', 'qwen3:8b', 'llama3.2:3b', 'gemma3:latest', 'deepseek-r1:14b'];
  it.each([
    ['qwen3', ollama, { known: true }],
    ['qwen3:latest', ollama, { known: true }],
    ['qwen3:8b', ollama, { known: true }],
    ['gpt-4o-mini', ['gpt-4o-mini', 'gpt-4o'], { known: true }],
    // Another tag of the same model first, then a typo away.
    ['qwen3:4b', ollama, { known: false, near: ['qwen3:8b', 'qwen3:latest'] }],
    ['llama3.3', ollama, { known: false, near: ['llama3.2:3b'] }],
    ['Qwen3', ollama, { known: false, near: ['qwen3:8b', 'qwen3:latest'] }],
    ['deepseek', ollama, { known: false, near: ['deepseek-r1:14b'] }],
    ['gemma', ollama, { known: false, near: ['gemma3:latest'] }],
    ['gpt-4o-mni', ['gpt-4o-mini', 'gpt-4o', 'o3'], { known: false, near: ['gpt-4o-mini', 'gpt-4o'] }],
    ['nosuch', ollama, { known: false, near: [] }],
    ['x', ['xy:latest'], { known: false, near: ['xy:latest'] }],
  ])('%s among %j', (name, names, expected) => {
    expect(checkModelName(name, names)).toEqual(expected);
  });

  it('offers at most three names', () => {
    const names = ['qwen3:1b', 'qwen3:4b', 'qwen3:8b', 'qwen3:14b', 'qwen3:32b'];
    expect(checkModelName('qwen3:2b', names)).toMatchObject({ known: false, near: { length: 3 } });
  });
});

describe('listedModelNames', () => {
  it("asks Ollama for its tags and an OpenAI-compatible server for its models; a hosted provider's list is not asked", async () => {
    const s = await trackedModelServer(track, {
      script: [],
      ollamaModels: [{ name: 'qwen3:latest' }, { name: 'gemma3:4b' }],
    });
    const ollama = providerConfig({ type: 'ollama', ollama: { base_url: s.ollamaUrl } });
    expect(await listedModelNames(ollama, { env })).toEqual({
      names: ['qwen3:latest', 'gemma3:4b'],
      binding: true,
    });
    const compatible = providerConfig({
      type: 'openai-compatible',
      'openai-compatible': { base_url: s.openaiUrl },
    });
    expect(await listedModelNames(compatible, { env })).toEqual({
      names: ['gpt-4o-mini', 'text-embedding-3-small'],
      // llama.cpp answers any name: the list advises, it does not refuse.
      binding: false,
    });
    expect(s.routes).toEqual(['GET /api/tags', 'GET /v1/models']);
    const anthropic = providerConfig({ type: 'anthropic' });
    expect(await listedModelNames(anthropic, { env })).toEqual({
      unasked: 'anthropic takes names its model list leaves out',
    });
  });

  it('fails as the list request does (an Ollama that does not answer)', async () => {
    const ollama = providerConfig({
      type: 'ollama',
      ollama: { base_url: `http://127.0.0.1:${await freePort()}` },
    });
    await expect(listedModelNames(ollama, { env })).rejects.toMatchObject({ code: 'provider_unreachable' });
  });
});
