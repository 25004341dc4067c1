// OpenAI's Responses API for the scripted model server (`POST /v1/responses`, SSE `data:` events): where Keel sends
// a web search for OpenAI, and the wire codex speaks (the bench drives codex with it). A reply's text streams as one
// message; its searchResults come as a web_search_call item and url_citation annotations on the text; its tool
// calls as function_call items (a call with `input` as a custom_tool_call, codex's freeform apply_patch). Items
// carry their full shape in output_item.added/done and response.completed carries its id, as codex requires.
import { setImmediate as nextTick } from 'node:timers/promises';
import { defaultUsage, pieces, type ScriptedToolCall, type Wire } from './model-server.js';
import { openaiRejection } from './wire-chat-rules.js';

/** A tool call as a Responses output item: function_call (JSON arguments) or custom_tool_call (freeform input). */
function callItem(call: ScriptedToolCall, replyNumber: number, index: number) {
  const callId = call.id ?? `call_${replyNumber}_${index}`;
  const id = `fc_${replyNumber}_${index}`;
  return call.input !== undefined
    ? {
        type: 'custom_tool_call',
        id,
        call_id: callId,
        name: call.name,
        input: call.input,
        status: 'completed',
      }
    : {
        type: 'function_call',
        id,
        call_id: callId,
        name: call.name,
        arguments: call.rawArgs ?? JSON.stringify(call.args ?? {}),
        status: 'completed',
      };
}

export const responsesWire: Wire = {
  matches: (method, path) => method === 'POST' && path === '/v1/responses',
  errorBody: { error: { message: 'scripted error', type: 'server_error', code: null } },
  problem: (body) =>
    Array.isArray((body as { input?: unknown } | undefined)?.input) ? undefined : 'input: expected an array',
  rejection: openaiRejection,
  async respond({ res, reply, request, replyNumber }) {
    res.writeHead(200, { 'content-type': 'text/event-stream', ...reply.headers });
    const send = async (data: Record<string, unknown>) => {
      res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
      await nextTick();
    };
    const model = String(request.body?.model ?? 'unknown');
    const id = `resp_${replyNumber}`;
    await send({
      type: 'response.created',
      response: {
        id,
        object: 'response',
        created_at: 1_700_000_000,
        model,
        status: 'in_progress',
        output: [],
      },
    });
    const output: Record<string, unknown>[] = [];
    if (reply.searchResults) {
      const item = { type: 'web_search_call', id: `ws_${replyNumber}` };
      await send({
        type: 'response.output_item.added',
        output_index: output.length,
        item: { ...item, status: 'in_progress' },
      });
      const done = { ...item, status: 'completed', action: { type: 'search', query: 'scripted' } };
      await send({ type: 'response.output_item.done', output_index: output.length, item: done });
      output.push(done);
    }
    const calls = reply.toolCalls ?? [];
    if (reply.text || calls.length === 0) {
      const index = output.length;
      const message = { type: 'message', id: `msg_${replyNumber}`, role: 'assistant', status: 'in_progress' };
      await send({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...message, content: [] },
      });
      for (const delta of pieces(reply.text ?? '', true))
        await send({ type: 'response.output_text.delta', item_id: message.id, output_index: index, delta });
      const annotations = (reply.searchResults ?? []).map((r) => ({
        type: 'url_citation',
        start_index: 0,
        end_index: 0,
        url: r.url,
        title: r.title,
      }));
      for (const [i, annotation] of annotations.entries()) {
        await send({
          type: 'response.output_text.annotation.added',
          item_id: message.id,
          output_index: index,
          annotation_index: i,
          annotation,
        });
      }
      const done = {
        ...message,
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text ?? '', annotations }],
      };
      await send({ type: 'response.output_item.done', output_index: index, item: done });
      output.push(done);
    }
    for (const [i, call] of calls.entries()) {
      const index = output.length;
      const item = callItem(call, replyNumber, i);
      const opening =
        item.type === 'function_call' ? { ...item, arguments: '', status: 'in_progress' } : item;
      await send({ type: 'response.output_item.added', output_index: index, item: opening });
      if (item.type === 'function_call')
        await send({
          type: 'response.function_call_arguments.delta',
          item_id: item.id,
          output_index: index,
          delta: item.arguments,
        });
      await send({ type: 'response.output_item.done', output_index: index, item });
      output.push(item);
    }
    const usage = reply.usage ?? defaultUsage;
    await send({
      type: 'response.completed',
      response: {
        id,
        object: 'response',
        created_at: 1_700_000_000,
        model,
        status: 'completed',
        output,
        usage: {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.output,
        },
      },
    });
    res.end();
  },
};
