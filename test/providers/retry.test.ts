// Retries and idle timeouts: the retry wrapper around the real providers, against faults the scripted server injects
// (HTTP errors, resets, stalls, streams that end early or carry garbage).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation.js';
import { runLoop } from '../../src/agent/loop.js';
import type { AgentEvent } from '../../src/core/events.js';
import type { Model, ModelEvent } from '../../src/core/model.js';
import { aiSdkModel } from '../../src/providers/ai-sdk.js';
import { createAnthropicModel } from '../../src/providers/anthropic.js';
import { retryableFailure, serverDelayMs } from '../../src/providers/errors.js';
import { createGeminiModel } from '../../src/providers/gemini.js';
import { createOllamaModel } from '../../src/providers/ollama.js';
import { createOpenAIModel } from '../../src/providers/openai.js';
import { createOpenAICompatibleModel } from '../../src/providers/openai-compatible.js';
import { createOpenRouterModel } from '../../src/providers/openrouter.js';
import { delayFor, type RetryOptions, retryingModel } from '../../src/providers/retry.js';
import { useModelServers } from '../support/cleanup.js';
import type { ModelServer, ScriptedReply } from '../support/model-server.js';
import { ask, collect, failure, freePort, request, textOf } from './helpers.js';

const start = useModelServers();

const fast: RetryOptions = { retries: 3, idleTimeoutMs: 10_000, baseDelayMs: 5 };
/** The idle timeout of the stall tests: each stall waits it out, yet a local answer comes well within it. */
const STALL_MS = 200;
const retries = (events: ModelEvent[]) => events.filter((event) => event.type === 'retry');

const providers = [
  { name: 'ollama', model: (s: ModelServer) => createOllamaModel({ model: 'qwen3', baseUrl: s.ollamaUrl }) },
  {
    name: 'openai-compatible',
    model: (s: ModelServer) => createOpenAICompatibleModel({ model: 'gpt-4o-mini', baseUrl: s.openaiUrl }),
  },
];

describe.each(providers)('retries over $name', (provider) => {
  const wrapped = (s: ModelServer, options: Partial<RetryOptions> = {}) =>
    retryingModel(provider.model(s), { ...fast, ...options });

  it('waits as Retry-After asks after a 429, then succeeds', async () => {
    const s = await start([{ status: 429, headers: { 'retry-after-ms': '30' } }, { text: 'done' }]);
    const events = await collect(wrapped(s).stream(request(ask('hi'))));
    expect(retries(events)).toEqual([
      { type: 'retry', attempt: 1, max: 3, delayMs: 30, reason: 'rate limited (HTTP 429)' },
    ]);
    expect(textOf(events)).toBe('done');
    expect(s.requests).toHaveLength(2);
  });

  it('retries a 500 with backoff, then succeeds', async () => {
    const s = await start([{ status: 500 }, { status: 503 }, { text: 'recovered' }]);
    const events = await collect(wrapped(s).stream(request(ask('hi'))));
    expect(retries(events).map((e) => e.type === 'retry' && e.reason)).toEqual([
      'server error (HTTP 500)',
      'server error (HTTP 503)',
    ]);
    expect(textOf(events)).toBe('recovered');
  });

  it('retries a connection reset mid-stream, after the text already streamed', async () => {
    const s = await start([{ text: 'Hello wor', reset: true }, { text: 'Hello world.' }]);
    const events = await collect(wrapped(s).stream(request(ask('hi'))));
    const retryAt = events.findIndex((event) => event.type === 'retry');
    expect(retryAt).toBeGreaterThan(0);
    expect(textOf(events.slice(0, retryAt))).toBe('Hello wor');
    expect(events[retryAt]).toMatchObject({ reason: expect.stringMatching(/^connection (reset|closed)$/) });
    expect(textOf(events.slice(retryAt))).toBe('Hello world.');
  });

  it('aborts a stream silent for longer than the idle timeout and retries it once', async () => {
    const s = await start([{ text: 'thinking', stall: true }, { text: 'awake' }]);
    const events = await collect(wrapped(s, { idleTimeoutMs: STALL_MS }).stream(request(ask('hi'))));
    expect(retries(events)).toMatchObject([
      { attempt: 1, max: 3, reason: 'no data for 0.2 s (a silent stream is retried once)' },
    ]);
    expect(textOf(events)).toBe('thinkingawake');
    expect(s.requests).toHaveLength(2);
  });

  it('fails after a second stall, whatever provider.retries allows', async () => {
    const s = await start([{ text: 'thinking', stall: true }, { hang: true }, { text: 'must not be asked' }]);
    const events: ModelEvent[] = [];
    let thrown: (Error & { code?: string }) | undefined;
    try {
      for await (const event of wrapped(s, { idleTimeoutMs: STALL_MS }).stream(request(ask('hi'))))
        events.push(event);
    } catch (error) {
      thrown = error as Error & { code?: string };
    }
    expect(thrown?.message).toMatch(
      /^no data from \S+ for 0.2 s; the response stream stalled \(after 1 retry\)$/,
    );
    expect(retries(events)).toHaveLength(1);
    expect(s.requests).toHaveLength(2);
  });

  it('still retries a stall after a rate limit used up a retry', async () => {
    const s = await start([
      { status: 429, headers: { 'retry-after-ms': '5' } },
      { stall: true },
      { text: 'ok' },
    ]);
    const events = await collect(wrapped(s, { idleTimeoutMs: STALL_MS }).stream(request(ask('hi'))));
    expect(retries(events).map((e) => e.type === 'retry' && `${e.reason} ${e.attempt}/${e.max}`)).toEqual([
      'rate limited (HTTP 429) 1/3',
      'no data for 0.2 s (a silent stream is retried once) 2/3',
    ]);
    expect(textOf(events)).toBe('ok');
  });

  it('counts a stall and a server error after it as retries of one request, against one limit', async () => {
    const s = await start([{ text: 'thinking', stall: true }, { status: 503 }, { text: 'ok' }]);
    const events = await collect(wrapped(s, { idleTimeoutMs: STALL_MS }).stream(request(ask('hi'))));
    expect(retries(events).map((e) => e.type === 'retry' && `${e.reason} ${e.attempt}/${e.max}`)).toEqual([
      'no data for 0.2 s (a silent stream is retried once) 1/3',
      'server error (HTTP 503) 2/3',
    ]);
    expect(textOf(events)).toBe('thinkingok');
  });

  it('never retries rejected credentials (HTTP 401)', async () => {
    const s = await start([{ status: 401 }, { text: 'must not be asked' }]);
    const error = await failure(wrapped(s), request(ask('hi')));
    expect(error.code).toBe('credentials_rejected');
    expect(s.requests).toHaveLength(1);
  });

  it('never retries a bad request (HTTP 400)', async () => {
    const s = await start([{ status: 400 }, { text: 'must not be asked' }]);
    const error = await failure(wrapped(s), request(ask('hi')));
    expect(error.code).toBe('provider_error');
    expect(s.requests).toHaveLength(1);
  });

  it('gives up after provider.retries with the last error, saying how often it tried', async () => {
    const s = await start([
      { status: 502 },
      { status: 502 },
      { status: 502 },
      { status: 502 },
      { text: 'late' },
    ]);
    const events: ModelEvent[] = [];
    let thrown: (Error & { code?: string }) | undefined;
    try {
      for await (const event of wrapped(s).stream(request(ask('hi')))) events.push(event);
    } catch (error) {
      thrown = error as Error & { code?: string };
    }
    expect(thrown?.code).toBe('provider_error');
    expect(thrown?.message).toMatch(/HTTP 502.*\(after 3 retries\)$/);
    expect(retries(events).map((e) => e.type === 'retry' && `${e.attempt}/${e.max}`)).toEqual([
      '1/3',
      '2/3',
      '3/3',
    ]);
    expect(s.requests).toHaveLength(4);
  });

  it('stops at once when aborted during the backoff', async () => {
    const s = await start([{ status: 500 }, { text: 'must not be asked' }]);
    const controller = new AbortController();
    const model = wrapped(s, { baseDelayMs: 600_000 });
    let thrown: unknown;
    try {
      for await (const event of model.stream(request(ask('hi'), [], controller.signal))) {
        if (event.type === 'retry') controller.abort();
      }
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).name).toBe('AbortError');
    expect(s.requests).toHaveLength(1);
  });
});

// Every wire format, through its real provider: a stream that breaks off or garbles is asked again like a reset.
const everyProvider = [
  ...providers,
  {
    name: 'openai',
    model: (s: ModelServer) => createOpenAIModel({ model: 'm', baseUrl: s.openaiUrl, apiKey: 'k' }),
  },
  {
    name: 'openrouter',
    model: (s: ModelServer) => createOpenRouterModel({ model: 'm', baseUrl: s.openaiUrl, apiKey: 'k' }),
  },
  {
    name: 'anthropic',
    model: (s: ModelServer) => createAnthropicModel({ model: 'm', baseUrl: s.anthropicUrl, apiKey: 'k' }),
  },
  {
    name: 'gemini',
    model: (s: ModelServer) => createGeminiModel({ model: 'm', baseUrl: s.geminiUrl, apiKey: 'k' }),
  },
];

describe.each(everyProvider)('broken streams over $name', (provider) => {
  const serve = (script: ScriptedReply[]) => start({ script, openrouter: provider.name === 'openrouter' });
  const wrapped = (s: ModelServer, options: Partial<RetryOptions> = {}) =>
    retryingModel(provider.model(s), { ...fast, ...options });

  it('retries a stream that ends before its finish, instead of taking it as the answer', async () => {
    const s = await serve([{ text: 'The answer', truncate: true }, { text: 'The answer is 42.' }]);
    const events = await collect(wrapped(s).stream(request(ask('hi'))));
    expect(retries(events)).toMatchObject([{ reason: 'response stream ended before its finish' }]);
    const retryAt = events.findIndex((event) => event.type === 'retry');
    expect(textOf(events.slice(retryAt))).toBe('The answer is 42.');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('retries a stream carrying a line that is not valid JSON', async () => {
    const s = await serve([{ text: 'Hello', garbage: true }, { text: 'Hello again.' }]);
    const events = await collect(wrapped(s).stream(request(ask('hi'))));
    expect(retries(events)).toMatchObject([{ reason: 'unparseable data in the response stream' }]);
    expect(textOf(events.slice(events.findIndex((event) => event.type === 'retry')))).toBe('Hello again.');
    expect(s.requests).toHaveLength(2);
  });

  it('fails naming the broken stream once the retries are used up', async () => {
    const s = await serve([
      { text: 'a', truncate: true },
      { text: 'b', garbage: true },
      { text: 'must not be asked' },
    ]);
    const error = await failure(wrapped(s, { retries: 1 }), request(ask('hi')));
    expect(error.code).toBe('provider_error');
    expect(error.message).toMatch(
      /sent a broken response: unparseable data in the response stream \(after 1 retry\)$/,
    );
    expect(s.requests).toHaveLength(2);
  });
});

describe('idle timeout', () => {
  it("counts bytes that make no event as activity: OpenRouter's keep-alive comments keep a slow stream alive", async () => {
    // Comments for twice the idle timeout, none of them a gap as long as it; then the answer.
    const s = await start({
      script: [{ text: 'slow answer', keepAlive: { count: 8, intervalMs: STALL_MS / 4 } }],
      openrouter: true,
    });
    const inner = createOpenRouterModel({ model: 'm', baseUrl: s.openaiUrl, apiKey: 'k' });
    const events = await collect(
      retryingModel(inner, { ...fast, idleTimeoutMs: STALL_MS }).stream(request(ask('hi'))),
    );
    expect(retries(events)).toEqual([]);
    expect(textOf(events)).toBe('slow answer');
    expect(s.requests).toHaveLength(1);
  });
});

describe('errors a server reports inside a stream', () => {
  const anthropic = (s: ModelServer) =>
    retryingModel(createAnthropicModel({ model: 'm', baseUrl: s.anthropicUrl, apiKey: 'k' }), fast);

  it.each([
    ['overloaded_error', 'server overloaded (HTTP 529)'],
    ['api_error', 'server error (HTTP 500)'],
  ])("retries Anthropic's in-stream %s as its HTTP form", async (type, reason) => {
    const s = await start([
      { text: 'partial', midStreamError: 'Overloaded', midStreamErrorType: type },
      { text: 'recovered' },
    ]);
    const events = await collect(anthropic(s).stream(request(ask('hi'))));
    expect(retries(events)).toMatchObject([{ attempt: 1, reason }]);
    expect(textOf(events.slice(events.findIndex((event) => event.type === 'retry')))).toBe('recovered');
    expect(s.requests).toHaveLength(2);
  });

  it("fails at once on Anthropic's in-stream invalid_request_error, with its message", async () => {
    const s = await start([
      { text: 'partial', midStreamError: 'prompt is too long', midStreamErrorType: 'invalid_request_error' },
      { text: 'must not be asked' },
    ]);
    const error = await failure(anthropic(s), request(ask('hi')));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('prompt is too long');
    expect(s.requests).toHaveLength(1);
  });

  it.each([
    ['OpenRouter', (url: string) => createOpenRouterModel({ model: 'm', baseUrl: url, apiKey: 'k' }), true],
    [
      'an OpenAI-compatible server',
      (url: string) => createOpenAICompatibleModel({ model: 'm', baseUrl: url }),
      false,
    ],
  ] as const)(
    "retries %s's in-stream server_error as a 500, dropping the partial answer",
    async (_, make, openrouter) => {
      const s = await start({
        script: [
          { text: 'partial', midStreamError: 'Provider disconnected unexpectedly' },
          { text: 'recovered' },
        ],
        openrouter,
      });
      const events = await collect(retryingModel(make(s.openaiUrl), fast).stream(request(ask('hi'))));
      expect(retries(events)).toMatchObject([{ reason: 'server error (HTTP 500)' }]);
      expect(s.requests).toHaveLength(2);
    },
  );

  it("retries Gemini's in-stream UNAVAILABLE as a 503", async () => {
    const s = await start([
      { text: 'partial', midStreamError: 'The model is overloaded.' },
      { text: 'recovered' },
    ]);
    const model = retryingModel(createGeminiModel({ model: 'm', baseUrl: s.geminiUrl, apiKey: 'k' }), fast);
    const events = await collect(model.stream(request(ask('hi'))));
    expect(retries(events)).toMatchObject([{ reason: 'server error (HTTP 503)' }]);
    expect(s.requests).toHaveLength(2);
  });
});

describe('retries in the agent loop', () => {
  it('discards the partial turn of a reset stream, so the answer is not doubled', async () => {
    const s = await start([{ text: 'The answer is', reset: true }, { text: 'The answer is 42.' }]);
    const model = retryingModel(
      createOpenAICompatibleModel({ model: 'gpt-4o-mini', baseUrl: s.openaiUrl }),
      fast,
    );
    const conversation = new Conversation('system', {
      maxTokens: 100_000,
      minRetainTurns: 4,
      pruneThreshold: 0.8,
    });
    conversation.push({ role: 'user', content: 'what is the answer?' });
    const events: AgentEvent[] = [];
    const result = await runLoop(conversation, {
      model,
      executor: { specs: () => [], run: async () => ({ content: '', isError: false }) },
      emit: (event) => events.push(event),
      workspace: '/tmp',
      maxTurns: 3,
      signal: new AbortController().signal,
    });
    expect(result.reason).toBe('done');
    expect(result.answer).toBe('The answer is 42.');
    expect(conversation.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'The answer is 42.' });
    expect(events.find((event) => event.type === 'retry')).toMatchObject({
      type: 'retry',
      turn: 1,
      attempt: 1,
      max: 3,
    });
  });
});

describe('what is retried', () => {
  it('does not retry a refused connection: the provider is just not running', async () => {
    const port = await freePort();
    const inner = createOllamaModel({ model: 'qwen3', baseUrl: `http://127.0.0.1:${port}` });
    const events: ModelEvent[] = [];
    let thrown: (Error & { code?: string }) | undefined;
    try {
      for await (const event of retryingModel(inner, fast).stream(request(ask('hi')))) events.push(event);
    } catch (error) {
      thrown = error as Error & { code?: string };
    }
    expect(thrown?.code).toBe('provider_unreachable');
    expect(events).toEqual([]);
  });

  it('names the env var and `keel auth login` when credentials are rejected', async () => {
    const s = await start([{ status: 401 }]);
    const provider = createOpenAICompatible({ name: 'gemini', baseURL: s.openaiUrl, apiKey: 'k' });
    const model: Model = aiSdkModel(provider.chatModel('m'), {
      provider: 'gemini',
      errors: {
        label: 'Gemini',
        provider: 'gemini',
        baseUrl: s.openaiUrl,
        modelId: 'm',
        unreachableHint: '',
        credentialsHint: 'check GEMINI_API_KEY',
        credentialsEnv: 'GEMINI_API_KEY',
        notFoundHint: '',
      },
    });
    const error = await failure(retryingModel(model, fast), request(ask('hi')));
    expect(error.message).toBe(
      'credentials rejected by gemini (HTTP 401); run `keel auth login gemini` or set GEMINI_API_KEY',
    );
  });

  it('reads Retry-After in seconds and as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(serverDelayMs({ 'retry-after': '2' }, undefined, now)).toBe(2000);
    expect(serverDelayMs({ 'Retry-After': 'Wed, 01 Jan 2025 00:00:05 GMT' }, undefined, now)).toBe(5000);
    expect(serverDelayMs({ 'retry-after-ms': '250', 'retry-after': '9' }, undefined, now)).toBe(250);
    expect(serverDelayMs({ 'retry-after': 'soon' }, undefined, now)).toBeUndefined();
  });

  it("reads Gemini's retryDelay from a RetryInfo detail of the error body", () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '46s' },
        ],
      },
    });
    expect(serverDelayMs({}, body)).toBe(46_000);
    expect(serverDelayMs({}, `[${body}]`)).toBe(46_000);
  });

  it('caps a server-asked delay at 60 s and says so', () => {
    const options = { baseDelayMs: 1000, maxDelayMs: 30_000, maxServerDelayMs: 60_000, random: () => 0.5 };
    expect(delayFor({ reason: 'rate limited (HTTP 429)', retryAfterMs: 300_000 }, 0, options)).toEqual({
      delayMs: 60_000,
      reason: 'rate limited (HTTP 429); the server asked to wait 300 s, capped at 60 s',
    });
  });

  it('backs off exponentially with ±20% jitter up to the cap', () => {
    const at = (attempt: number, random: number) =>
      delayFor({ reason: 'x' }, attempt, {
        baseDelayMs: 1000,
        maxDelayMs: 30_000,
        maxServerDelayMs: 60_000,
        random: () => random,
      }).delayMs;
    expect([at(0, 0.5), at(1, 0.5), at(2, 0.5), at(10, 0.5)]).toEqual([1000, 2000, 4000, 30_000]);
    expect([at(1, 0), at(1, 0.999_999)]).toEqual([1600, 2400]);
  });

  it('treats an abort as final, never as a failure to retry', () => {
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    expect(retryableFailure(abort)).toBeUndefined();
  });
});
