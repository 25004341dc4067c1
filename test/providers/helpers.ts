// Shared helpers for provider tests: build requests, drain a model's stream, capture thrown errors.
import { createServer } from 'node:net';
import type { Message } from '../../src/core/messages.js';
import type { Model, ModelEvent, ModelRequest, ToolSpec } from '../../src/core/model.js';
import type { ScriptedReply } from '../support/model-server.js';

export const readFileTool: ToolSpec = {
  name: 'read_file',
  description: 'Read a file in the workspace',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};
export const writeFileTool: ToolSpec = {
  name: 'write_file',
  description: 'Write a file in the workspace',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  },
};

export function request(
  messages: Message[],
  tools: ToolSpec[] = [readFileTool],
  signal?: AbortSignal,
): ModelRequest {
  return { messages, tools, signal: signal ?? new AbortController().signal };
}

export const ask = (text: string): Message[] => [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: text },
];

export async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** Runs the stream to the end and returns what it threw (fails the test if it threw nothing). */
export async function failure(
  model: Model,
  req: ModelRequest,
): Promise<Error & { code?: string; hint?: string }> {
  try {
    await collect(model.stream(req));
  } catch (error) {
    return error as Error & { code?: string; hint?: string };
  }
  throw new Error('expected the model call to fail, but it succeeded');
}

export const textOf = (events: ModelEvent[]) =>
  events.flatMap((event) => (event.type === 'text' ? [event.delta] : [])).join('');

export const reasoningOf = (events: ModelEvent[]) =>
  events.flatMap((event) => (event.type === 'reasoning' ? [event.delta] : [])).join('');

/** A reply the servers stream in several pieces, with usage. */
export const greeting: ScriptedReply = { text: 'Hello there, I can help.', usage: { input: 42, output: 7 } };

/** A reply with two parallel calls (read_file src/a.ts, write_file b.txt), ids call_a and call_b. */
export const twoCalls: ScriptedReply = {
  toolCalls: [
    { name: 'read_file', args: { path: 'src/a.ts' }, id: 'call_a' },
    { name: 'write_file', args: { path: 'b.txt', content: 'x y z' }, id: 'call_b' },
  ],
};

/** A port nothing listens on: bind one, then free it. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
