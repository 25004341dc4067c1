// A scripted model server on loopback speaking the real Ollama and OpenAI wire formats, for every end-to-end test.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate as nextTick } from 'node:timers/promises';
import { listenLoopback, readBody, sendJson } from './http.js';
import { anthropicWire } from './wire-anthropic.js';
import { chatMessagesProblem, ollamaRejection, openaiRejection } from './wire-chat-rules.js';
import { geminiWire } from './wire-gemini.js';
import { type ModelListOptions, modelListAnswer } from './wire-models.js';
import { responsesWire } from './wire-responses.js';

export interface ScriptedToolCall {
  name: string;
  args: unknown;
  id?: string;
  signature?: string; // Gemini thoughtSignature on the functionCall part
  rawArgs?: string; // OpenAI only: send this argument text verbatim instead of JSON of args (malformed JSON)
  objectArgs?: boolean; // OpenAI only: send args as a JSON object in the call's first chunk, as some local servers do
  input?: string; // Responses only: a custom_tool_call with this freeform input (codex's apply_patch) instead of args
}
export interface ScriptedReply {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** input: every prompt token, cached ones included; cacheRead / cacheWrite: the cached parts (OpenAI: reads only). */
  usage?: ScriptedUsage;
  status?: number;
  errorBody?: unknown; // reply with this HTTP error instead
  midStreamError?: string; // start streaming, then send an in-stream error
  midStreamErrorType?: string; // Anthropic: that error event's type (default overloaded_error)
  delayMs?: number; // wait before answering
  hang?: boolean; // never answer (until the client aborts / server closes)
  // OpenAI route: before the reply, this many SSE comment lines (`: OPENROUTER PROCESSING`), one every intervalMs
  keepAlive?: { count: number; intervalMs: number };
  citations?: { url: string; title?: string }[]; // OpenRouter url_citation annotations (openai route)
  // The provider's own web search ran: Anthropic's web_search_tool_result, Gemini's grounding chunks, the Responses
  // API's web_search_call with url_citation annotations.
  searchResults?: { url: string; title: string }[];
  finish?: 'length' | 'content_filter'; // Ollama and OpenAI: end with this finish reason instead of stop / tool_calls
  // Faults (retry tests):
  headers?: Record<string, string>; // extra response headers (Retry-After, retry-after-ms), on errors and streams
  reset?: boolean; // stream the reasoning and text, then reset the connection (no finish)
  stall?: boolean; // stream the reasoning and text, then go silent with the socket open (until the client aborts)
  truncate?: boolean; // stream the reasoning and text, then end the response cleanly without a finish
  garbage?: boolean; // stream the reasoning and text, then a line that is not valid JSON, then the rest as usual
}
export interface ScriptedUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}
export interface ReceivedRequest {
  path: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary wire fields from the parsed body.
  body: any;
  rawBody: string;
  receivedAt: number;
}
/** A reply, or a function of the request giving one (it may wait for the test, e.g. until a pipe is closed). */
export type ScriptStep =
  | ScriptedReply
  | ((request: ReceivedRequest) => ScriptedReply | Promise<ScriptedReply>);
export interface ModelServer {
  url: string; // http://127.0.0.1:PORT
  ollamaUrl: string; // what to pass as --base-url / OLLAMA_HOST for provider ollama
  openaiUrl: string; // http://127.0.0.1:PORT/v1 for provider openai-compatible
  anthropicUrl: string; // http://127.0.0.1:PORT/v1 (POST /v1/messages)
  geminiUrl: string; // http://127.0.0.1:PORT/v1beta (POST /v1beta/models/{model}:streamGenerateContent)
  requests: ReceivedRequest[]; // chat requests only, in order (including rejected ones)
  /** Why requests were refused with HTTP 400 for breaking their wire format's rules, in order. */
  rejections: string[];
  routes: string[]; // every request as `METHOD /path`, in order (model lists, /api/show, chat)
  /** /api/show requests held by `showAfter` whose client still waits for the answer. */
  heldShows(): number;
  close(): Promise<void>;
}

export interface ModelServerOptions extends ModelListOptions {
  script: ScriptStep[];
  chunkText?: boolean;
  splitToolArgs?: boolean;
  /** Speak OpenRouter's dialect on the OpenAI route: `: OPENROUTER PROCESSING` comments, `delta.reasoning`, /models. */
  openrouter?: boolean;
  /** Ollama's /api/show answers once this settles: a chat's run held in its assembly (the model is created after it). */
  showAfter?: Promise<unknown>;
  /** The loopback port to listen on (the bench keeps one server address across rounds); default: any free one. */
  port?: number;
}

/** A further wire format (test/support/wire-*.ts), registered in `wires` below. */
export interface Wire {
  matches(method: string, path: string): boolean;
  /** The error body when a reply scripts a status without an errorBody. */
  errorBody: unknown;
  /** Why the real server would refuse this request body (HTTP 400), or undefined. */
  problem(body: unknown): string | undefined;
  /** The provider's HTTP 400 body for such a problem. */
  rejection(message: string): unknown;
  respond(context: WireContext): Promise<void> | void;
}
export interface WireContext {
  res: ServerResponse;
  reply: ScriptedReply;
  request: ReceivedRequest;
  replyNumber: number;
  flags: Flags;
}
const wires: Wire[] = [anthropicWire, geminiWire, responsesWire];

export const defaultUsage: ScriptedUsage = { input: 10, output: 5 };

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: ReceivedRequest[] = [];
  const routes: string[] = [];
  const rejections: string[] = [];
  const held = new Set<ServerResponse>();
  let step = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const route = `${req.method} ${path}`;
    routes.push(route);
    if (route === 'GET /api/version') return sendJson(res, 200, { version: '0.12.6' });
    if (route === 'POST /api/show' && options.showAfter) {
      // A client that gives up (its connection closed) no longer counts as waiting.
      held.add(res);
      res.once('close', () => held.delete(res));
      await options.showAfter;
      held.delete(res);
    }
    const list = modelListAnswer(route, req.headers, parseJson(rawBody) as { model?: string }, options);
    if (list) return sendJson(res, list.status, list.body);
    const isOllama = route === 'POST /api/chat';
    const wire = wires.find((w) => w.matches(req.method ?? '', path));
    if (!wire && !isOllama && route !== 'POST /v1/chat/completions') {
      return sendJson(res, 404, { error: `scripted model server: no route ${route}` });
    }
    const request: ReceivedRequest = {
      path,
      method: req.method ?? 'POST',
      headers: { ...req.headers },
      body: parseJson(rawBody),
      rawBody,
      receivedAt: Date.now(),
    };
    requests.push(request);
    // A request the real server would refuse is refused here too, before it uses up a scripted reply.
    const problem = wire
      ? wire.problem(request.body)
      : chatMessagesProblem((request.body as { messages?: unknown } | undefined)?.messages);
    if (problem !== undefined) {
      rejections.push(problem);
      const rejection = wire
        ? wire.rejection(problem)
        : (isOllama ? ollamaRejection : openaiRejection)(problem);
      return sendJson(res, 400, rejection);
    }
    const next = options.script[step];
    if (next === undefined) {
      return sendJson(res, 500, { error: `scripted model server: script exhausted after ${step} replies` });
    }
    step += 1;
    const reply = typeof next === 'function' ? await next(request) : next;
    if (reply.hang) return; // the socket stays open until the client aborts or close() destroys it
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.status !== undefined)
      return sendError(
        res,
        wire ? { ...reply, errorBody: reply.errorBody ?? wire.errorBody } : reply,
        isOllama,
      );
    const stream = request.body?.stream !== false;
    const flags = {
      chunkText: options.chunkText ?? true,
      splitToolArgs: options.splitToolArgs ?? true,
      openrouter: options.openrouter ?? false,
    };
    if (wire) return wire.respond({ res, reply, request, replyNumber: step, flags });
    if (isOllama)
      await (stream ? ollamaStream(res, reply, request, flags) : ollamaWhole(res, reply, request));
    else
      await (stream
        ? openaiStream(res, reply, request, step, flags)
        : openaiWhole(res, reply, request, step));
  }

  const { url, close } = await listenLoopback((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `scripted model server: ${String(error)}` });
      else res.destroy();
    });
  }, options.port);
  return {
    url,
    ollamaUrl: url,
    openaiUrl: `${url}/v1`,
    anthropicUrl: `${url}/v1`,
    geminiUrl: `${url}/v1beta`,
    requests,
    rejections,
    routes,
    heldShows: () => held.size,
    close,
  };
}

export type Flags = { chunkText: boolean; splitToolArgs: boolean; openrouter?: boolean };

// ---- Ollama /api/chat ----

async function ollamaStream(
  res: ServerResponse,
  reply: ScriptedReply,
  request: ReceivedRequest,
  flags: Flags,
) {
  res.writeHead(200, { 'content-type': 'application/x-ndjson', ...reply.headers });
  const base = () => ({ model: request.body?.model ?? 'unknown', created_at: new Date().toISOString() });
  const line = async (value: unknown) => {
    res.write(`${JSON.stringify(value)}\n`);
    await nextTick();
  };
  for (const piece of pieces(reply.reasoning ?? '', flags.chunkText)) {
    await line({ ...base(), message: { role: 'assistant', content: '', thinking: piece }, done: false });
  }
  for (const piece of pieces(reply.text ?? '', flags.chunkText)) {
    await line({ ...base(), message: { role: 'assistant', content: piece }, done: false });
  }
  if (await fault(res, reply, '{"model":"qwen3","message":{"role":"assi\n')) return;
  if (reply.midStreamError !== undefined) {
    await line({ error: reply.midStreamError });
    return void res.end();
  }
  if (reply.toolCalls?.length) {
    await line({
      ...base(),
      message: { role: 'assistant', content: '', tool_calls: ollamaCalls(reply) },
      done: false,
    });
  }
  const usage = reply.usage ?? defaultUsage;
  await line({
    ...base(),
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: reply.finish ?? 'stop',
    total_duration: 1_000_000,
    prompt_eval_count: usage.input,
    eval_count: usage.output,
  });
  res.end();
}

function ollamaWhole(res: ServerResponse, reply: ScriptedReply, request: ReceivedRequest) {
  const usage = reply.usage ?? defaultUsage;
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? '' };
  if (reply.reasoning) message.thinking = reply.reasoning;
  if (reply.toolCalls?.length) message.tool_calls = ollamaCalls(reply);
  sendJson(res, 200, {
    model: request.body?.model ?? 'unknown',
    created_at: new Date().toISOString(),
    message,
    done: true,
    done_reason: 'stop',
    prompt_eval_count: usage.input,
    eval_count: usage.output,
  });
}

function ollamaCalls(reply: ScriptedReply) {
  return (reply.toolCalls ?? []).map((call) => ({
    ...(call.id ? { id: call.id } : {}),
    function: { name: call.name, arguments: call.args },
  }));
}

// ---- OpenAI /v1/chat/completions ----

async function openaiStream(
  res: ServerResponse,
  reply: ScriptedReply,
  request: ReceivedRequest,
  replyNumber: number,
  flags: Flags,
) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  const id = `chatcmpl-${replyNumber}`;
  const model = request.body?.model ?? 'unknown';
  const send = async (value: unknown) => {
    res.write(`data: ${JSON.stringify(value)}\n\n`);
    await nextTick();
  };
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  // OpenRouter keeps the connection alive with SSE comments before and while the model works.
  if (flags.openrouter) res.write(': OPENROUTER PROCESSING\n\n');
  for (let i = 0; i < (reply.keepAlive?.count ?? 0); i++) {
    await new Promise((resolve) => setTimeout(resolve, reply.keepAlive!.intervalMs));
    res.write(': OPENROUTER PROCESSING\n\n');
  }
  await send(chunk({ role: 'assistant', content: '' }));
  const reasoningField = flags.openrouter ? 'reasoning' : 'reasoning_content';
  for (const piece of pieces(reply.reasoning ?? '', flags.chunkText))
    await send(chunk({ [reasoningField]: piece }));
  if (flags.openrouter) res.write(': OPENROUTER PROCESSING\n\n');
  for (const piece of pieces(reply.text ?? '', flags.chunkText)) await send(chunk({ content: piece }));
  if (reply.citations?.length) {
    const annotations = reply.citations.map((c) => ({
      type: 'url_citation',
      url_citation: { ...c, start_index: 0, end_index: 0 },
    }));
    await send(chunk({ annotations }));
  }
  if (await fault(res, reply, 'data: {"id":"chatcmpl-x","choices":[{"delta":{"content":"oo\n\n')) return;
  if (reply.midStreamError !== undefined) {
    await send({ error: { message: reply.midStreamError, type: 'server_error', code: null } });
    return void res.end();
  }
  const calls = reply.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    const args = call.rawArgs ?? JSON.stringify(call.args ?? {});
    const fragments = flags.splitToolArgs ? splitInto(args, 3) : [args];
    const first = {
      index,
      id: call.id ?? callId(replyNumber, index),
      type: 'function',
      function: { name: call.name, arguments: call.objectArgs ? (call.args ?? {}) : '' },
    };
    await send(chunk({ tool_calls: [first] }));
    if (call.objectArgs) continue;
    for (const fragment of fragments)
      await send(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
  }
  await send(chunk({}, reply.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop')));
  // OpenRouter always ends with a usage chunk; OpenAI only when asked.
  if (flags.openrouter || request.body?.stream_options?.include_usage) {
    const usage = reply.usage ?? defaultUsage;
    await send({
      id,
      object: 'chat.completion.chunk',
      created: 1,
      model,
      choices: [],
      usage: openaiUsage(usage),
    });
  }
  res.write('data: [DONE]\n\n');
  res.end();
}

function openaiWhole(
  res: ServerResponse,
  reply: ScriptedReply,
  request: ReceivedRequest,
  replyNumber: number,
) {
  const calls = reply.toolCalls ?? [];
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? null };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  if (calls.length > 0) {
    message.tool_calls = calls.map((call, index) => ({
      id: call.id ?? callId(replyNumber, index),
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
    }));
  }
  sendJson(res, 200, {
    id: `chatcmpl-${replyNumber}`,
    object: 'chat.completion',
    created: 1,
    model: request.body?.model ?? 'unknown',
    choices: [{ index: 0, message, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: openaiUsage(reply.usage ?? defaultUsage),
  });
}

function openaiUsage(usage: ScriptedUsage) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    ...(usage.cacheRead ? { prompt_tokens_details: { cached_tokens: usage.cacheRead } } : {}),
  };
}

const callId = (replyNumber: number, index: number) => `call_${replyNumber}_${index}`;

// ---- shared ----

/**
 * Mid-stream faults: true when the reply stops here (the connection reset, left silent and open, or ended early).
 * `garbage` is this wire format's line that its parser rejects, written before the reply goes on as usual.
 */
export async function fault(res: ServerResponse, reply: ScriptedReply, garbage: string): Promise<boolean> {
  if (reply.stall) return true;
  if (reply.truncate) {
    res.end();
    return true;
  }
  if (reply.garbage) {
    res.write(garbage);
    await nextTick();
  }
  if (!reply.reset) return false;
  // Let what was written reach the client first, so the failure really is mid-stream.
  await new Promise<void>((resolve) => res.write('', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 20));
  res.socket?.resetAndDestroy();
  return true;
}

function sendError(res: ServerResponse, reply: ScriptedReply, isOllama: boolean) {
  const fallback = isOllama
    ? { error: 'scripted error' }
    : { error: { message: 'scripted error', type: 'api_error', param: null, code: null } };
  const body = reply.errorBody ?? fallback;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(reply.status!, {
    'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
    ...reply.headers,
  });
  res.end(text);
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Text as a model streams it: a word (with its trailing space) per chunk; a single word is split in two. */
export function pieces(text: string, chunk: boolean): string[] {
  if (text === '') return [];
  if (!chunk) return [text];
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  return words.length > 1 || text.length < 2 ? words : splitInto(text, 2);
}

export function splitInto(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [text];
}
