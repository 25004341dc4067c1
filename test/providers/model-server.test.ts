// The scripted model server itself: the side routes, non-streaming replies, and close() ending hung streams.
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../support/model-server.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
// biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary wire fields.
type Body = any;
const json = async (response: Response | Promise<Response>): Promise<Body> => (await response).json();

describe('scripted model server', () => {
  it('serves Ollama tags, show (with overridable capabilities) and version, and OpenAI models', async () => {
    server = await startModelServer({ script: [], capabilities: ['completion'] });
    const tags = await json(fetch(`${server.ollamaUrl}/api/tags`));
    expect(tags.models[0].name).toBe('qwen3:latest');
    const show = await json(post(`${server.ollamaUrl}/api/show`, { model: 'qwen3' }));
    expect(show.capabilities).toEqual(['completion']);
    expect(show.model_info['qwen3.context_length']).toBeGreaterThan(0);
    expect((await json(fetch(`${server.ollamaUrl}/api/version`))).version).toBeTruthy();
    expect((await json(fetch(`${server.openaiUrl}/models`))).data[0].id).toBeTruthy();
    expect(server.requests).toHaveLength(0);
  });

  it('answers stream:false with one JSON body in each wire format', async () => {
    const reply = {
      text: 'whole',
      toolCalls: [{ name: 'read_file', args: { path: 'a' } }],
      usage: { input: 3, output: 2 },
    };
    server = await startModelServer({ script: [reply, reply] });
    const ollama = await json(
      post(`${server.ollamaUrl}/api/chat`, { model: 'q', messages: [], stream: false }),
    );
    expect(ollama).toMatchObject({
      done: true,
      message: {
        content: 'whole',
        tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a' } } }],
      },
      prompt_eval_count: 3,
      eval_count: 2,
    });
    const openai = await json(
      post(`${server.openaiUrl}/chat/completions`, { model: 'g', messages: [], stream: false }),
    );
    expect(openai.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: 'whole',
        tool_calls: [{ function: { name: 'read_file', arguments: '{"path":"a"}' } }],
      },
    });
    expect(openai.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
  });

  it('lets a script step look at the request it answers', async () => {
    server = await startModelServer({
      script: [(req) => ({ text: `you sent ${req.body.messages.length}` })],
    });
    const res = await post(`${server.ollamaUrl}/api/chat`, {
      model: 'q',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
      stream: false,
    });
    expect((await json(res)).message.content).toBe('you sent 2');
  });

  it('closes even while a reply hangs', async () => {
    const s = await startModelServer({ script: [{ hang: true }] });
    const pending = post(`${s.openaiUrl}/chat/completions`, { model: 'g', messages: [] }).catch(
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await s.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('scripted model server refuses what the real server would (HTTP 400, the provider error shape)', () => {
  const call = (id: string) => ({ id, type: 'function', function: { name: 'read_file', arguments: '{}' } });
  /** A history the server answers, and histories it refuses with why. */
  type Rules = { good: unknown[]; bad: [string, unknown[]][] };
  const chat: Rules = {
    good: [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: 'x' },
      { role: 'tool', tool_call_id: 'b', content: 'y' },
      { role: 'user', content: '[Keel: note]' },
    ],
    bad: [
      [
        'a system message after the conversation started',
        [
          { role: 'user', content: 'u' },
          { role: 'system', content: 's' },
        ],
      ],
      [
        'a tool result without its call',
        [
          { role: 'user', content: 'u' },
          { role: 'tool', tool_call_id: 'a', content: 'x' },
        ],
      ],
      [
        'a call left unanswered',
        [
          { role: 'user', content: 'u' },
          { role: 'assistant', content: '', tool_calls: [call('a'), call('b')] },
          { role: 'tool', tool_call_id: 'a', content: 'x' },
          { role: 'user', content: 'u' },
        ],
      ],
    ],
  };
  const use = (id: string) => ({ type: 'tool_use', id, name: 'read_file', input: {} });
  const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'x' });
  const anthropic: Rules = {
    good: [
      { role: 'user', content: 'u' },
      { role: 'assistant', content: [{ type: 'text', text: 't' }, use('a')] },
      { role: 'user', content: [result('a'), { type: 'text', text: 'more' }] },
    ],
    bad: [
      [
        'a system message',
        [
          { role: 'system', content: 's' },
          { role: 'user', content: 'u' },
        ],
      ],
      [
        'an assistant first',
        [
          { role: 'assistant', content: 'a' },
          { role: 'user', content: 'u' },
        ],
      ],
      [
        'two assistants in a row',
        [
          { role: 'user', content: 'u' },
          { role: 'assistant', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      ],
      [
        'a tool_use unanswered',
        [
          { role: 'user', content: 'u' },
          { role: 'assistant', content: [use('a')] },
          { role: 'user', content: 'u' },
        ],
      ],
      ['a tool_result without its tool_use', [{ role: 'user', content: [result('a')] }]],
    ],
  };
  const fc = { functionCall: { name: 'read_file', args: {} } };
  const fr = { functionResponse: { name: 'read_file', response: {} } };
  const gemini: Rules = {
    good: [
      { role: 'user', parts: [{ text: 'u' }] },
      { role: 'user', parts: [{ text: '[Keel: note]' }] },
      { role: 'model', parts: [fc, fc] },
      { role: 'user', parts: [fr, fr] },
      { role: 'model', parts: [{ text: 'done' }] },
    ],
    bad: [
      [
        'a system role',
        [
          { role: 'system', parts: [{ text: 's' }] },
          { role: 'user', parts: [{ text: 'u' }] },
        ],
      ],
      [
        'an assistant role',
        [
          { role: 'user', parts: [{ text: 'u' }] },
          { role: 'assistant', parts: [{ text: 'a' }] },
        ],
      ],
      [
        'a call answered by text',
        [
          { role: 'user', parts: [{ text: 'u' }] },
          { role: 'model', parts: [fc] },
          { role: 'user', parts: [{ text: 'u' }] },
        ],
      ],
      [
        'a response without a call',
        [
          { role: 'user', parts: [{ text: 'u' }] },
          { role: 'user', parts: [fr] },
        ],
      ],
    ],
  };
  const cases = [
    {
      wire: 'ollama',
      path: (s: ModelServer) => `${s.ollamaUrl}/api/chat`,
      key: 'messages',
      rules: chat,
      error: (b: Body) => b.error,
    },
    {
      wire: 'openai',
      path: (s: ModelServer) => `${s.openaiUrl}/chat/completions`,
      key: 'messages',
      rules: chat,
      error: (b: Body) => b.error.type === 'invalid_request_error' && b.error.message,
    },
    {
      wire: 'anthropic',
      path: (s: ModelServer) => `${s.anthropicUrl}/messages`,
      key: 'messages',
      rules: anthropic,
      error: (b: Body) => b.type === 'error' && b.error.type === 'invalid_request_error' && b.error.message,
    },
    {
      wire: 'gemini',
      path: (s: ModelServer) => `${s.geminiUrl}/models/g:generateContent`,
      key: 'contents',
      rules: gemini,
      error: (b: Body) => b.error.status === 'INVALID_ARGUMENT' && b.error.message,
    },
  ];

  describe.each(cases)('$wire', ({ path, key, rules, error }) => {
    it('answers a well-formed history', async () => {
      server = await startModelServer({ script: [{ text: 'fine' }] });
      const res = await post(path(server), { model: 'm', [key]: rules.good, stream: false });
      expect(res.status).toBe(200);
      expect(server.rejections).toEqual([]);
    });

    it.each(rules.bad)('refuses %s without using up a scripted reply', async (_name, history) => {
      server = await startModelServer({ script: [{ text: 'fine' }] });
      const res = await post(path(server), { model: 'm', [key]: history, stream: false });
      expect(res.status).toBe(400);
      const message = error(await res.json());
      expect(typeof message === 'string' && message.length > 0, `error body shape: ${message}`).toBe(true);
      expect(server.rejections).toEqual([message]);
      expect((await post(path(server), { model: 'm', [key]: rules.good, stream: false })).status).toBe(200);
    });
  });
});
