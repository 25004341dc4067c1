// Wire fixes for Ollama that ollama-ai-provider-v2 lacks, applied as a fetch wrapper around /api/chat.
//  - Requests: tool results carry only `tool_call_id`; newer Ollama matches them to calls by `tool_name`, so fill it in.
//  - Responses: a mid-stream `{"error":...}` line fails the provider's schema and is silently dropped (with a
//    console.warn), so the answer would just stop. Raise it as an error instead; a garbled line likewise breaks the
//    stream (retried like a reset) rather than losing part of the answer unnoticed. A final `done` line without a
//    `done_reason` (older servers) gets `stop`, so a finish is told apart from a stream that just ended. A line
//    without `done` or `message` breaks the stream with that said (the provider would print its schema error);
//    missing metadata (`model`, `created_at`) is filled in.
import { BrokenStreamError } from './errors.js';
import { httpFetch } from './http-fetch.js';
import { HttpResponse } from './http-response.js';

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

/** Re-frames the NDJSON body line by line (each complete line is passed on at once: streaming is kept). */
function checkLines(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  let failed = false;
  const fail = (controller: TransformStreamDefaultController<Uint8Array>, error: Error) => {
    failed = true;
    controller.error(error);
  };
  const emit = (line: string, controller: TransformStreamDefaultController<Uint8Array>) => {
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
    const record = value as Record<string, unknown> | null;
    const message = record?.message as { content?: unknown } | undefined;
    if (
      typeof record?.done !== 'boolean' ||
      typeof message !== 'object' ||
      typeof message?.content !== 'string'
    ) {
      // The provider would print its schema error and drop the line; say what is wrong instead.
      fail(
        controller,
        new BrokenStreamError('a response line is not an Ollama chat chunk (no done or message)'),
      );
      return;
    }
    // Servers speaking Ollama's API without its metadata (model, created_at) still stream well-formed answers.
    const filled = {
      ...record,
      model: typeof record.model === 'string' ? record.model : '',
      created_at: typeof record.created_at === 'string' ? record.created_at : new Date().toISOString(),
      message: { role: 'assistant', ...message },
      ...(record.done === true && record.done_reason === undefined ? { done_reason: 'stop' } : {}),
    };
    controller.enqueue(encoder.encode(`${JSON.stringify(filled)}\n`));
  };
  return new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) emit(line, controller);
    },
    flush(controller) {
      emit(buffer + decoder.decode(), controller);
    },
  });
}
