// The Gemini wire format for the scripted model server: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`
// (each `data:` a GenerateContentResponse holding only the new parts) and `:generateContent`.
import type { ServerResponse } from 'node:http';
import { setImmediate as nextTick } from 'node:timers/promises';
import { defaultUsage, fault, pieces, type ScriptedReply, type Wire } from './model-server.js';

const route = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

export const geminiWire: Wire = {
  matches: (method, path) => method === 'POST' && route.test(path),
  errorBody: { error: { code: 500, message: 'scripted error', status: 'INTERNAL' } },
  problem: (body) => contentsProblem((body as { contents?: unknown } | undefined)?.contents),
  rejection: (message) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }),
  respond: ({ res, reply, request, flags }) => {
    const [, model = 'unknown', method] = route.exec(request.path) ?? [];
    return method === 'streamGenerateContent'
      ? stream(res, reply, model, flags.chunkText)
      : whole(res, reply, model);
  },
};

interface Part {
  functionCall?: { name?: unknown };
  functionResponse?: { name?: unknown };
}

/**
 * Gemini's rules for `contents`, in its own words: roles only user and model (the system prompt goes in
 * systemInstruction); a function call turn follows a user turn or a function response turn; and it is answered
 * by the next turn, a user turn with one functionResponse per functionCall, names matching.
 */
export function contentsProblem(contents: unknown): string | undefined {
  if (contents === undefined) return undefined;
  if (!Array.isArray(contents)) return "Invalid value at 'contents': expected a list";
  let calls: string[] = [];
  for (const [i, c] of (contents as { role?: unknown; parts?: unknown }[]).entries()) {
    if (c?.role !== 'user' && c?.role !== 'model') {
      return `contents[${i}]: Please use a valid role: user, model. (got ${JSON.stringify(c?.role)})`;
    }
    const parts: Part[] = Array.isArray(c.parts) ? (c.parts as Part[]) : [];
    const responses = parts.filter((p) => p.functionResponse).map((p) => String(p.functionResponse?.name));
    if (calls.length > 0) {
      const sameNames = [...responses].sort().join() === [...calls].sort().join();
      if (c.role !== 'user' || responses.length !== calls.length || !sameNames) {
        return `contents[${i}]: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn (expected responses to ${calls.join(', ')}).`;
      }
    } else if (responses.length > 0) {
      return `contents[${i}]: Please ensure that function response turn comes immediately after a function call turn.`;
    }
    const next = parts.filter((p) => p.functionCall).map((p) => String(p.functionCall?.name));
    if (next.length > 0) {
      const previous = contents[i - 1] as { role?: unknown } | undefined;
      if (c.role !== 'model' || previous?.role !== 'user') {
        return `contents[${i}]: Please ensure that function call turn comes immediately after a user turn or after a function response turn.`;
      }
    }
    calls = next;
  }
  return undefined;
}

/** Function calls arrive whole (args an object), with the thought signature on the part when scripted. */
function callParts(reply: ScriptedReply) {
  return (reply.toolCalls ?? []).map((call) => ({
    functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.args ?? {} },
    ...(call.signature ? { thoughtSignature: call.signature } : {}),
  }));
}

function usageMetadata(reply: ScriptedReply) {
  const usage = reply.usage ?? defaultUsage;
  return {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.output,
    ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}),
  };
}

const response = (parts: unknown[], model: string, end?: ScriptedReply) => ({
  candidates: [
    {
      content: { role: 'model', parts },
      index: 0,
      // There is no tool-call finish reason: a turn with function calls also ends with STOP.
      ...(end ? { finishReason: 'STOP' } : {}),
      // Grounding with Google Search: where the answer came from, on the last chunk's candidate.
      ...(end?.searchResults
        ? {
            groundingMetadata: {
              webSearchQueries: ['scripted'],
              groundingChunks: end.searchResults.map((r) => ({ web: { uri: r.url, title: r.title } })),
            },
          }
        : {}),
    },
  ],
  ...(end ? { usageMetadata: usageMetadata(end) } : {}),
  modelVersion: model,
});

async function stream(res: ServerResponse, reply: ScriptedReply, model: string, chunkText: boolean) {
  res.writeHead(200, { 'content-type': 'text/event-stream', ...reply.headers });
  const send = async (value: unknown) => {
    res.write(`data: ${JSON.stringify(value)}\r\n\r\n`);
    await nextTick();
  };
  for (const piece of pieces(reply.reasoning ?? '', chunkText))
    await send(response([{ text: piece, thought: true }], model));
  for (const piece of pieces(reply.text ?? '', chunkText)) await send(response([{ text: piece }], model));
  if (await fault(res, reply, 'data: {"candidates":[{"content":\r\n\r\n')) return;
  if (reply.midStreamError !== undefined) {
    await send({ error: { code: 503, message: reply.midStreamError, status: 'UNAVAILABLE' } });
    return void res.end();
  }
  await send(response(callParts(reply), model, reply));
  res.end();
}

function whole(res: ServerResponse, reply: ScriptedReply, model: string) {
  const parts: unknown[] = [];
  if (reply.reasoning) parts.push({ text: reply.reasoning, thought: true });
  if (reply.text) parts.push({ text: reply.text });
  parts.push(...callParts(reply));
  res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
  res.end(JSON.stringify(response(parts, model, reply)));
}
