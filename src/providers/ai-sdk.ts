// Adapts an AI SDK LanguageModelV3 to Keel's Model: calls doStream directly (no `ai` runtime) and maps both ways.
import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  InvalidResponseDataError,
  type JSONObject,
  JSONParseError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3FinishReason,
  type LanguageModelV3FunctionTool,
  type LanguageModelV3Message,
  type LanguageModelV3Prompt,
  type LanguageModelV3ProviderTool,
  type LanguageModelV3StreamPart,
  type LanguageModelV3ToolResultPart,
  type LanguageModelV3Usage,
  type SharedV3ProviderOptions,
  TypeValidationError,
} from '@ai-sdk/provider';
import { describeImage, type ImagePart, type Message, type Usage } from '../core/messages.js';
import type { FinishReason, Model, ModelEvent, ModelRequest, ToolSpec } from '../core/model.js';
import { baselineWasmOnly } from '../core/wasm-tier.js';
import type { ModelCapabilities } from './capabilities.js';
import { abortError, BrokenStreamError, classifyProviderError, type ProviderErrorContext } from './errors.js';
import { bodyDataChannel } from './http-response.js';

export interface AiSdkModelOptions {
  /** Provider name as the user selects it. */
  provider: string;
  errors: ProviderErrorContext;
  /** Per-request provider options (e.g. Ollama's num_ctx sized for this prompt). */
  providerOptions?: (request: ModelRequest) => SharedV3ProviderOptions | undefined;
  /** Cap on the answer's length, for APIs that require one (Anthropic's max_tokens). */
  maxOutputTokens?: number;
  capabilities?: ModelCapabilities;
  /**
   * `inline`: the wire format carries images inside tool results (Anthropic, Gemini). Otherwise (Chat
   * Completions, Ollama) a tool result's images follow the results as a user message, since those formats would
   * serialise them into the result's text.
   */
  toolResultImages?: 'inline' | 'user-message';
  /** A provider's in-stream error as the failure it stands for (Anthropic's `error` event as its HTTP error). */
  streamError?: (error: unknown) => unknown;
  /** A provider's last word on the call (Anthropic's prompt-cache breakpoints). */
  prepareCall?: (call: LanguageModelV3CallOptions) => LanguageModelV3CallOptions;
  /** The provider's own web search, for a request that asks for it (ModelRequest.webSearch). */
  webSearch?: NativeWebSearch;
}

/** How a provider searches the web in a request: its search tool, or another model of it that searches. */
export interface NativeWebSearch {
  /** The API the search goes to (the policy judges its domain). */
  url: string;
  tools?: (maxResults: number) => LanguageModelV3ProviderTool[];
  model?: (maxResults: number) => LanguageModelV3;
}

export function aiSdkModel(model: LanguageModelV3, options: AiSdkModelOptions): Model {
  // Provider packages print some notices with console.warn unless the AI SDK's own switch is off (OpenRouter:
  // "reasoning_details entries were removed"): a stray line on the chat's screen, or in a run's piped stderr.
  quietProviderWarnings();
  return {
    provider: options.provider,
    modelId: model.modelId,
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    ...(options.webSearch ? { webSearch: { url: options.webSearch.url } } : {}),
    stream: (request) => {
      const search = request.webSearch && options.webSearch;
      return streamEvents(search?.model?.(request.webSearch!.maxResults) ?? model, options, request);
    },
  };
}

async function* streamEvents(
  model: LanguageModelV3,
  options: AiSdkModelOptions,
  request: ModelRequest,
): AsyncGenerator<ModelEvent> {
  const { signal } = request;
  if (signal.aborted) throw abortError(signal);
  const searchTools = (request.webSearch && options.webSearch?.tools?.(request.webSearch.maxResults)) || [];
  const tools = [...request.tools.map(toFunctionTool), ...searchTools];
  const base: LanguageModelV3CallOptions = {
    prompt: toPrompt(request.messages, options.toolResultImages),
    tools: tools.length > 0 ? tools : undefined,
    abortSignal: signal,
    providerOptions: options.providerOptions?.(request),
    maxOutputTokens: options.maxOutputTokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
  const call = options.prepareCall ? options.prepareCall(base) : base;
  // Bytes of this call's response (it is sent with `signal`) are activity even when they make no part: keep-alive
  // comments of a stream that is slow but alive must not trip the idle timeout.
  const onBytes = (message: unknown) => {
    if (message === signal) request.onActivity?.();
  };
  if (request.onActivity) subscribe(bodyDataChannel, onBytes);
  try {
    yield* readParts(model, call, options, request);
  } finally {
    if (request.onActivity) unsubscribe(bodyDataChannel, onBytes);
  }
}

/** Streams one call's parts as Keel's events; every failure classified. */
async function* readParts(
  model: LanguageModelV3,
  call: LanguageModelV3CallOptions,
  options: AiSdkModelOptions,
  request: ModelRequest,
): AsyncGenerator<ModelEvent> {
  const { signal } = request;
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>;
  try {
    reader = (await model.doStream(call)).stream.getReader();
    // The first request is out: WebAssembly compiled from here on (a parser, fetch) stays on the baseline tier.
    baselineWasmOnly();
  } catch (error) {
    throw classifyProviderError(error, options.errors, signal);
  }
  let done = false;
  let finished = false;
  let sawToolCall = false;
  try {
    while (true) {
      let part: LanguageModelV3StreamPart;
      try {
        const next = await reader.read();
        if (next.done) break;
        part = next.value;
        request.onActivity?.();
        // Parts already buffered when the signal fired must not be passed on as if the call went on.
        if (signal.aborted) throw abortError(signal);
      } catch (error) {
        throw classifyProviderError(error, options.errors, signal);
      }
      switch (part.type) {
        case 'text-delta':
          if (part.delta !== '') yield { type: 'text', delta: part.delta };
          break;
        case 'reasoning-delta':
          if (part.delta !== '') yield { type: 'reasoning', delta: part.delta };
          break;
        case 'tool-call':
          // The provider ran it (its web search): not Keel's to run; its results come as sources.
          if (part.providerExecuted) break;
          sawToolCall = true;
          yield {
            type: 'tool-call',
            call: {
              id: part.toolCallId || `call_${randomUUID()}`,
              name: part.toolName,
              input: part.input,
              // Gemini's thought signature, OpenRouter's reasoning details: sent back with the call next turn.
              ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
            },
          };
          break;
        case 'source':
          if (part.sourceType === 'url') {
            yield { type: 'citation', url: part.url, ...(part.title ? { title: part.title } : {}) };
          }
          break;
        case 'finish':
          // The SDKs report a stream that just stopped as a finish with no reason from the server.
          if (part.finishReason.raw === undefined && part.finishReason.unified === 'other')
            throw classifyProviderError(endedEarly(), options.errors, signal);
          finished = true;
          yield { type: 'usage', usage: toUsage(part.usage) };
          yield { type: 'finish', reason: toFinishReason(part.finishReason, sawToolCall) };
          break;
        case 'error':
          throw classifyProviderError(
            brokenStream(part.error) ?? options.streamError?.(part.error) ?? part.error,
            options.errors,
            signal,
          );
        default:
          // start/end markers, tool-input fragments (we take the assembled tool-call), metadata, raw chunks.
          break;
      }
    }
    if (!finished) throw classifyProviderError(endedEarly(), options.errors, signal);
    done = true;
  } finally {
    // Stopping early (the consumer broke out, or we threw) must close the HTTP response, not leak it. After an
    // abort fetch has already torn it down, and cancelling would only surface the abort as an unhandled rejection.
    if (!done && !signal.aborted) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** The SDK's usage → Keel's: total input (cached included) and, when reported, the cached parts of it. */
export function toUsage(usage: LanguageModelV3Usage): Usage {
  const read = usage.inputTokens.cacheRead ?? 0;
  const write = usage.inputTokens.cacheWrite ?? 0;
  // A provider reporting only the uncached part still gives the parts: total is their sum.
  const total = usage.inputTokens.total ?? (usage.inputTokens.noCache ?? 0) + read + write;
  return {
    inputTokens: total,
    outputTokens: usage.outputTokens.total ?? 0,
    ...(read > 0 ? { cacheReadTokens: read } : {}),
    ...(write > 0 ? { cacheWriteTokens: write } : {}),
  };
}

const endedEarly = () => new BrokenStreamError('response stream ended before its finish');

/**
 * An error part that means the stream itself is broken, not that the server reported a failure: data the SDK could
 * not parse (invalid JSON, a chunk its schema rejects, bad tool-call fragments) or a stream that stopped without a
 * finish reason. A chunk holding an `error` object is the server's own report and stays what it is.
 */
function brokenStream(error: unknown): BrokenStreamError | undefined {
  if (JSONParseError.isInstance(error))
    return new BrokenStreamError('unparseable data in the response stream', { cause: error });
  if (TypeValidationError.isInstance(error)) {
    const value = error.value;
    if (typeof value === 'object' && value !== null && 'error' in value) return undefined;
    return new BrokenStreamError('unparseable data in the response stream', { cause: error });
  }
  if (InvalidResponseDataError.isInstance(error)) {
    return /without a finish reason/i.test(error.message)
      ? new BrokenStreamError('response stream ended before its finish', { cause: error })
      : new BrokenStreamError('invalid data in the response stream', { cause: error });
  }
  return undefined;
}

function toFinishReason(reason: LanguageModelV3FinishReason, sawToolCall: boolean): FinishReason {
  // Some servers say "stop" even after emitting tool calls; the calls are what matter.
  if (sawToolCall && reason.unified === 'stop') return 'tool-calls';
  return reason.unified;
}

/**
 * Keel messages → the AI SDK prompt. Consecutive tool messages become one tool message with several results; their
 * images go inside the results (`inline`) or in one user message after them.
 */
export function toPrompt(
  messages: Message[],
  toolResultImages: 'inline' | 'user-message' = 'user-message',
): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  let pending: { text: string[]; images: ImagePart[] } = { text: [], images: [] };
  const flushToolImages = () => {
    if (pending.images.length === 0) return;
    const text = `[Keel: images returned by ${pending.text.join(', ')}]`;
    prompt.push({ role: 'user', content: [{ type: 'text', text }, ...pending.images.map(filePart)] });
    pending = { text: [], images: [] };
  };
  for (const message of messages) {
    if (message.role !== 'tool') flushToolImages();
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({
          role: 'user',
          content: [
            { type: 'text', text: withMissingImages(message.content, message.images) },
            ...sent(message.images).map(filePart),
          ],
        });
        break;
      case 'assistant':
        prompt.push(toAssistant(message));
        break;
      case 'tool': {
        const images = message.isError ? [] : sent(message.images);
        const text = withMissingImages(message.content, message.isError ? undefined : message.images);
        const inline = toolResultImages === 'inline' && images.length > 0;
        const part: LanguageModelV3ToolResultPart = {
          type: 'tool-result',
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: inline
            ? {
                type: 'content',
                value: [
                  { type: 'text', text },
                  ...images.map((image) => ({
                    type: 'image-data' as const,
                    data: image.data!,
                    mediaType: image.mediaType,
                  })),
                ],
              }
            : { type: message.isError ? 'error-text' : 'text', value: text },
        };
        if (!inline && images.length > 0) {
          pending.text.push(`${message.toolName} (call ${message.toolCallId})`);
          pending.images.push(...images);
        }
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  flushToolImages();
  return prompt;
}

/** The images whose bytes are here to send. */
const sent = (images: ImagePart[] | undefined) => (images ?? []).filter((image) => image.data !== undefined);

/** The text, plus a note for each image whose bytes are gone (a resumed session whose copy was removed). */
function withMissingImages(text: string, images: ImagePart[] | undefined): string {
  const gone = (images ?? []).filter((image) => image.data === undefined);
  if (gone.length === 0) return text;
  const notes = gone.map((image) => `[Keel: the image ${describeImage(image)} is no longer available]`);
  return [text, ...notes].filter((part) => part !== '').join('\n');
}

function filePart(image: ImagePart) {
  return {
    type: 'file' as const,
    mediaType: image.mediaType,
    data: image.data!,
    ...(image.name ? { filename: image.name } : {}),
  };
}

function toAssistant(message: Extract<Message, { role: 'assistant' }>): LanguageModelV3Message {
  const content: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = [];
  // Reasoning is not sent back: models do not need their old thoughts and it costs prompt tokens.
  if (message.content !== '') content.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) {
    content.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name,
      input: parseInput(call.input),
      ...(call.providerMetadata ? { providerOptions: call.providerMetadata as SharedV3ProviderOptions } : {}),
    });
  }
  if (content.length === 0) content.push({ type: 'text', text: '' });
  return { role: 'assistant', content };
}

/** The model's argument text as an object; providers re-serialise it. Invalid JSON becomes {} (the executor already reported it). */
function parseInput(input: string): JSONObject {
  try {
    const value: unknown = JSON.parse(input);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JSONObject) : {};
  } catch {
    return {};
  }
}

export function toFunctionTool(tool: ToolSpec): LanguageModelV3FunctionTool {
  return { type: 'function', name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

/** Turns off the AI SDK ecosystem's console warnings, unless a program using Keel's library set its own logger. */
export function quietProviderWarnings(): void {
  const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  if (global.AI_SDK_LOG_WARNINGS === undefined) global.AI_SDK_LOG_WARNINGS = false;
}
