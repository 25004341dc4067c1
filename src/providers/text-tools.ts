// Tool calls for models without native tool calling (provider.<name>.tool_protocol: text): a Model wrapping any
// provider's, between it and the loop. No native tools are sent; the tools are described in the system prompt and
// the calls are parsed from the streamed reply. The loop, the session and the UI see ordinary tool calls.
import { randomUUID } from 'node:crypto';
import { ExitCode, KeelError } from '../core/errors.js';
import type { Message, ToolCall } from '../core/messages.js';
import type { FinishReason, Model, ModelEvent, ModelRequest } from '../core/model.js';
import { type TextCall, ToolCallSplitter } from './text-call-splitter.js';
import { brokenNote, textCallMetadataKey, toTextMessages } from './text-tools-messages.js';

export type ToolProtocol = 'native' | 'text' | 'auto';

/** Broken replies corrected in a row before the run fails. */
export const maxCorrections = 3;

export class TextToolCallError extends KeelError {
  constructor(modelId: string, problem: string) {
    super(
      'text_tool_calls',
      ExitCode.failed,
      `model "${modelId}" wrote ${maxCorrections + 1} broken tool calls in a row (last: ${problem})`,
      { hint: 'try a larger model, or one with native tool calling (provider.<name>.tool_protocol: native)' },
    );
  }
}

export function textToolModel(inner: Model): Model {
  return {
    provider: inner.provider,
    modelId: inner.modelId,
    ...(inner.capabilities ? { capabilities: inner.capabilities } : {}),
    ...(inner.webSearch ? { webSearch: inner.webSearch } : {}),
    stream: (request) => streamWithTextTools(inner, request),
  };
}

/**
 * auto: native tool calling until the provider refuses it for this model (model_without_tools: the wordings are in
 * server-errors.ts), then the text protocol for this and every later request. The refusal comes before anything
 * streamed.
 */
export function autoToolModel(inner: Model): Model {
  const text = textToolModel(inner);
  let refused = false;
  async function* stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    if (refused) return yield* text.stream(request);
    let streamed = false;
    try {
      for await (const event of inner.stream(request)) {
        streamed = true;
        yield event;
      }
    } catch (error) {
      if (streamed || !(error instanceof KeelError) || error.code !== 'model_without_tools') throw error;
      refused = true;
      yield* text.stream(request);
    }
  }
  return { ...text, stream };
}

async function* streamWithTextTools(inner: Model, request: ModelRequest): AsyncGenerator<ModelEvent> {
  if (request.tools.length === 0) return yield* inner.stream(request);
  const names = new Set(request.tools.map((tool) => tool.name));
  const messages = toTextMessages(request.messages, request.tools);
  let splitter = new ToolCallSplitter(names);
  let calls: TextCall[] = [];
  let finish: FinishReason | undefined;
  for await (const event of inner.stream({ ...request, messages, tools: [] })) {
    if (event.type === 'text') {
      const out = splitter.push(event.delta);
      calls.push(...out.calls);
      if (out.text) yield { type: 'text', delta: out.text };
    } else if (event.type === 'finish') {
      finish = event.reason;
    } else {
      // A retry sends the request again: what this attempt held back is void, like what it streamed.
      if (event.type === 'retry') {
        splitter = new ToolCallSplitter(names);
        calls = [];
      }
      yield event;
    }
  }
  const rest = splitter.end();
  calls.push(...rest.calls);
  if (rest.text) yield { type: 'text', delta: rest.text };
  const broken = calls.find((call) => call.kind === 'broken');
  if (broken?.kind === 'broken' && brokenStreak(request.messages) >= maxCorrections) {
    throw new TextToolCallError(inner.modelId, broken.problem);
  }
  for (const call of calls) yield { type: 'tool-call', call: toToolCall(call) };
  if (calls.length > 0 && finish !== 'content-filter') finish = 'tool-calls';
  if (finish) yield { type: 'finish', reason: finish };
}

/** A broken call still becomes a call: the executor refuses it, and the next request adds the correction. */
function toToolCall(call: TextCall): ToolCall {
  // Random like the providers' own: checkpoints and the audit tell calls apart by id across a whole session.
  const id = `text_call_${randomUUID()}`;
  if (call.kind === 'call') return { id, name: call.name, input: call.input };
  return {
    id,
    name: call.name,
    input: call.input,
    providerMetadata: { [textCallMetadataKey]: { problem: call.problem, raw: call.raw } },
  };
}

/** How many of the latest assistant messages, back to the user's last word, had a broken call. */
function brokenStreak(messages: readonly Message[]): number {
  let streak = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') break;
    if (message.role !== 'assistant') continue;
    if (!message.toolCalls?.some((call) => brokenNote(call))) break;
    streak++;
  }
  return streak;
}
