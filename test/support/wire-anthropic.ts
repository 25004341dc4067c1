// The Anthropic Messages wire format for the scripted model server: `POST /v1/messages`, SSE with `event:` names.
import type { ServerResponse } from 'node:http';
import { setImmediate as nextTick } from 'node:timers/promises';
import {
  defaultUsage,
  fault,
  pieces,
  type ScriptedReply,
  type ScriptedUsage,
  splitInto,
  type Wire,
} from './model-server.js';

export const anthropicWire: Wire = {
  matches: (method, path) => method === 'POST' && path === '/v1/messages',
  errorBody: { type: 'error', error: { type: 'api_error', message: 'scripted error' } },
  problem: (body) => messagesProblem((body as { messages?: unknown } | undefined)?.messages),
  rejection: (message) => ({ type: 'error', error: { type: 'invalid_request_error', message } }),
  respond: ({ res, reply, request, replyNumber, flags }) =>
    request.body?.stream === true
      ? stream(res, reply, String(request.body?.model ?? 'unknown'), replyNumber, flags)
      : whole(res, reply, String(request.body?.model ?? 'unknown'), replyNumber),
};

interface Block {
  type?: unknown;
  id?: unknown;
  tool_use_id?: unknown;
}

/**
 * The Messages API's rules for `messages`: only user and assistant (the system prompt is the top-level `system`),
 * starting with user and alternating; each tool_use answered by a tool_result, first in the very next user message.
 */
export function messagesProblem(messages: unknown): string | undefined {
  if (messages === undefined) return undefined;
  if (!Array.isArray(messages)) return 'messages: Input should be a valid list';
  let expectedResults: string[] = [];
  for (const [i, m] of (messages as { role?: unknown; content?: unknown }[]).entries()) {
    const role = m?.role;
    if (role !== 'user' && role !== 'assistant') {
      return `messages.${i}.role: Input should be 'user' or 'assistant'${role === 'system' ? '; use the top-level `system` parameter for a system prompt' : ''}`;
    }
    if (i === 0 && role !== 'user') return 'messages: first message must use the "user" role';
    const previous = (messages[i - 1] as { role?: unknown } | undefined)?.role;
    if (previous === role)
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`;
    const blocks: Block[] = Array.isArray(m.content) ? (m.content as Block[]) : [];
    const results = blocks.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id));
    if (role === 'user') {
      const missing = expectedResults.filter((id) => !results.includes(id));
      if (missing.length > 0) {
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
      const unexpected = results.filter((id) => !expectedResults.includes(id));
      if (unexpected.length > 0) {
        return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
      const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
      if (firstOther >= 0 && blocks.slice(firstOther).some((b) => b.type === 'tool_result')) {
        return `messages.${i}.content: tool_result blocks must come first in the user message content`;
      }
      expectedResults = [];
    } else {
      if (results.length > 0) return `messages.${i}: tool_result blocks are only allowed in user messages`;
      expectedResults = blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
    }
  }
  if (expectedResults.length > 0) {
    return `messages: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${expectedResults.join(', ')}`;
  }
  return undefined;
}

/** Anthropic counts cached tokens apart: input_tokens is only the part neither read from nor written to the cache. */
function anthropicInput(usage: ScriptedUsage) {
  const read = usage.cacheRead ?? 0;
  const write = usage.cacheWrite ?? 0;
  return {
    input_tokens: usage.input - read - write,
    ...(usage.cacheRead !== undefined ? { cache_read_input_tokens: read } : {}),
    ...(usage.cacheWrite !== undefined ? { cache_creation_input_tokens: write } : {}),
  };
}

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
      usage: { ...anthropicInput(usage), output_tokens: 1 },
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
  if (reply.searchResults) {
    const id = `srvtoolu_${replyNumber}`;
    await block({ type: 'server_tool_use', id, name: 'web_search', input: {} }, [
      { type: 'input_json_delta', partial_json: JSON.stringify({ query: 'scripted' }) },
    ]);
    const content = reply.searchResults.map((r) => ({
      type: 'web_search_result',
      url: r.url,
      title: r.title,
      encrypted_content: 'opaque',
      page_age: null,
    }));
    await block({ type: 'web_search_tool_result', tool_use_id: id, content }, []);
  }
  if (reply.text) {
    await block(
      { type: 'text', text: '' },
      pieces(reply.text, flags.chunkText).map((text) => ({ type: 'text_delta', text })),
    );
  }
  if (await fault(res, reply, 'event: content_block_delta\ndata: {"type":"content_block_delta","ind\n\n'))
    return;
  if (reply.midStreamError !== undefined) {
    const type = reply.midStreamErrorType ?? 'overloaded_error';
    await send('error', { error: { type, message: reply.midStreamError } });
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
      usage: { ...anthropicInput(usage), output_tokens: usage.output },
    }),
  );
}
