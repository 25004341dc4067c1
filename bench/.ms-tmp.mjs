import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// ../../work/main/test/support/model-server.ts
import { setImmediate as nextTick4 } from "node:timers/promises";

// ../../work/main/test/support/http.ts
import { createServer } from "node:http";
async function listenLoopback(handler) {
  const server = createServer(handler);
  const sockets = /* @__PURE__ */ new Set();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    })
  };
}
function sendJson(res, status, value) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

// ../../work/main/test/support/wire-anthropic.ts
import { setImmediate as nextTick } from "node:timers/promises";
var anthropicWire = {
  matches: (method, path) => method === "POST" && path === "/v1/messages",
  errorBody: { type: "error", error: { type: "api_error", message: "scripted error" } },
  problem: (body) => messagesProblem(body?.messages),
  rejection: (message) => ({ type: "error", error: { type: "invalid_request_error", message } }),
  respond: ({ res, reply, request, replyNumber, flags }) => request.body?.stream === true ? stream(res, reply, String(request.body?.model ?? "unknown"), replyNumber, flags) : whole(res, reply, String(request.body?.model ?? "unknown"), replyNumber)
};
function messagesProblem(messages) {
  if (messages === void 0) return void 0;
  if (!Array.isArray(messages)) return "messages: Input should be a valid list";
  let expectedResults = [];
  for (const [i, m] of messages.entries()) {
    const role = m?.role;
    if (role !== "user" && role !== "assistant") {
      return `messages.${i}.role: Input should be 'user' or 'assistant'${role === "system" ? "; use the top-level `system` parameter for a system prompt" : ""}`;
    }
    if (i === 0 && role !== "user") return 'messages: first message must use the "user" role';
    const previous = messages[i - 1]?.role;
    if (previous === role)
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`;
    const blocks = Array.isArray(m.content) ? m.content : [];
    const results = blocks.filter((b) => b.type === "tool_result").map((b) => String(b.tool_use_id));
    if (role === "user") {
      const missing = expectedResults.filter((id) => !results.includes(id));
      if (missing.length > 0) {
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
      const unexpected = results.filter((id) => !expectedResults.includes(id));
      if (unexpected.length > 0) {
        return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(", ")}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
      const firstOther = blocks.findIndex((b) => b.type !== "tool_result");
      if (firstOther >= 0 && blocks.slice(firstOther).some((b) => b.type === "tool_result")) {
        return `messages.${i}.content: tool_result blocks must come first in the user message content`;
      }
      expectedResults = [];
    } else {
      if (results.length > 0) return `messages.${i}: tool_result blocks are only allowed in user messages`;
      expectedResults = blocks.filter((b) => b.type === "tool_use").map((b) => String(b.id));
    }
  }
  if (expectedResults.length > 0) {
    return `messages: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${expectedResults.join(", ")}`;
  }
  return void 0;
}
function anthropicInput(usage) {
  const read = usage.cacheRead ?? 0;
  const write = usage.cacheWrite ?? 0;
  return {
    input_tokens: usage.input - read - write,
    ...usage.cacheRead !== void 0 ? { cache_read_input_tokens: read } : {},
    ...usage.cacheWrite !== void 0 ? { cache_creation_input_tokens: write } : {}
  };
}
var toolId = (replyNumber, index) => `toolu_${replyNumber}_${index}`;
var stopReason = (reply) => reply.toolCalls?.length ? "tool_use" : "end_turn";
async function stream(res, reply, model, replyNumber, flags) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...reply.headers });
  const send = async (event, data) => {
    res.write(`event: ${event}
data: ${JSON.stringify({ type: event, ...data })}

`);
    await nextTick();
  };
  const usage = reply.usage ?? defaultUsage;
  await send("message_start", {
    message: {
      id: `msg_${replyNumber}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...anthropicInput(usage), output_tokens: 1 }
    }
  });
  await send("ping", {});
  let index = 0;
  const block = async (start, deltas) => {
    await send("content_block_start", { index, content_block: start });
    for (const delta of deltas) await send("content_block_delta", { index, delta });
    await send("content_block_stop", { index });
    index += 1;
  };
  if (reply.reasoning) {
    await block({ type: "thinking", thinking: "", signature: "" }, [
      ...pieces(reply.reasoning, flags.chunkText).map((thinking) => ({ type: "thinking_delta", thinking })),
      { type: "signature_delta", signature: `sig_${replyNumber}` }
    ]);
  }
  if (reply.searchResults) {
    const id = `srvtoolu_${replyNumber}`;
    await block({ type: "server_tool_use", id, name: "web_search", input: {} }, [
      { type: "input_json_delta", partial_json: JSON.stringify({ query: "scripted" }) }
    ]);
    const content = reply.searchResults.map((r) => ({
      type: "web_search_result",
      url: r.url,
      title: r.title,
      encrypted_content: "opaque",
      page_age: null
    }));
    await block({ type: "web_search_tool_result", tool_use_id: id, content }, []);
  }
  if (reply.text) {
    await block(
      { type: "text", text: "" },
      pieces(reply.text, flags.chunkText).map((text) => ({ type: "text_delta", text }))
    );
  }
  if (await fault(res, reply, 'event: content_block_delta\ndata: {"type":"content_block_delta","ind\n\n'))
    return;
  if (reply.midStreamError !== void 0) {
    await send("error", { error: { type: "overloaded_error", message: reply.midStreamError } });
    return void res.end();
  }
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const args = JSON.stringify(call.args ?? {});
    const fragments = flags.splitToolArgs ? splitInto(args, 3) : [args];
    await block(
      { type: "tool_use", id: call.id ?? toolId(replyNumber, i), name: call.name, input: {} },
      fragments.map((partial_json) => ({ type: "input_json_delta", partial_json }))
    );
  }
  await send("message_delta", {
    delta: { stop_reason: stopReason(reply), stop_sequence: null },
    usage: { output_tokens: usage.output }
  });
  await send("message_stop", {});
  res.end();
}
function whole(res, reply, model, replyNumber) {
  const usage = reply.usage ?? defaultUsage;
  const content = [];
  if (reply.reasoning)
    content.push({ type: "thinking", thinking: reply.reasoning, signature: `sig_${replyNumber}` });
  if (reply.text) content.push({ type: "text", text: reply.text });
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    content.push({
      type: "tool_use",
      id: call.id ?? toolId(replyNumber, i),
      name: call.name,
      input: call.args ?? {}
    });
  }
  res.writeHead(200, { "content-type": "application/json", ...reply.headers });
  res.end(
    JSON.stringify({
      id: `msg_${replyNumber}`,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: stopReason(reply),
      stop_sequence: null,
      usage: { ...anthropicInput(usage), output_tokens: usage.output }
    })
  );
}

// ../../work/main/test/support/wire-chat-rules.ts
function chatMessagesProblem(messages) {
  if (messages === void 0) return void 0;
  if (!Array.isArray(messages)) return "'messages' must be an array";
  let open = [];
  let answering = false;
  let seenOther = false;
  for (const [i, m] of messages.entries()) {
    const role = m?.role;
    if (role !== "tool" && open.length > 0) {
      return `messages[${i}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(", ")}`;
    }
    switch (role) {
      case "system":
      case "developer":
        if (seenOther)
          return `messages[${i}]: a system message after the conversation started (Keel sends one, first)`;
        break;
      case "user":
        seenOther = true;
        answering = false;
        break;
      case "assistant":
        seenOther = true;
        open = (m.tool_calls ?? []).map((c) => String(c.id));
        answering = open.length > 0;
        break;
      case "tool": {
        seenOther = true;
        const id = String(m.tool_call_id);
        if (!answering || !open.includes(id)) {
          return `messages[${i}]: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (no open call ${id})`;
        }
        open = open.filter((o) => o !== id);
        break;
      }
      default:
        return `messages[${i}]: invalid role ${JSON.stringify(role)}`;
    }
  }
  return void 0;
}
var openaiRejection = (message) => ({
  error: { message, type: "invalid_request_error", param: "messages", code: null }
});
var ollamaRejection = (message) => ({ error: message });

// ../../work/main/test/support/wire-gemini.ts
import { setImmediate as nextTick2 } from "node:timers/promises";
var route = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;
var geminiWire = {
  matches: (method, path) => method === "POST" && route.test(path),
  errorBody: { error: { code: 500, message: "scripted error", status: "INTERNAL" } },
  problem: (body) => contentsProblem(body?.contents),
  rejection: (message) => ({ error: { code: 400, message, status: "INVALID_ARGUMENT" } }),
  respond: ({ res, reply, request, flags }) => {
    const [, model = "unknown", method] = route.exec(request.path) ?? [];
    return method === "streamGenerateContent" ? stream2(res, reply, model, flags.chunkText) : whole2(res, reply, model);
  }
};
function contentsProblem(contents) {
  if (contents === void 0) return void 0;
  if (!Array.isArray(contents)) return "Invalid value at 'contents': expected a list";
  let calls = [];
  for (const [i, c] of contents.entries()) {
    if (c?.role !== "user" && c?.role !== "model") {
      return `contents[${i}]: Please use a valid role: user, model. (got ${JSON.stringify(c?.role)})`;
    }
    const parts = Array.isArray(c.parts) ? c.parts : [];
    const responses = parts.filter((p) => p.functionResponse).map((p) => String(p.functionResponse?.name));
    if (calls.length > 0) {
      const sameNames = [...responses].sort().join() === [...calls].sort().join();
      if (c.role !== "user" || responses.length !== calls.length || !sameNames) {
        return `contents[${i}]: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn (expected responses to ${calls.join(", ")}).`;
      }
    } else if (responses.length > 0) {
      return `contents[${i}]: Please ensure that function response turn comes immediately after a function call turn.`;
    }
    const next = parts.filter((p) => p.functionCall).map((p) => String(p.functionCall?.name));
    if (next.length > 0) {
      const previous = contents[i - 1];
      if (c.role !== "model" || previous?.role !== "user") {
        return `contents[${i}]: Please ensure that function call turn comes immediately after a user turn or after a function response turn.`;
      }
    }
    calls = next;
  }
  return void 0;
}
function callParts(reply) {
  return (reply.toolCalls ?? []).map((call) => ({
    functionCall: { ...call.id ? { id: call.id } : {}, name: call.name, args: call.args ?? {} },
    ...call.signature ? { thoughtSignature: call.signature } : {}
  }));
}
function usageMetadata(reply) {
  const usage = reply.usage ?? defaultUsage;
  return {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.output,
    ...usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}
  };
}
var response = (parts, model, end) => ({
  candidates: [
    {
      content: { role: "model", parts },
      index: 0,
      // There is no tool-call finish reason: a turn with function calls also ends with STOP.
      ...end ? { finishReason: "STOP" } : {},
      // Grounding with Google Search: where the answer came from, on the last chunk's candidate.
      ...end?.searchResults ? {
        groundingMetadata: {
          webSearchQueries: ["scripted"],
          groundingChunks: end.searchResults.map((r) => ({ web: { uri: r.url, title: r.title } }))
        }
      } : {}
    }
  ],
  ...end ? { usageMetadata: usageMetadata(end) } : {},
  modelVersion: model
});
async function stream2(res, reply, model, chunkText) {
  res.writeHead(200, { "content-type": "text/event-stream", ...reply.headers });
  const send = async (value) => {
    res.write(`data: ${JSON.stringify(value)}\r
\r
`);
    await nextTick2();
  };
  for (const piece of pieces(reply.reasoning ?? "", chunkText))
    await send(response([{ text: piece, thought: true }], model));
  for (const piece of pieces(reply.text ?? "", chunkText)) await send(response([{ text: piece }], model));
  if (await fault(res, reply, 'data: {"candidates":[{"content":\r\n\r\n')) return;
  if (reply.midStreamError !== void 0) {
    await send({ error: { code: 503, message: reply.midStreamError, status: "UNAVAILABLE" } });
    return void res.end();
  }
  await send(response(callParts(reply), model, reply));
  res.end();
}
function whole2(res, reply, model) {
  const parts = [];
  if (reply.reasoning) parts.push({ text: reply.reasoning, thought: true });
  if (reply.text) parts.push({ text: reply.text });
  parts.push(...callParts(reply));
  res.writeHead(200, { "content-type": "application/json", ...reply.headers });
  res.end(JSON.stringify(response(parts, model, reply)));
}

// ../../work/main/test/support/wire-models.ts
var qwen3Spec = {
  name: "qwen3:latest",
  architecture: "qwen3",
  contextLength: 40960,
  capabilities: ["completion", "tools"]
};
var defaultOllama = [qwen3Spec];
function modelListAnswer(route2, headers, body, options) {
  const ollama = options.ollamaModels ?? defaultOllama;
  switch (route2) {
    case "GET /api/tags":
      return { status: 200, body: { models: ollama.map(tag) } };
    case "POST /api/show": {
      const wanted = body?.model ?? "";
      const spec = ollama.find((m) => m.name === wanted || m.name === `${wanted}:latest`) ?? // The first version of this server answered any name; tests that name no models keep that.
      (options.ollamaModels ? void 0 : { ...defaultOllama[0], name: wanted });
      if (!spec) return { status: 404, body: { error: `model '${wanted}' not found` } };
      return { status: 200, body: show(spec, options.capabilities) };
    }
    case "GET /v1/models":
      if (headers["anthropic-version"]) return { status: 200, body: anthropicModels };
      return { status: 200, body: options.openrouter ? openRouterModels : openaiModels };
    case "GET /v1beta/models":
      return { status: 200, body: geminiModels };
    default:
      return void 0;
  }
}
function tag(spec) {
  return {
    name: spec.name,
    model: spec.name,
    modified_at: "2025-01-01T00:00:00Z",
    size: 5e9,
    digest: "x",
    details: { format: "gguf", family: spec.architecture ?? "qwen3", parameter_size: "8.2B" }
  };
}
function show(spec, override) {
  const architecture = spec.architecture ?? "qwen3";
  const capabilities = override ?? spec.capabilities;
  return {
    modelfile: "",
    parameters: "",
    template: "",
    details: { family: architecture, parameter_size: "8.2B", quantization_level: "Q4_K_M" },
    model_info: {
      "general.architecture": architecture,
      ...spec.contextLength ? { [`${architecture}.context_length`]: spec.contextLength } : {}
    },
    ...capabilities === null ? {} : { capabilities: capabilities ?? ["completion", "tools"] }
  };
}
var openaiModels = {
  object: "list",
  data: [
    { id: "gpt-4o-mini", object: "model", created: 1, owned_by: "scripted" },
    { id: "text-embedding-3-small", object: "model", created: 1, owned_by: "scripted" }
  ]
};
var openRouterModels = {
  data: [
    {
      id: "anthropic/claude-sonnet-4",
      name: "Anthropic: Claude Sonnet 4",
      context_length: 2e5,
      pricing: { prompt: "0.000003", completion: "0.000015", request: "0" },
      top_provider: { context_length: 2e5, max_completion_tokens: 64e3, is_moderated: false },
      supported_parameters: ["max_tokens", "temperature", "tools", "tool_choice", "reasoning"]
    },
    {
      id: "mistralai/mistral-7b-instruct:free",
      name: "Mistral 7B Instruct (free)",
      context_length: 32768,
      pricing: { prompt: "0", completion: "0" },
      top_provider: { context_length: 32768, max_completion_tokens: null, is_moderated: false },
      supported_parameters: ["max_tokens", "temperature"]
    }
  ]
};
var anthropicModels = {
  data: [
    {
      type: "model",
      id: "claude-sonnet-4-5-20250929",
      display_name: "Claude Sonnet 4.5",
      created_at: "2025-09-29T00:00:00Z"
    },
    {
      type: "model",
      id: "claude-haiku-4-5-20251001",
      display_name: "Claude Haiku 4.5",
      created_at: "2025-10-01T00:00:00Z"
    }
  ],
  has_more: false,
  first_id: "claude-sonnet-4-5-20250929",
  last_id: "claude-haiku-4-5-20251001"
};
var geminiModels = {
  models: [
    {
      name: "models/gemini-2.5-flash",
      displayName: "Gemini 2.5 Flash",
      inputTokenLimit: 1048576,
      outputTokenLimit: 65536,
      supportedGenerationMethods: [
        "generateContent",
        "countTokens",
        "createCachedContent",
        "batchGenerateContent"
      ]
    },
    {
      name: "models/gemini-embedding-001",
      displayName: "Gemini Embedding 001",
      inputTokenLimit: 2048,
      outputTokenLimit: 1,
      supportedGenerationMethods: ["embedContent", "countTextTokens"]
    }
  ]
};

// ../../work/main/test/support/wire-responses.ts
import { setImmediate as nextTick3 } from "node:timers/promises";
function callItem(call, replyNumber, index) {
  const callId2 = call.id ?? `call_${replyNumber}_${index}`;
  const id = `fc_${replyNumber}_${index}`;
  return call.input !== void 0 ? {
    type: "custom_tool_call",
    id,
    call_id: callId2,
    name: call.name,
    input: call.input,
    status: "completed"
  } : {
    type: "function_call",
    id,
    call_id: callId2,
    name: call.name,
    arguments: call.rawArgs ?? JSON.stringify(call.args ?? {}),
    status: "completed"
  };
}
var responsesWire = {
  matches: (method, path) => method === "POST" && path === "/v1/responses",
  errorBody: { error: { message: "scripted error", type: "server_error", code: null } },
  problem: (body) => Array.isArray(body?.input) ? void 0 : "input: expected an array",
  rejection: openaiRejection,
  async respond({ res, reply, request, replyNumber }) {
    res.writeHead(200, { "content-type": "text/event-stream", ...reply.headers });
    const send = async (data) => {
      res.write(`event: ${data.type}
data: ${JSON.stringify(data)}

`);
      await nextTick3();
    };
    const model = String(request.body?.model ?? "unknown");
    const id = `resp_${replyNumber}`;
    await send({
      type: "response.created",
      response: {
        id,
        object: "response",
        created_at: 17e8,
        model,
        status: "in_progress",
        output: []
      }
    });
    const output = [];
    if (reply.searchResults) {
      const item = { type: "web_search_call", id: `ws_${replyNumber}` };
      await send({
        type: "response.output_item.added",
        output_index: output.length,
        item: { ...item, status: "in_progress" }
      });
      const done = { ...item, status: "completed", action: { type: "search", query: "scripted" } };
      await send({ type: "response.output_item.done", output_index: output.length, item: done });
      output.push(done);
    }
    const calls = reply.toolCalls ?? [];
    if (reply.text || calls.length === 0) {
      const index = output.length;
      const message = { type: "message", id: `msg_${replyNumber}`, role: "assistant", status: "in_progress" };
      await send({
        type: "response.output_item.added",
        output_index: index,
        item: { ...message, content: [] }
      });
      for (const delta of pieces(reply.text ?? "", true))
        await send({ type: "response.output_text.delta", item_id: message.id, output_index: index, delta });
      const annotations = (reply.searchResults ?? []).map((r) => ({
        type: "url_citation",
        start_index: 0,
        end_index: 0,
        url: r.url,
        title: r.title
      }));
      for (const [i, annotation] of annotations.entries()) {
        await send({
          type: "response.output_text.annotation.added",
          item_id: message.id,
          output_index: index,
          annotation_index: i,
          annotation
        });
      }
      const done = {
        ...message,
        status: "completed",
        content: [{ type: "output_text", text: reply.text ?? "", annotations }]
      };
      await send({ type: "response.output_item.done", output_index: index, item: done });
      output.push(done);
    }
    for (const [i, call] of calls.entries()) {
      const index = output.length;
      const item = callItem(call, replyNumber, i);
      const opening = item.type === "function_call" ? { ...item, arguments: "", status: "in_progress" } : item;
      await send({ type: "response.output_item.added", output_index: index, item: opening });
      if (item.type === "function_call")
        await send({
          type: "response.function_call_arguments.delta",
          item_id: item.id,
          output_index: index,
          delta: item.arguments
        });
      await send({ type: "response.output_item.done", output_index: index, item });
      output.push(item);
    }
    const usage = reply.usage ?? defaultUsage;
    await send({
      type: "response.completed",
      response: {
        id,
        object: "response",
        created_at: 17e8,
        model,
        status: "completed",
        output,
        usage: {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: usage.cacheRead ?? 0 },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.output
        }
      }
    });
    res.end();
  }
};

// ../../work/main/test/support/model-server.ts
var wires = [anthropicWire, geminiWire, responsesWire];
var defaultUsage = { input: 10, output: 5 };
async function startModelServer(options) {
  const requests = [];
  const routes = [];
  const rejections = [];
  const held = /* @__PURE__ */ new Set();
  let step = 0;
  async function handle(req, res) {
    const rawBody = await readBody(req);
    const path = (req.url ?? "/").split("?")[0];
    const route2 = `${req.method} ${path}`;
    routes.push(route2);
    if (route2 === "GET /api/version") return sendJson(res, 200, { version: "0.12.6" });
    if (route2 === "POST /api/show" && options.showAfter) {
      held.add(res);
      res.once("close", () => held.delete(res));
      await options.showAfter;
      held.delete(res);
    }
    const list = modelListAnswer(route2, req.headers, parseJson(rawBody), options);
    if (list) return sendJson(res, list.status, list.body);
    const isOllama = route2 === "POST /api/chat";
    const wire = wires.find((w) => w.matches(req.method ?? "", path));
    if (!wire && !isOllama && route2 !== "POST /v1/chat/completions") {
      return sendJson(res, 404, { error: `scripted model server: no route ${route2}` });
    }
    const request = {
      path,
      method: req.method ?? "POST",
      headers: { ...req.headers },
      body: parseJson(rawBody),
      rawBody,
      receivedAt: Date.now()
    };
    requests.push(request);
    const problem = wire ? wire.problem(request.body) : chatMessagesProblem(request.body?.messages);
    if (problem !== void 0) {
      rejections.push(problem);
      const rejection = wire ? wire.rejection(problem) : (isOllama ? ollamaRejection : openaiRejection)(problem);
      return sendJson(res, 400, rejection);
    }
    const next = options.script[step];
    if (next === void 0) {
      return sendJson(res, 500, { error: `scripted model server: script exhausted after ${step} replies` });
    }
    step += 1;
    const reply = typeof next === "function" ? await next(request) : next;
    if (reply.hang) return;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.status !== void 0)
      return sendError(
        res,
        wire ? { ...reply, errorBody: reply.errorBody ?? wire.errorBody } : reply,
        isOllama
      );
    const stream3 = request.body?.stream !== false;
    const flags = {
      chunkText: options.chunkText ?? true,
      splitToolArgs: options.splitToolArgs ?? true,
      openrouter: options.openrouter ?? false
    };
    if (wire) return wire.respond({ res, reply, request, replyNumber: step, flags });
    if (isOllama)
      await (stream3 ? ollamaStream(res, reply, request, flags) : ollamaWhole(res, reply, request));
    else
      await (stream3 ? openaiStream(res, reply, request, step, flags) : openaiWhole(res, reply, request, step));
  }
  const { url, close } = await listenLoopback((req, res) => {
    void handle(req, res).catch((error) => {
      if (!res.headersSent) sendJson(res, 500, { error: `scripted model server: ${String(error)}` });
      else res.destroy();
    });
  });
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
    close
  };
}
async function ollamaStream(res, reply, request, flags) {
  res.writeHead(200, { "content-type": "application/x-ndjson", ...reply.headers });
  const base = () => ({ model: request.body?.model ?? "unknown", created_at: (/* @__PURE__ */ new Date()).toISOString() });
  const line = async (value) => {
    res.write(`${JSON.stringify(value)}
`);
    await nextTick4();
  };
  for (const piece of pieces(reply.reasoning ?? "", flags.chunkText)) {
    await line({ ...base(), message: { role: "assistant", content: "", thinking: piece }, done: false });
  }
  for (const piece of pieces(reply.text ?? "", flags.chunkText)) {
    await line({ ...base(), message: { role: "assistant", content: piece }, done: false });
  }
  if (await fault(res, reply, '{"model":"qwen3","message":{"role":"assi\n')) return;
  if (reply.midStreamError !== void 0) {
    await line({ error: reply.midStreamError });
    return void res.end();
  }
  if (reply.toolCalls?.length) {
    await line({
      ...base(),
      message: { role: "assistant", content: "", tool_calls: ollamaCalls(reply) },
      done: false
    });
  }
  const usage = reply.usage ?? defaultUsage;
  await line({
    ...base(),
    message: { role: "assistant", content: "" },
    done: true,
    done_reason: reply.finish ?? "stop",
    total_duration: 1e6,
    prompt_eval_count: usage.input,
    eval_count: usage.output
  });
  res.end();
}
function ollamaWhole(res, reply, request) {
  const usage = reply.usage ?? defaultUsage;
  const message = { role: "assistant", content: reply.text ?? "" };
  if (reply.reasoning) message.thinking = reply.reasoning;
  if (reply.toolCalls?.length) message.tool_calls = ollamaCalls(reply);
  sendJson(res, 200, {
    model: request.body?.model ?? "unknown",
    created_at: (/* @__PURE__ */ new Date()).toISOString(),
    message,
    done: true,
    done_reason: "stop",
    prompt_eval_count: usage.input,
    eval_count: usage.output
  });
}
function ollamaCalls(reply) {
  return (reply.toolCalls ?? []).map((call) => ({
    ...call.id ? { id: call.id } : {},
    function: { name: call.name, arguments: call.args }
  }));
}
async function openaiStream(res, reply, request, replyNumber, flags) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...reply.headers });
  const id = `chatcmpl-${replyNumber}`;
  const model = request.body?.model ?? "unknown";
  const send = async (value) => {
    res.write(`data: ${JSON.stringify(value)}

`);
    await nextTick4();
  };
  const chunk = (delta, finish = null) => ({
    id,
    object: "chat.completion.chunk",
    created: 1,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }]
  });
  if (flags.openrouter) res.write(": OPENROUTER PROCESSING\n\n");
  await send(chunk({ role: "assistant", content: "" }));
  const reasoningField = flags.openrouter ? "reasoning" : "reasoning_content";
  for (const piece of pieces(reply.reasoning ?? "", flags.chunkText))
    await send(chunk({ [reasoningField]: piece }));
  if (flags.openrouter) res.write(": OPENROUTER PROCESSING\n\n");
  for (const piece of pieces(reply.text ?? "", flags.chunkText)) await send(chunk({ content: piece }));
  if (reply.citations?.length) {
    const annotations = reply.citations.map((c) => ({
      type: "url_citation",
      url_citation: { ...c, start_index: 0, end_index: 0 }
    }));
    await send(chunk({ annotations }));
  }
  if (await fault(res, reply, 'data: {"id":"chatcmpl-x","choices":[{"delta":{"content":"oo\n\n')) return;
  if (reply.midStreamError !== void 0) {
    await send({ error: { message: reply.midStreamError, type: "server_error", code: null } });
    return void res.end();
  }
  const calls = reply.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    const args = call.rawArgs ?? JSON.stringify(call.args ?? {});
    const fragments = flags.splitToolArgs ? splitInto(args, 3) : [args];
    const first = {
      index,
      id: call.id ?? callId(replyNumber, index),
      type: "function",
      function: { name: call.name, arguments: "" }
    };
    await send(chunk({ tool_calls: [first] }));
    for (const fragment of fragments)
      await send(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
  }
  await send(chunk({}, reply.finish ?? (calls.length > 0 ? "tool_calls" : "stop")));
  if (flags.openrouter || request.body?.stream_options?.include_usage) {
    const usage = reply.usage ?? defaultUsage;
    await send({
      id,
      object: "chat.completion.chunk",
      created: 1,
      model,
      choices: [],
      usage: openaiUsage(usage)
    });
  }
  res.write("data: [DONE]\n\n");
  res.end();
}
function openaiWhole(res, reply, request, replyNumber) {
  const calls = reply.toolCalls ?? [];
  const message = { role: "assistant", content: reply.text ?? null };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  if (calls.length > 0) {
    message.tool_calls = calls.map((call, index) => ({
      id: call.id ?? callId(replyNumber, index),
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) }
    }));
  }
  sendJson(res, 200, {
    id: `chatcmpl-${replyNumber}`,
    object: "chat.completion",
    created: 1,
    model: request.body?.model ?? "unknown",
    choices: [{ index: 0, message, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }],
    usage: openaiUsage(reply.usage ?? defaultUsage)
  });
}
function openaiUsage(usage) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    ...usage.cacheRead ? { prompt_tokens_details: { cached_tokens: usage.cacheRead } } : {}
  };
}
var callId = (replyNumber, index) => `call_${replyNumber}_${index}`;
async function fault(res, reply, garbage) {
  if (reply.stall) return true;
  if (reply.truncate) {
    res.end();
    return true;
  }
  if (reply.garbage) {
    res.write(garbage);
    await nextTick4();
  }
  if (!reply.reset) return false;
  await new Promise((resolve) => res.write("", () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 20));
  res.socket?.resetAndDestroy();
  return true;
}
function sendError(res, reply, isOllama) {
  const fallback = isOllama ? { error: "scripted error" } : { error: { message: "scripted error", type: "api_error", param: null, code: null } };
  const body = reply.errorBody ?? fallback;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(reply.status, {
    "content-type": typeof body === "string" ? "text/plain" : "application/json",
    ...reply.headers
  });
  res.end(text);
}
function parseJson(text) {
  try {
    return text === "" ? void 0 : JSON.parse(text);
  } catch {
    return void 0;
  }
}
function pieces(text, chunk) {
  if (text === "") return [];
  if (!chunk) return [text];
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  return words.length > 1 || text.length < 2 ? words : splitInto(text, 2);
}
function splitInto(text, parts) {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [text];
}
export {
  defaultUsage,
  fault,
  pieces,
  splitInto,
  startModelServer
};
