// The Gemini wire format for the scripted model server: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`
// (each `data:` a GenerateContentResponse holding only the new parts) and `:generateContent`.
import type { ServerResponse } from 'node:http';
import { setImmediate as nextTick } from 'node:timers/promises';
import { defaultUsage, fault, pieces, type ScriptedReply, type Wire } from './model-server.js';

const route = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

export const geminiWire: Wire = {
  matches: (method, path) => method === 'POST' && route.test(path),
  errorBody: { error: { code: 500, message: 'scripted error', status: 'INTERNAL' } },
  respond: ({ res, reply, request, flags }) => {
    const [, model = 'unknown', method] = route.exec(request.path) ?? [];
    return method === 'streamGenerateContent'
      ? stream(res, reply, model, flags.chunkText)
      : whole(res, reply, model);
  },
};

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
  };
}

const response = (parts: unknown[], model: string, end?: ScriptedReply) => ({
  candidates: [
    {
      content: { role: 'model', parts },
      index: 0,
      // There is no tool-call finish reason: a turn with function calls also ends with STOP.
      ...(end ? { finishReason: 'STOP' } : {}),
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
  if (await fault(res, reply)) return;
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
