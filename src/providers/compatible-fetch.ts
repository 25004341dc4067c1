// Wire fixes for OpenAI-compatible servers that @ai-sdk/openai-compatible's schema rejects, applied as a fetch
// wrapper: some servers (llama.cpp forks, LocalAI, vLLM tool parsers) send a tool call's `arguments` as a JSON object
// rather than JSON text, or a `role` other than "assistant". The provider fails the whole chunk on its schema, so the
// tool call is lost and the stream retried as garbled. Each event's JSON is mended before the provider sees it.
import { httpFetch } from './http-fetch.js';
import { HttpResponse } from './http-response.js';
import { lineStream } from './line-stream.js';

export const compatibleFetch: typeof fetch = async (input, init) => {
  const response = await httpFetch(input, init);
  if (!response.ok || !response.body) return response;
  // A streamed request's answer is an event stream, whatever content type a server gives it (some give none).
  const asked = typeof init?.body === 'string' && /"stream"\s*:\s*true/.test(init.body);
  const stream = asked || response.headers.get('content-type')?.includes('text/event-stream') === true;
  // The light response, not the global Response: constructing that would load undici.
  return new HttpResponse(
    response.body.pipeThrough(stream ? mendEvents() : mendWhole()),
    response,
  ) as unknown as Response;
};

/** Mends each `data:` line's JSON of the event stream as it arrives (streaming is kept). */
function mendEvents(): TransformStream<Uint8Array, Uint8Array> {
  const encoder = new TextEncoder();
  const mendLine = (line: string) => {
    // Only lines that may need it are parsed: text deltas pass as they came.
    if (!line.startsWith('data:') || !(line.includes('"tool_calls"') || line.includes('"role"'))) return line;
    try {
      const value: unknown = JSON.parse(line.slice(5));
      return mendCompatible(value) ? `data: ${JSON.stringify(value)}` : line;
    } catch {
      return line; // not JSON: the provider names it
    }
  };
  return lineStream((line, controller) => controller.enqueue(encoder.encode(`${mendLine(line)}\n`)));
}

/** A whole (not streamed) JSON response, mended once it has all arrived. */
function mendWhole(): TransformStream<Uint8Array, Uint8Array> {
  const parts: Uint8Array[] = [];
  return new TransformStream({
    transform(chunk) {
      parts.push(chunk);
    },
    flush(controller) {
      const bytes = Buffer.concat(parts);
      try {
        const value: unknown = JSON.parse(bytes.toString('utf8'));
        if (mendCompatible(value)) {
          controller.enqueue(new TextEncoder().encode(JSON.stringify(value)));
          return;
        }
      } catch {
        // not JSON: passed on as it came, for the provider to name
      }
      controller.enqueue(bytes);
    },
  });
}

/**
 * Mends one Chat Completions response or stream chunk in place to what the provider's schema takes; true when it
 * changed anything. A tool call's `arguments` sent as a JSON value becomes its JSON text; a `role` other than
 * "assistant" is dropped (the reply is the assistant's whatever a server calls it).
 */
export function mendCompatible(value: unknown): boolean {
  const choices = (value as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) return false;
  let changed = false;
  for (const choice of choices as { delta?: unknown; message?: unknown }[]) {
    for (const part of [choice?.delta, choice?.message]) {
      if (typeof part !== 'object' || part === null) continue;
      const message = part as { role?: unknown; tool_calls?: unknown };
      if (message.role != null && message.role !== 'assistant' && message.role !== '') {
        delete message.role;
        changed = true;
      }
      if (!Array.isArray(message.tool_calls)) continue;
      for (const call of message.tool_calls as { function?: { arguments?: unknown } }[]) {
        const args = call?.function?.arguments;
        if (typeof args === 'object' && args !== null) {
          call.function = { ...call.function, arguments: JSON.stringify(args) };
          changed = true;
        }
      }
    }
  }
  return changed;
}
