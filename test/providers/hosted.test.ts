// The hosted providers (Gemini, OpenRouter, Anthropic, OpenAI) against the scripted server speaking each wire format.
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { KeelError } from '../../src/core/errors.js';
import type { Message } from '../../src/core/messages.js';
import type { Model } from '../../src/core/model.js';
import { createAnthropicModel } from '../../src/providers/anthropic.js';
import { credentialEnvVar } from '../../src/providers/credentials.js';
import { createGeminiModel } from '../../src/providers/gemini.js';
import type { HostedModelOptions } from '../../src/providers/hosted.js';
import { createModel } from '../../src/providers/index.js';
import { createOpenAIModel } from '../../src/providers/openai.js';
import { createOpenRouterModel } from '../../src/providers/openrouter.js';
import { retryingModel } from '../../src/providers/retry.js';
import { useModelServers } from '../support/cleanup.js';
import type {
  ModelServer,
  ModelServerOptions,
  ReceivedRequest,
  ScriptedReply,
} from '../support/model-server.js';
import {
  ask,
  collect,
  failure,
  freePort,
  greeting,
  readFileTool,
  reasoningOf,
  request,
  textOf,
  twoCalls,
  writeFileTool,
} from './helpers.js';

const key = 'sk-test-canary-7731';

interface HostedCase {
  name: 'gemini' | 'openrouter' | 'anthropic' | 'openai';
  create(options: HostedModelOptions): Model;
  url(server: ModelServer): string;
  /** The tool results as the wire carries them in a request body. */
  toolResults(request: ReceivedRequest): unknown[];
  authorised(request: ReceivedRequest): boolean;
}

/** OpenRouter and OpenAI speak chat completions: tool results as tool messages, the key as a bearer token. */
const chatCompletions = {
  url: (s: ModelServer) => s.openaiUrl,
  toolResults: (r: ReceivedRequest) => r.body.messages.filter((m: { role: string }) => m.role === 'tool'),
  authorised: (r: ReceivedRequest) => r.headers.authorization === `Bearer ${key}`,
};

const cases: HostedCase[] = [
  {
    name: 'gemini',
    create: createGeminiModel,
    url: (s) => s.geminiUrl,
    toolResults: (r) =>
      r.body.contents.flatMap((c: { parts: Record<string, unknown>[] }) =>
        c.parts.filter((p) => p.functionResponse).map((p) => p.functionResponse),
      ),
    authorised: (r) => r.headers['x-goog-api-key'] === key,
  },
  { name: 'openrouter', create: createOpenRouterModel, ...chatCompletions },
  {
    name: 'anthropic',
    create: createAnthropicModel,
    url: (s) => s.anthropicUrl,
    toolResults: (r) =>
      r.body.messages.flatMap((m: { content: unknown }) =>
        Array.isArray(m.content) ? m.content.filter((p: { type: string }) => p.type === 'tool_result') : [],
      ),
    authorised: (r) => r.headers['x-api-key'] === key,
  },
  { name: 'openai', create: createOpenAIModel, ...chatCompletions },
];

const startServer = useModelServers();

describe.each(cases)('$name provider', (provider) => {
  // OpenRouter's dialect on the OpenAI route; the other providers have routes of their own.
  const start = (options: ModelServerOptions) =>
    startServer({ openrouter: provider.name === 'openrouter', ...options });
  const model = (s: ModelServer) =>
    provider.create({ model: 'test-model', baseUrl: provider.url(s), apiKey: key });

  it('streams text in pieces with usage, sending the key the way its API wants it', async () => {
    const s = await start({ script: [greeting] });
    const events = await collect(model(s).stream(request(ask('hi'))));
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(1);
    expect(textOf(events)).toBe('Hello there, I can help.');
    expect(events).toContainEqual({ type: 'usage', usage: { inputTokens: 42, outputTokens: 7 } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    expect(provider.authorised(s.requests[0]!)).toBe(true);
  });

  it('reports the cached part of the input the server counted', async () => {
    const usage = { input: 1000, output: 5, cacheRead: 600, cacheWrite: 300 };
    const s = await start({ script: [{ text: 'ok', usage }] });
    const events = await collect(model(s).stream(request(ask('hi'))));
    // Only Anthropic reports cache writes; the others cache on their own and report reads.
    const write = provider.name === 'anthropic' ? { cacheWriteTokens: 300 } : {};
    expect(events).toContainEqual({
      type: 'usage',
      usage: { inputTokens: 1000, outputTokens: 5, cacheReadTokens: 600, ...write },
    });
    if (provider.name === 'openrouter') expect(s.requests[0]!.body.usage).toEqual({ include: true });
  });

  it('reports reasoning separately from text', async () => {
    const s = await start({ openrouter: true, script: [{ reasoning: 'think about it', text: 'answer' }] });
    const events = await collect(model(s).stream(request(ask('hi'))));
    const reasoning = reasoningOf(events);
    // Gemini's thought parts and Anthropic's thinking blocks, OpenRouter's delta.reasoning.
    if (provider.name !== 'openai') expect(reasoning).toBe('think about it');
    expect(textOf(events)).toBe('answer');
  });

  it('assembles two parallel tool calls and answers both in the next request', async () => {
    const s = await start({
      script: [twoCalls, { text: 'Done.' }],
    });
    const m = model(s);
    const messages: Message[] = ask('go');
    const first = await collect(m.stream(request(messages, [readFileTool, writeFileTool])));
    const calls = first.flatMap((e) => (e.type === 'tool-call' ? [e.call] : []));
    expect(calls.map((c) => c.name)).toEqual(['read_file', 'write_file']);
    expect(JSON.parse(calls[1]!.input)).toEqual({ path: 'b.txt', content: 'x y z' });
    expect(first.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
    messages.push({ role: 'assistant', content: '', toolCalls: calls });
    for (const call of calls)
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: `result of ${call.name}`,
      });
    const second = await collect(m.stream(request(messages, [readFileTool, writeFileTool])));
    expect(textOf(second)).toBe('Done.');
    const results = JSON.stringify(provider.toolResults(s.requests[1]!));
    expect(provider.toolResults(s.requests[1]!)).toHaveLength(2);
    expect(results).toContain('result of read_file');
    expect(results).toContain('result of write_file');
  });

  it('reports rejected credentials (HTTP 401) naming the provider, never the key', async () => {
    const s = await start({ script: [{ status: 401, errorBody: { error: { message: `bad key ${key}` } } }] });
    const error = await failure(model(s), request(ask('hi')));
    expect(error.code).toBe('credentials_rejected');
    expect(error.message).toBe(
      `credentials rejected by ${provider.name} (HTTP 401); run \`keel auth login ${provider.name}\` or set ${credentialEnvVar[provider.name]}`,
    );
    expect(error.hint).toContain(credentialEnvVar[provider.name]);
    expect(`${error.message} ${error.hint}`).not.toContain(key);
  });

  it('names the URL when nothing listens there', async () => {
    const base = `http://127.0.0.1:${await freePort()}/v1`;
    const error = await failure(
      provider.create({ model: 'm', baseUrl: base, apiKey: key }),
      request(ask('hi')),
    );
    expect(error).toBeInstanceOf(KeelError);
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toContain(base);
  });

  it('turns an error inside the stream into a ProviderError with the server message', async () => {
    const s = await start({ script: [{ text: 'partial answer', midStreamError: 'the GPU fell over' }] });
    const seen: string[] = [];
    let caught: (Error & { code?: string }) | undefined;
    try {
      for await (const event of model(s).stream(request(ask('hi'))))
        if (event.type === 'text') seen.push(event.delta);
    } catch (error) {
      caught = error as Error & { code?: string };
    }
    expect(seen.join('')).toBe('partial answer');
    expect(caught?.code).toBe('provider_error');
    expect(caught?.message).toContain('the GPU fell over');
  });

  it('refuses to start without a key, before any request, naming the variable', async () => {
    const s = await start({ script: [{ text: 'unused' }] });
    const config = configSchema.parse({
      provider: { type: provider.name, [provider.name]: { base_url: provider.url(s) } },
    });
    const env = { HOME: '/nonexistent-keel-home', XDG_CONFIG_HOME: '/nonexistent-keel-home/.config' };
    const error = await createModel(config.provider, { env }).then(
      () => undefined,
      (e: Error & { code?: string; hint?: string }) => e,
    );
    expect(error?.code).toBe('credentials_rejected');
    expect(error?.message).toBe(`no API key for ${provider.name}`);
    expect(error?.hint).toMatch(/^set [A-Z_]+_API_KEY or run `keel auth login/);
    expect(s.requests).toHaveLength(0);
  });

  it('takes its key from the environment it is given', async () => {
    const s = await start({ script: [{ text: 'ok' }] });
    const config = configSchema.parse({
      provider: { type: provider.name, [provider.name]: { base_url: provider.url(s), model: 'test-model' } },
    });
    const envVar = {
      gemini: 'GEMINI_API_KEY',
      openrouter: 'OPENROUTER_API_KEY',
      anthropic: 'ANTHROPIC_API_KEY',
      openai: 'OPENAI_API_KEY',
    }[provider.name];
    const m = await createModel(config.provider, { env: { [envVar]: key, HOME: '/nonexistent-keel-home' } });
    expect(m.provider).toBe(provider.name);
    expect(textOf(await collect(m.stream(request(ask('hi')))))).toBe('ok');
    expect(provider.authorised(s.requests[0]!)).toBe(true);
  });
});

/** Each provider's documented error bodies: what they mean, and that none of them is asked again. */
const documentedErrors: {
  provider: HostedCase['name'];
  what: string;
  reply: ScriptedReply;
  code: string;
  exitCode: number;
}[] = [
  {
    provider: 'gemini',
    what: 'an invalid key: 400 INVALID_ARGUMENT, reason API_KEY_INVALID, the body a one-item list',
    reply: {
      status: 400,
      errorBody: [
        {
          error: {
            code: 400,
            message: 'API key not valid. Please pass a valid API key.',
            status: 'INVALID_ARGUMENT',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'API_KEY_INVALID',
                domain: 'googleapis.com',
              },
            ],
          },
        },
      ],
    },
    code: 'credentials_rejected',
    exitCode: 3,
  },
  {
    provider: 'gemini',
    what: 'a model without function calling',
    reply: {
      status: 400,
      errorBody: {
        error: {
          code: 400,
          message: 'Function calling is not enabled for models/gemma-3-27b-it',
          status: 'INVALID_ARGUMENT',
        },
      },
    },
    code: 'model_without_tools',
    exitCode: 2,
  },
  {
    provider: 'openrouter',
    what: 'a model no endpoint serves with tools (404)',
    reply: {
      status: 404,
      errorBody: {
        error: {
          message:
            'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing',
          code: 404,
        },
      },
    },
    code: 'model_without_tools',
    exitCode: 2,
  },
  {
    provider: 'openrouter',
    what: 'an unknown model (400 "is not a valid model ID")',
    reply: {
      status: 400,
      errorBody: { error: { message: 'anthropic/claude-9 is not a valid model ID', code: 400 } },
    },
    code: 'model_not_found',
    exitCode: 2,
  },
  {
    provider: 'openrouter',
    what: 'no credits left (402)',
    reply: {
      status: 402,
      errorBody: {
        error: { message: 'Insufficient credits. Add more using https://openrouter.ai/credits', code: 402 },
      },
    },
    code: 'credit_exhausted',
    exitCode: 3,
  },
  {
    provider: 'openai',
    what: 'a model without tools (400 "tools is not supported in this model")',
    reply: {
      status: 400,
      errorBody: {
        error: {
          message:
            'tools is not supported in this model. For a list of supported models, refer to https://platform.openai.com/docs/guides/function-calling#models-supporting-function-calling.',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    },
    code: 'model_without_tools',
    exitCode: 2,
  },
  {
    provider: 'openai',
    what: 'an account out of quota (429 insufficient_quota): not a rate limit',
    reply: {
      status: 429,
      errorBody: {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      },
    },
    code: 'credit_exhausted',
    exitCode: 3,
  },
  {
    provider: 'anthropic',
    what: 'a credit balance too low (400)',
    reply: {
      status: 400,
      errorBody: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'Your credit balance is too low to access the Anthropic API.',
        },
      },
    },
    code: 'credit_exhausted',
    exitCode: 3,
  },
];

describe.each(documentedErrors)('$provider: $what', ({ provider, reply, code, exitCode }) => {
  it(`fails at once as ${code} (exit ${exitCode})`, async () => {
    const c = cases.find((each) => each.name === provider)!;
    const s = await startServer({
      script: [reply, { text: 'must not be asked' }],
      openrouter: provider === 'openrouter',
    });
    const model = retryingModel(c.create({ model: 'test-model', baseUrl: c.url(s), apiKey: key }), {
      retries: 3,
      idleTimeoutMs: 10_000,
      baseDelayMs: 5,
    });
    const error = await failure(model, request(ask('hi')));
    expect(error).toBeInstanceOf(KeelError);
    expect({ code: error.code, exitCode: (error as KeelError).exitCode }).toEqual({ code, exitCode });
    expect(s.requests).toHaveLength(1);
    if (code === 'credit_exhausted') expect(error.hint).toMatch(/credit|plan/);
  });
});

describe('provider specifics', () => {
  it('anthropic: sends max_tokens, the system prompt apart, and tool inputs as objects', async () => {
    const s = await startServer({
      script: [{ toolCalls: [{ name: 'read_file', args: { path: 'a' }, id: 'toolu_1' }] }, { text: 'ok' }],
    });
    const m = createAnthropicModel({ model: 'claude-sonnet-4-5', baseUrl: s.anthropicUrl, apiKey: key });
    const messages: Message[] = ask('go');
    const first = await collect(m.stream(request(messages)));
    const call = first.find((e) => e.type === 'tool-call');
    if (call?.type !== 'tool-call') throw new Error('expected a tool call');
    messages.push({ role: 'assistant', content: '', toolCalls: [call.call] });
    messages.push({
      role: 'tool',
      toolCallId: call.call.id,
      toolName: 'read_file',
      content: 'hi',
      isError: true,
    });
    await collect(m.stream(request(messages)));
    const body = s.requests[1]!.body;
    expect(body.max_tokens).toBe(16_384);
    expect(body.system).toEqual([
      { type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.messages[1].content).toContainEqual({
      type: 'tool_use',
      id: 'toolu_1',
      name: 'read_file',
      input: { path: 'a' },
    });
    expect(body.messages[2].content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      is_error: true,
    });
    expect(s.requests[0]!.headers['anthropic-version']).toBeTruthy();
  });

  it('gemini: carries a thought signature back on the call and sends the result as an object', async () => {
    const s = await startServer({
      script: [
        { toolCalls: [{ name: 'read_file', args: { path: 'a' }, signature: 'sig-abc' }] },
        { text: 'ok' },
      ],
    });
    const m = createGeminiModel({ model: 'gemini-2.5-flash', baseUrl: s.geminiUrl, apiKey: key });
    const messages: Message[] = ask('go');
    const first = await collect(m.stream(request(messages)));
    const call = first.find((e) => e.type === 'tool-call');
    if (call?.type !== 'tool-call') throw new Error('expected a tool call');
    expect(call.call.providerMetadata).toEqual({ google: { thoughtSignature: 'sig-abc' } });
    // As the session store would keep it: plain JSON.
    const stored = JSON.parse(JSON.stringify(call.call));
    messages.push({ role: 'assistant', content: '', toolCalls: [stored] });
    messages.push({ role: 'tool', toolCallId: stored.id, toolName: 'read_file', content: 'file text' });
    await collect(m.stream(request(messages)));
    expect(s.requests[1]!.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    const contents = s.requests[1]!.body.contents;
    expect(contents[1].role).toBe('model');
    expect(contents[1].parts).toHaveLength(1);
    expect(contents[1].parts[0]).toMatchObject({
      functionCall: { name: 'read_file', args: { path: 'a' } },
      thoughtSignature: 'sig-abc',
    });
    const response = contents[2].parts[0].functionResponse;
    expect(response.name).toBe('read_file');
    expect(typeof response.response).toBe('object');
    expect(JSON.stringify(response.response)).toContain('file text');
    expect(s.requests[1]!.body.systemInstruction).toEqual({ parts: [{ text: 'You are a coding agent.' }] });
  });

  it('openrouter: sends attribution headers, skips keep-alive comments and reports url citations', async () => {
    const s = await startServer({
      openrouter: true,
      script: [
        {
          reasoning: 'searching',
          text: 'Node 20 is LTS.',
          citations: [
            { url: 'https://nodejs.org/en/about/releases', title: 'Node.js releases' },
            { url: 'https://example.com/node' },
          ],
        },
      ],
    });
    const m = createOpenRouterModel({ model: 'openai/gpt-4o:online', baseUrl: s.openaiUrl, apiKey: key });
    const events = await collect(m.stream(request(ask('is node 20 lts?'))));
    expect(textOf(events)).toBe('Node 20 is LTS.');
    expect(events.filter((e) => e.type === 'citation')).toEqual([
      { type: 'citation', url: 'https://nodejs.org/en/about/releases', title: 'Node.js releases' },
      { type: 'citation', url: 'https://example.com/node' },
    ]);
    const headers = s.requests[0]!.headers;
    expect(headers['http-referer']).toBe('https://github.com/keel-agent/keel');
    expect(headers['x-title']).toBe('Keel');
  });

  it('openrouter: prints nothing of its own when it drops unsigned reasoning details it is sent back', async () => {
    const s = await startServer({ openrouter: true, script: [{ text: 'ok' }] });
    const m = createOpenRouterModel({
      model: 'anthropic/claude-sonnet-4',
      baseUrl: s.openaiUrl,
      apiKey: key,
    });
    const details = [{ type: 'reasoning.text', text: 'thinking', format: 'anthropic-claude-v1' }];
    const messages: Message[] = [
      ...ask('read a.txt'),
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          {
            id: 'c1',
            name: 'read_file',
            input: '{"path":"a.txt"}',
            providerMetadata: { openrouter: { reasoning_details: details } },
          },
        ],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'A' },
    ];
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      expect(textOf(await collect(m.stream(request(messages))))).toBe('ok');
    } finally {
      console.warn = warn;
    }
    expect(warnings).toEqual([]);
  });

  it('openai: uses chat completions, not the Responses API', async () => {
    const s = await startServer({ script: [{ text: 'ok' }] });
    await collect(
      createOpenAIModel({ model: 'gpt-4.1-mini', baseUrl: s.openaiUrl, apiKey: key }).stream(
        request(ask('hi')),
      ),
    );
    expect(s.requests[0]!.path).toBe('/v1/chat/completions');
    expect(s.requests[0]!.body.stream).toBe(true);
  });
});
