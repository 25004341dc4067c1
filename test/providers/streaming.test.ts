// Text is passed on as it arrives: a server that holds back the rest of its answer still gets the first words shown.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Model } from '../../src/core/model.js';
import { createOllamaModel } from '../../src/providers/ollama.js';
import { createOpenAICompatibleModel } from '../../src/providers/openai-compatible.js';
import { ask, request } from './helpers.js';

const ollamaLine = (content: string, done: boolean) =>
  `${JSON.stringify({ model: 'm', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content }, done, ...(done ? { done_reason: 'stop', prompt_eval_count: 1, eval_count: 1 } : {}) })}\n`;
const sse = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const cases = [
  {
    name: 'ollama',
    first: ollamaLine('Hello', false),
    rest: ollamaLine(' world', false) + ollamaLine('', true),
    model: (url: string): Model => createOllamaModel({ model: 'm', baseUrl: url }),
  },
  {
    name: 'openai-compatible',
    first: sse({ role: 'assistant', content: 'Hello' }),
    rest: `${sse({ content: ' world' })}${sse({}, 'stop')}data: [DONE]\n\n`,
    model: (url: string): Model => createOpenAICompatibleModel({ model: 'm', baseUrl: `${url}/v1` }),
  },
  {
    // A server that gives its event stream no content type.
    name: 'openai-compatible without a content type',
    first: sse({ role: 'assistant', content: 'Hello' }),
    rest: `${sse({ content: ' world' })}${sse({}, 'stop')}data: [DONE]\n\n`,
    model: (url: string): Model => createOpenAICompatibleModel({ model: 'm', baseUrl: `${url}/v1` }),
    contentType: undefined,
  },
];

let close: (() => void) | undefined;
afterEach(() => close?.());

describe.each(cases)('$name streaming', (c) => {
  it('yields the first text before the server has sent the rest', async () => {
    let pending: ServerResponse | undefined;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const type =
          'contentType' in c
            ? c.contentType
            : c.name === 'ollama'
              ? 'application/x-ndjson'
              : 'text/event-stream';
        res.writeHead(200, type ? { 'content-type': type } : {});
        res.write(c.first);
        pending = res; // the rest is sent only once the client has shown the first words
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => {
      server.closeAllConnections();
      server.close();
    };
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const iterator = c
      .model(url)
      .stream(request(ask('hi')))
      [Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toEqual({ type: 'text', delta: 'Hello' });
    pending?.end(c.rest);
    const rest: unknown[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    expect(rest).toContainEqual({ type: 'text', delta: ' world' });
  });
});
