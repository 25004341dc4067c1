// Error classification for failures that loopback cannot stage (DNS) and host names that resolve to several addresses.
import { describe, expect, it } from 'vitest';
import type { KeelError } from '../../src/core/errors.js';
import { classifyProviderError, type ProviderErrorContext } from '../../src/providers/errors.js';
import { createOllamaModel } from '../../src/providers/ollama.js';
import { ask, failure, freePort, request } from './helpers.js';

const context: ProviderErrorContext = {
  label: 'Ollama',
  provider: 'ollama',
  baseUrl: 'http://gpu-box:11434',
  modelId: 'qwen3',
  unreachableHint: 'start it',
  credentialsHint: 'key',
  notFoundHint: 'pull it',
};

describe('provider error classification', () => {
  it('reports a DNS failure as provider_unreachable naming the URL', () => {
    // The shape fetch throws: TypeError("fetch failed") caused by the resolver's error.
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND gpu-box'), { code: 'ENOTFOUND' });
    const error = classifyProviderError(new TypeError('fetch failed', { cause: dns }), context) as KeelError;
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toBe('cannot reach Ollama at http://gpu-box:11434 (host not found)');
    expect(error.hint).toBe('start it');
  });

  it('reports other transport failures as provider_unreachable too', async () => {
    // fetch refuses some ports outright ("bad port"); that is still "cannot reach", not a server error.
    const error = await failure(
      createOllamaModel({ model: 'qwen3', baseUrl: 'localhost:9' }),
      request(ask('hi')),
    );
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toBe('cannot reach Ollama at http://localhost:9 (bad port)');
  });

  it('keeps an abort an abort even if the provider wrapped it', () => {
    const controller = new AbortController();
    controller.abort();
    const error = classifyProviderError(new Error('something else'), context, controller.signal);
    expect(error.name).toBe('AbortError');
  });

  it('sees connection refused behind a name with several addresses (localhost)', async () => {
    const port = await freePort();
    const model = createOllamaModel({ model: 'qwen3', baseUrl: `localhost:${port}` });
    const error = await failure(model, request(ask('hi')));
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toBe(`cannot reach Ollama at http://localhost:${port} (connection refused)`);
    expect(error.hint).toBe(
      'start it with `ollama serve`, set OLLAMA_HOST, or pick another provider with --provider',
    );
  });
});
