// What each provider puts on the wire: message and tool shapes, Ollama's num_ctx and base URL forms, OpenAI usage opt-in.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { createOllamaModel, normalizeOllamaHost, ollamaContextSize } from '../../src/providers/ollama.js';
import { createOpenAICompatibleModel } from '../../src/providers/openai-compatible.js';
import { useModelServers } from '../support/cleanup.js';
import { ask, collect, readFileTool, request, textOf } from './helpers.js';

const start = useModelServers();

/** read_file as both wires declare a function tool. */
const readFileFunction = {
  type: 'function',
  function: {
    name: 'read_file',
    description: readFileTool.description,
    parameters: readFileTool.inputSchema,
  },
};

/** A conversation that has already made one tool call (with a failed result) and asks again. */
const afterToolCall = (): Message[] => [
  ...ask('read a.txt'),
  {
    role: 'assistant',
    content: 'Reading it.',
    toolCalls: [{ id: 'call_9', name: 'read_file', input: '{"path":"a.txt"}' }],
  },
  {
    role: 'tool',
    toolCallId: 'call_9',
    toolName: 'read_file',
    content: 'file not found: a.txt',
    isError: true,
  },
];

describe('ollama wire format', () => {
  it('sends messages, tools, tool results and a power-of-two num_ctx to /api/chat', async () => {
    const server = await start([{ text: 'ok' }]);
    await collect(
      createOllamaModel({ model: 'qwen3', baseUrl: server.ollamaUrl }).stream(request(afterToolCall())),
    );
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/api/chat');
    expect(sent.body.model).toBe('qwen3');
    expect(sent.body.stream).toBe(true);
    expect(sent.body.options.num_ctx).toBe(8192);
    expect(sent.body.tools).toEqual([readFileFunction]);
    const [, , assistant, tool] = sent.body.messages;
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: 'Reading it.',
      tool_calls: [{ id: 'call_9', function: { name: 'read_file', arguments: { path: 'a.txt' } } }],
    });
    expect(tool).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_9',
      tool_name: 'read_file',
      content: 'file not found: a.txt',
    });
  });

  it('sends {} for tool-call arguments that were not valid JSON', async () => {
    const server = await start([{ text: 'ok' }]);
    const messages: Message[] = [
      ...ask('go'),
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', input: '{"path": ' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'invalid arguments', isError: true },
    ];
    await collect(createOllamaModel({ model: 'qwen3', baseUrl: server.ollamaUrl }).stream(request(messages)));
    expect(server.requests[0]!.body.messages[2].tool_calls[0].function.arguments).toEqual({});
  });

  it.each([
    (port: string) => `127.0.0.1:${port}`,
    (port: string) => `http://127.0.0.1:${port}/`,
    (port: string) => `http://127.0.0.1:${port}/api`,
  ])('accepts the base URL form %#', async (form) => {
    const server = await start([{ text: 'reached' }]);
    const port = new URL(server.url).port;
    const events = await collect(
      createOllamaModel({ model: 'qwen3', baseUrl: form(port) }).stream(request(ask('hi'))),
    );
    expect(textOf(events)).toBe('reached');
    expect(server.requests[0]!.path).toBe('/api/chat');
  });

  it('normalises OLLAMA_HOST-style values', () => {
    expect(normalizeOllamaHost('localhost:11434')).toBe('http://localhost:11434');
    expect(normalizeOllamaHost('gpu-box')).toBe('http://gpu-box:11434');
    expect(normalizeOllamaHost('http://gpu-box:8080/')).toBe('http://gpu-box:8080');
    expect(normalizeOllamaHost('https://ollama.example.com')).toBe('https://ollama.example.com:443');
    expect(normalizeOllamaHost(':9999')).toBe('http://127.0.0.1:9999');
    expect(normalizeOllamaHost('http://[::1]:11434/api/')).toBe('http://[::1]:11434');
  });

  it('sizes num_ctx from the prompt, rounded up to a power of two, at least 8192', () => {
    expect(ollamaContextSize({ messages: ask('hi'), tools: [] })).toBe(8192);
    const long: Message[] = [{ role: 'user', content: 'x'.repeat(100_000) }]; // ~25k tokens + output room
    expect(ollamaContextSize({ messages: long, tools: [] })).toBe(32768);
    // Small growth keeps the same size, so Ollama does not reload the model every turn.
    const longer: Message[] = [...long, { role: 'assistant', content: 'y'.repeat(2_000) }];
    expect(ollamaContextSize({ messages: longer, tools: [readFileTool] })).toBe(32768);
  });
});

describe('openai-compatible wire format', () => {
  it('sends messages, tools, tool results and asks for usage in the stream', async () => {
    const server = await start([{ text: 'ok' }]);
    const model = createOpenAICompatibleModel({
      model: 'gpt-4o-mini',
      baseUrl: `${server.openaiUrl}/`,
      apiKey: 'sk-k',
    });
    await collect(model.stream(request(afterToolCall())));
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-k');
    expect(sent.body.stream).toBe(true);
    expect(sent.body.stream_options).toEqual({ include_usage: true });
    expect(sent.body.tools[0]).toEqual(readFileFunction);
    const [, , assistant, tool] = sent.body.messages;
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: 'Reading it.',
      tool_calls: [
        { id: 'call_9', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
      ],
    });
    expect(tool).toEqual({ role: 'tool', tool_call_id: 'call_9', content: 'file not found: a.txt' });
  });

  it('takes tool-call arguments a server sends as a JSON object, as some local servers do', async () => {
    const server = await start([
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' }, objectArgs: true }] },
    ]);
    const model = createOpenAICompatibleModel({ model: 'local', baseUrl: server.openaiUrl });
    const events = await collect(model.stream(request(ask('read a.txt'))));
    expect(events.filter((e) => e.type === 'retry')).toEqual([]);
    const calls = events.flatMap((e) => (e.type === 'tool-call' ? [e.call] : []));
    expect(calls).toMatchObject([{ name: 'read_file', input: '{"path":"a.txt"}' }]);
  });

  it('sends no Authorization header without an API key and no tools when none are offered', async () => {
    const server = await start([{ text: 'ok' }]);
    const model = createOpenAICompatibleModel({ model: 'local', baseUrl: server.openaiUrl });
    await collect(model.stream(request(ask('hi'), [])));
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.body.tools).toBeUndefined();
  });
});
