// Both real providers against the scripted model server over loopback HTTP: streaming, tool calls, usage, errors.
import { describe, expect, it } from 'vitest';
import { isAbortError, KeelError } from '../../src/core/errors.js';
import type { Message } from '../../src/core/messages.js';
import type { Model } from '../../src/core/model.js';
import { createOllamaModel } from '../../src/providers/ollama.js';
import { createOpenAICompatibleModel } from '../../src/providers/openai-compatible.js';
import { useModelServers } from '../support/cleanup.js';
import type { ModelServer } from '../support/model-server.js';
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

interface ProviderCase {
  name: string;
  model(server: ModelServer, apiKey?: string): Model;
  url(server: ModelServer): string;
}

const providers: ProviderCase[] = [
  {
    name: 'ollama',
    model: (server) => createOllamaModel({ model: 'qwen3', baseUrl: server.ollamaUrl }),
    url: (server) => server.ollamaUrl,
  },
  {
    name: 'openai-compatible',
    model: (server, apiKey) =>
      createOpenAICompatibleModel({ model: 'gpt-4o-mini', baseUrl: server.openaiUrl, apiKey }),
    url: (server) => server.openaiUrl,
  },
];

const start = useModelServers();

describe.each(providers)('$name provider', (provider) => {
  it('streams text in several pieces and reports usage and finish', async () => {
    const s = await start({ script: [greeting] });
    const events = await collect(provider.model(s).stream(request(ask('hi'))));
    const texts = events.filter((event) => event.type === 'text');
    expect(texts.length).toBeGreaterThan(1);
    expect(textOf(events)).toBe('Hello there, I can help.');
    expect(events).toContainEqual({ type: 'usage', usage: { inputTokens: 42, outputTokens: 7 } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('reports reasoning separately from text', async () => {
    const s = await start({ script: [{ reasoning: 'think about it', text: 'answer' }] });
    const events = await collect(provider.model(s).stream(request(ask('hi'))));
    const reasoning = reasoningOf(events);
    expect(reasoning).toBe('think about it');
    expect(textOf(events)).toBe('answer');
  });

  it('assembles two parallel tool calls with split arguments', async () => {
    const s = await start({
      script: [twoCalls],
    });
    const events = await collect(provider.model(s).stream(request(ask('go'), [readFileTool, writeFileTool])));
    const calls = events.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ id: 'call_a', name: 'read_file' });
    expect(JSON.parse(calls[0]!.input)).toEqual({ path: 'src/a.ts' });
    expect(calls[1]).toMatchObject({ id: 'call_b', name: 'write_file' });
    expect(JSON.parse(calls[1]!.input)).toEqual({ path: 'b.txt', content: 'x y z' });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
  });

  it('gives every tool call an id even when the server sends none', async () => {
    const s = await start({ script: [{ toolCalls: [{ name: 'read_file', args: { path: 'a' } }] }] });
    const events = await collect(provider.model(s).stream(request(ask('go'))));
    const call = events.find((event) => event.type === 'tool-call');
    expect(call?.type === 'tool-call' && call.call.id.length).toBeGreaterThan(0);
  });

  it('round-trips a multi-turn conversation with tool results', async () => {
    const s = await start({
      script: [
        { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' }, id: 'call_1' }] },
        { text: 'It says hello.' },
      ],
    });
    const model = provider.model(s);
    const messages: Message[] = ask('what is in a.txt?');
    const first = await collect(model.stream(request(messages)));
    const call = first.find((event) => event.type === 'tool-call');
    if (call?.type !== 'tool-call') throw new Error('expected a tool call');
    messages.push({ role: 'assistant', content: '', toolCalls: [call.call] });
    messages.push({ role: 'tool', toolCallId: call.call.id, toolName: 'read_file', content: 'hello' });
    const second = await collect(model.stream(request(messages)));
    expect(textOf(second)).toBe('It says hello.');
    const sent = s.requests[1]!.body.messages as Array<Record<string, unknown>>;
    expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(sent[3]).toMatchObject({ role: 'tool', content: 'hello', tool_call_id: 'call_1' });
  });

  it('names the URL when nothing listens there', async () => {
    const port = await freePort();
    const base = provider.name === 'ollama' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
    const model =
      provider.name === 'ollama'
        ? createOllamaModel({ model: 'qwen3', baseUrl: base })
        : createOpenAICompatibleModel({ model: 'gpt-4o-mini', baseUrl: base });
    const error = await failure(model, request(ask('hi')));
    expect(error).toBeInstanceOf(KeelError);
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toContain(base);
    expect(error.message).toContain('connection refused');
    expect(error.hint).toBeTruthy();
  });

  it('reports rejected credentials (HTTP 401) without echoing the key', async () => {
    const s = await start({
      script: [
        { status: 401, errorBody: { error: { message: 'Incorrect API key provided: sk-secret-123' } } },
      ],
    });
    const error = await failure(provider.model(s, 'sk-secret-123'), request(ask('hi')));
    expect(error.code).toBe('credentials_rejected');
    expect(error.message).toBe(`credentials rejected by ${provider.name} (HTTP 401)`);
    expect(`${error.message} ${error.hint}`).not.toContain('sk-secret-123');
  });

  it('reports a model without tool support', async () => {
    const errorBody =
      provider.name === 'ollama'
        ? { error: 'registry.ollama.ai/library/gemma:latest does not support tools' }
        : { error: { message: 'gemma does not support tools', type: 'api_error' } };
    const s = await start({ script: [{ status: 400, errorBody }] });
    const error = await failure(provider.model(s), request(ask('hi')));
    expect(error.code).toBe('model_without_tools');
    expect(error.message).toMatch(/^model ".+" does not support tools$/);
    expect(error.hint).toContain('--model');
  });

  it('reports an unknown model', async () => {
    const s = await start({
      script: [{ status: 404, errorBody: { error: 'model "nope" not found, try pulling it first' } }],
    });
    const error = await failure(provider.model(s), request(ask('hi')));
    expect(error.code).toBe('model_not_found');
    expect(error.hint).toContain('--model');
  });

  it('turns other HTTP errors into a ProviderError carrying the server message', async () => {
    const s = await start({ script: [{ status: 500, errorBody: { error: 'out of memory loading model' } }] });
    const error = await failure(provider.model(s), request(ask('hi')));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('out of memory loading model');
  });

  it('turns an error inside the stream into a ProviderError after the text so far', async () => {
    const s = await start({ script: [{ text: 'partial answer', midStreamError: 'the GPU fell over' }] });
    const seen: string[] = [];
    let caught: (Error & { code?: string }) | undefined;
    try {
      for await (const event of provider.model(s).stream(request(ask('hi')))) {
        if (event.type === 'text') seen.push(event.delta);
      }
    } catch (error) {
      caught = error as Error & { code?: string };
    }
    expect(seen.join('')).toBe('partial answer');
    expect(caught?.code).toBe('provider_error');
    expect(caught?.message).toContain('the GPU fell over');
  });

  it('fails clearly when the script is exhausted', async () => {
    const s = await start({ script: [] });
    const error = await failure(provider.model(s), request(ask('hi')));
    expect(error.message).toContain('script exhausted after 0 replies');
  });

  it('stops with an AbortError when the signal fires while the server holds the request unanswered', async () => {
    const controller = new AbortController();
    // The signal fires once the request has arrived; the server never answers, so only the abort ends the call.
    const holdAndAbort = () => {
      controller.abort();
      return { hang: true };
    };
    const s = await start({ script: [holdAndAbort] });
    const error = await failure(provider.model(s), request(ask('hi'), [readFileTool], controller.signal));
    expect(isAbortError(error)).toBe(true);
    expect(s.requests).toHaveLength(1);
  });

  it('stops with an AbortError when aborted mid-stream', async () => {
    const s = await start({ script: [{ text: 'one two three four five six seven eight' }] });
    const controller = new AbortController();
    let caught: unknown;
    try {
      for await (const event of provider
        .model(s)
        .stream(request(ask('hi'), [readFileTool], controller.signal))) {
        if (event.type === 'text') controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(isAbortError(caught)).toBe(true);
  });
});
