// The Anthropic Messages wire format for the scripted model server: `POST /v1/messages`, SSE with `event:` names.
import type { ServerResponse } from 'node:http';
import { setImmediate as nextTick } from 'node:timers/promises';
import { defaultUsage, fault, pieces, type ScriptedReply, splitInto, type Wire } from './model-server.js';

export const anthropicWire: Wire = {
  matches: (method, path) => method === 'POST' && path === '/v1/messages',
  errorBody: { type: 'error', error: { type: 'api_error', message: 'scripted error' } },
  respond: ({ res, reply, request, replyNumber, flags }) =>
    request.body?.stream === true
      ? stream(res, reply, String(request.body?.model ?? 'unknown'), replyNumber, flags)
      : whole(res, reply, String(request.body?.model ?? 'unknown'), replyNumber),
};

const toolId = (replyNumber: number, index: number) => `toolu_${replyNumber}_${index}`;
const stopReason = (reply: ScriptedReply) => (reply.toolCalls?.length ? 'tool_use' : 'end_turn');

async function stream(
  res: ServerResponse,
  reply: ScriptedReply,
  model: string,
  replyNumber: number,
  flags: { chunkText: boolean; splitToolArgs: boolean },
) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  const send = async (event: string, data: Record<string, unknown>) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    await nextTick();
  };
  const usage = reply.usage ?? defaultUsage;
  await send('message_start', {
    message: {
      id: `msg_${replyNumber}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: 1 },
    },
  });
  await send('ping', {});
  let index = 0;
  const block = async (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    await send('content_block_start', { index, content_block: start });
    for (const delta of deltas) await send('content_block_delta', { index, delta });
    await send('content_block_stop', { index });
    index += 1;
  };
  if (reply.reasoning) {
    await block({ type: 'thinking', thinking: '', signature: '' }, [
      ...pieces(reply.reasoning, flags.chunkText).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: `sig_${replyNumber}` },
    ]);
  }
  if (reply.text) {
    await block(
      { type: 'text', text: '' },
      pieces(reply.text, flags.chunkText).map((text) => ({ type: 'text_delta', text })),
    );
  }
  if (await fault(res, reply)) return;
  if (reply.midStreamError !== undefined) {
    await send('error', { error: { type: 'overloaded_error', message: reply.midStreamError } });
    return void res.end();
  }
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const args = JSON.stringify(call.args ?? {});
    const fragments = flags.splitToolArgs ? splitInto(args, 3) : [args];
    await block(
      { type: 'tool_use', id: call.id ?? toolId(replyNumber, i), name: call.name, input: {} },
      fragments.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  }
  await send('message_delta', {
    delta: { stop_reason: stopReason(reply), stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  await send('message_stop', {});
  res.end();
}

function whole(res: ServerResponse, reply: ScriptedReply, model: string, replyNumber: number) {
  const usage = reply.usage ?? defaultUsage;
  const content: Record<string, unknown>[] = [];
  if (reply.reasoning)
    content.push({ type: 'thinking', thinking: reply.reasoning, signature: `sig_${replyNumber}` });
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    content.push({
      type: 'tool_use',
      id: call.id ?? toolId(replyNumber, i),
      name: call.name,
      input: call.args ?? {},
    });
  }
  res.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
  res.end(
    JSON.stringify({
      id: `msg_${replyNumber}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason(reply),
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    }),
  );
}
