// OpenAI's Responses API for the scripted model server (`POST /v1/responses`, SSE `data:` events): where Keel sends
// a web search for OpenAI. A reply's text streams as one message; its searchResults come as a web_search_call item
// and url_citation annotations on the text.
import { setImmediate as nextTick } from 'node:timers/promises';
import { defaultUsage, pieces, type Wire } from './model-server.js';
import { openaiRejection } from './wire-chat-rules.js';

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
    await send({
      type: 'response.created',
      response: { id: `resp_${replyNumber}`, created_at: 1_700_000_000, model },
    });
    let index = 0;
    if (reply.searchResults) {
      const item = { type: 'web_search_call', id: `ws_${replyNumber}` };
      await send({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, status: 'in_progress' },
      });
      await send({
        type: 'response.output_item.done',
        output_index: index,
        item: { ...item, status: 'completed', action: { type: 'search', query: 'scripted' } },
      });
      index += 1;
    }
    const message = { type: 'message', id: `msg_${replyNumber}` };
    await send({ type: 'response.output_item.added', output_index: index, item: message });
    for (const delta of pieces(reply.text ?? '', true))
      await send({ type: 'response.output_text.delta', item_id: message.id, output_index: index, delta });
    for (const [i, r] of (reply.searchResults ?? []).entries()) {
      await send({
        type: 'response.output_text.annotation.added',
        item_id: message.id,
        output_index: index,
        annotation_index: i,
        annotation: { type: 'url_citation', start_index: 0, end_index: 0, url: r.url, title: r.title },
      });
    }
    await send({ type: 'response.output_item.done', output_index: index, item: message });
    const usage = reply.usage ?? defaultUsage;
    await send({
      type: 'response.completed',
      response: {
        usage: {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
        },
      },
    });
    res.end();
  },
};
