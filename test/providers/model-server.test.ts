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
const json = async (response: Response | Promise<Response>): Promise<any> => (await response).json();

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
    const res = await post(`${server.ollamaUrl}/api/chat`, { model: 'q', messages: [{}, {}], stream: false });
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
