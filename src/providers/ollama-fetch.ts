// Wire fixes for Ollama that ollama-ai-provider-v2 lacks, applied as a fetch wrapper around /api/chat.
//  - Requests: tool results carry only `tool_call_id`; newer Ollama matches them to calls by `tool_name`, so fill it in.
//  - Responses: a mid-stream `{"error":...}` line fails the provider's schema and is silently dropped (with a
//    console.warn), so the answer would just stop. Raise it as an error instead; a garbled line likewise breaks the
//    stream (retried like a reset) rather than losing part of the answer unnoticed. Each line is mended to the
//    provider's schema or breaks the stream with what is wrong said (`ollamaChunk`): the provider would print its
//    schema error and drop the line.
import { BrokenStreamError } from './errors.js';
import { httpFetch } from './http-fetch.js';
import { HttpResponse } from './http-response.js';
import { lineStream } from './line-stream.js';

interface OllamaMessage {
  role: string;
  tool_call_id?: string;
  tool_name?: string;
  tool_calls?: { id?: string; function: { name: string } }[];
}

/** An `{"error":...}` line inside a 200 NDJSON stream: the server's message, classified as a provider error. */
export class OllamaStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OllamaStreamError';
  }
}

export const ollamaFetch: typeof fetch = async (input, init) => {
  const response = await httpFetch(input, withToolNames(init));
  if (!response.ok || !response.body) return response;
  // The light response, not the global Response: constructing that would load undici.
  return new HttpResponse(response.body.pipeThrough(checkLines()), response) as unknown as Response;
};

function withToolNames(init: RequestInit | undefined): RequestInit | undefined {
  if (typeof init?.body !== 'string') return init;
  let body: { messages?: OllamaMessage[] };
  try {
    body = JSON.parse(init.body) as { messages?: OllamaMessage[] };
  } catch {
    return init;
  }
  const names = new Map<string, string>();
  for (const message of body.messages ?? []) {
    for (const call of message.tool_calls ?? []) if (call.id) names.set(call.id, call.function.name);
    if (message.role === 'tool' && message.tool_call_id && !message.tool_name) {
      const name = names.get(message.tool_call_id);
      if (name) message.tool_name = name;
    }
  }
  return { ...init, body: JSON.stringify(body) };
}

/** Checks and mends the NDJSON body line by line (each complete line is passed on at once: streaming is kept). */
function checkLines(): TransformStream<Uint8Array, Uint8Array> {
  const encoder = new TextEncoder();
  let failed = false;
  const fail = (controller: TransformStreamDefaultController<Uint8Array>, error: Error) => {
    failed = true;
    controller.error(error);
  };
  return lineStream((line, controller) => {
    const trimmed = line.trim();
    if (trimmed === '' || failed) return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      fail(controller, new BrokenStreamError('unparseable data in the response stream', { cause: error }));
      return;
    }
    if (typeof value === 'object' && value !== null && 'error' in value && !('done' in value)) {
      const error = (value as { error: unknown }).error;
      const message = typeof error === 'string' ? error : JSON.stringify(error);
      fail(controller, new OllamaStreamError(message));
      return;
    }
    const chunk = ollamaChunk(value);
    if (typeof chunk === 'string') {
      // The provider would print its schema error and drop the line; say what is wrong instead.
      fail(controller, new BrokenStreamError(chunk));
      return;
    }
    controller.enqueue(encoder.encode(`${JSON.stringify(chunk)}\n`));
  });
}

const usageFields = [
  'eval_count',
  'eval_duration',
  'load_duration',
  'prompt_eval_count',
  'prompt_eval_duration',
  'total_duration',
];

/**
 * A response line as ollama-ai-provider-v2's schema takes it, or what makes it no chat chunk. Servers speaking
 * Ollama's API loosely send what its schema rejects (and the provider drops, printing the error): no metadata
 * (`model`, `created_at`), `null` for an absent field (`done_reason`, `thinking`, a call's `id`, usage counts), a
 * tool call's `arguments` as JSON text (as OpenAI's wire has it). Those are mended; a line without `done` or a
 * message, or a tool call without a name or with arguments that are no JSON object, is named.
 */
export function ollamaChunk(value: unknown): Record<string, unknown> | string {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  const message = record?.message as Record<string, unknown> | undefined;
  if (
    typeof record?.done !== 'boolean' ||
    typeof message !== 'object' ||
    message === null ||
    typeof message.content !== 'string'
  )
    return 'a response line is not an Ollama chat chunk (no done or message)';
  const calls: Record<string, unknown>[] = [];
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls as {
      id?: unknown;
      function?: { name?: unknown; arguments?: unknown };
    }[]) {
      const name = call?.function?.name;
      if (typeof name !== 'string' || name === '') return 'a tool call in the response has no function name';
      let args = call.function?.arguments ?? {};
      if (typeof args === 'string') {
        try {
          args = args.trim() === '' ? {} : JSON.parse(args);
        } catch {
          return `the arguments of the tool call ${name} are not JSON`;
        }
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return `the arguments of the tool call ${name} are not a JSON object`;
      calls.push({
        ...(typeof call.id === 'string' ? { id: call.id } : {}),
        function: { name, arguments: args },
      });
    }
  }
  const chunk: Record<string, unknown> = {
    ...record,
    model: typeof record.model === 'string' ? record.model : '',
    created_at: typeof record.created_at === 'string' ? record.created_at : new Date().toISOString(),
    message: {
      ...message,
      role: typeof message.role === 'string' ? message.role : 'assistant',
      ...(typeof message.thinking === 'string' ? {} : { thinking: undefined }),
      tool_calls: calls.length > 0 ? calls : undefined,
    },
  };
  if (typeof chunk.done_reason !== 'string')
    // Older servers end without one: a finish is still told apart from a stream that just ended.
    chunk.done_reason = record.done === true ? 'stop' : undefined;
  for (const field of usageFields) if (typeof chunk[field] !== 'number') chunk[field] = undefined;
  return chunk;
}
