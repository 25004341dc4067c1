// The factory picks the provider from config, passes its settings through, and wraps it for recording when asked.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { createModel } from '../../src/providers/index.js';
import { type ModelServer, startModelServer } from '../support/model-server.js';
import { ask, collect, request, textOf } from './helpers.js';

let server: ModelServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('createModel', () => {
  it('builds an openai-compatible model from config, sending the configured key', async () => {
    server = await startModelServer({ script: [{ text: 'hi there' }] });
    const { provider } = configSchema.parse({
      provider: {
        type: 'openai-compatible',
        'openai-compatible': { model: 'm1', base_url: server.openaiUrl, api_key: 'k1' },
      },
    });
    const model = await createModel(provider, {});
    expect(model.provider).toBe('openai-compatible');
    expect(model.modelId).toBe('m1');
    expect(textOf(await collect(model.stream(request(ask('hi')))))).toBe('hi there');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer k1');
    expect(server.requests[0]!.body.model).toBe('m1');
  });

  it('records any provider when options.record is set', async () => {
    server = await startModelServer({ script: [{ text: 'recorded' }] });
    const dir = await mkdtemp(join(tmpdir(), 'keel-factory-'));
    dirs.push(dir);
    const file = join(dir, 'c.json');
    const { provider } = configSchema.parse({
      provider: { type: 'openai-compatible', 'openai-compatible': { base_url: server.openaiUrl } },
    });
    const model = await createModel(provider, { record: file });
    expect(model.provider).toBe('openai-compatible');
    await collect(model.stream(request(ask('hi'))));
    const cassette = JSON.parse(await readFile(file, 'utf8'));
    expect(cassette.provider).toBe('openai-compatible');
    expect(cassette.model).toBe('gpt-4o-mini');
    expect(textOf(cassette.interactions[0].events)).toBe('recorded');
  });
});
