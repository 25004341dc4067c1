// The text-protocol Model wrapper over an in-memory model: what it sends (no tools, the conversation as text) and
// what it yields (text without the calls, tool calls with ids of their own, retries honoured).
import { describe, expect, it } from 'vitest';
import type { Model, ModelEvent, ModelRequest } from '../../src/core/model.js';
import { textToolModel } from '../../src/providers/text-tools.js';
import { toTextMessages } from '../../src/providers/text-tools-messages.js';
import { ask, collect, readFileTool, request } from './helpers.js';

/** A model answering each request with the next list of events, keeping the requests it got. */
function scripted(...replies: ModelEvent[][]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    provider: 'test',
    modelId: 'm',
    requests,
    async *stream(req) {
      requests.push(req);
      yield* replies.shift() ?? [];
    },
  };
}

const text = (delta: string): ModelEvent => ({ type: 'text', delta });
const stop: ModelEvent = { type: 'finish', reason: 'stop' };

describe('textToolModel', () => {
  it('sends no native tools and yields the parsed calls with finish tool-calls', async () => {
    const inner = scripted([
      text('Reading.\n<tool_call>{"name": "read_file", '),
      text('"arguments": {"path": "a"}}</tool_call>'),
      stop,
    ]);
    const events = await collect(textToolModel(inner).stream(request(ask('read a'))));
    expect(inner.requests[0]!.tools).toEqual([]);
    expect(inner.requests[0]!.messages[0]!.content).toContain('- read_file: Read a file in the workspace');
    expect(events).toEqual([
      text('Reading.\n'),
      { type: 'tool-call', call: { id: expect.any(String), name: 'read_file', input: '{"path":"a"}' } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('gives each call its own id', async () => {
    const two =
      '{"name": "read_file", "arguments": {"path": "a"}}\n{"name": "read_file", "arguments": {"path": "b"}}';
    const inner = scripted([text(two), stop], [text(two), stop]);
    const model = textToolModel(inner);
    const events = [
      ...(await collect(model.stream(request(ask('x'))))),
      ...(await collect(model.stream(request(ask('x'))))),
    ];
    const ids = events.flatMap((e) => (e.type === 'tool-call' ? [e.call.id] : []));
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^text_call_[0-9a-f-]{36}$/);
  });

  it('drops calls held back by an attempt that is retried', async () => {
    const retry: ModelEvent = { type: 'retry', attempt: 1, max: 3, delayMs: 0, reason: 'reset' };
    const inner = scripted([
      text('<tool_call>{"name": "read_file", "arguments": {}}'),
      retry,
      text('plain'),
      stop,
    ]);
    const events = await collect(textToolModel(inner).stream(request(ask('x'))));
    expect(events).toEqual([retry, text('plain'), stop]);
  });

  it('passes a request without tools through unchanged', async () => {
    const inner = scripted([text('hi'), stop]);
    const req = request(ask('x'), []);
    expect(await collect(textToolModel(inner).stream(req))).toEqual([text('hi'), stop]);
    expect(inner.requests[0]!.messages).toEqual(req.messages);
  });
});

describe('toTextMessages', () => {
  it('joins the results of one turn and a following note into one user message, in order', () => {
    const out = toTextMessages(
      [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: 'two reads',
          toolCalls: [
            { id: 'a', name: 'read_file', input: '{"path":"x"}' },
            { id: 'b', name: 'read_file', input: 'not json' },
          ],
        },
        { role: 'tool', toolCallId: 'a', toolName: 'read_file', content: 'X' },
        { role: 'tool', toolCallId: 'b', toolName: 'read_file', content: 'bad', isError: true },
        { role: 'user', content: 'note' },
      ],
      [readFileTool],
    );
    // No system message in the conversation: the tools section becomes one.
    expect(out.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(out[2]!.content).toBe(
      'two reads\n\n<tool_call>\n{"name":"read_file","arguments":{"path":"x"}}\n</tool_call>\n\n' +
        '<tool_call>\n{"name":"read_file","arguments":"not json"}\n</tool_call>',
    );
    expect(out[3]!.content).toBe(
      '<tool_result name="read_file">\nX\n</tool_result>\n\n' +
        '<tool_result name="read_file" error="true">\nbad\n</tool_result>\n\nnote',
    );
  });
});
