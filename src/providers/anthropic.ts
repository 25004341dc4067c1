// The Anthropic provider: @ai-sdk/anthropic over the Messages API (streamed SSE events), with prompt caching.
import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV3CallOptions, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { Model } from '../core/model.js';
import { aiSdkModel } from './ai-sdk.js';
import { type HostedModelOptions, hostedErrorContext, trimBaseUrl } from './hosted.js';
import { httpFetch } from './http-fetch.js';
import { inStreamHttpError } from './stream-error.js';

/**
 * max_tokens is required by the API. The SDK would otherwise ask for the model's full output limit (64k for
 * Sonnet 4.5), which counts against rate limits; an agent turn rarely needs more than this.
 */
const maxOutputTokens = 16_384;

const breakpoint: SharedV3ProviderOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/**
 * Marks three prompt-cache breakpoints (Anthropic allows four): the last tool, the system prompt and the
 * conversation's last message. Tools, system and history come first in Anthropic's cache order and only grow at
 * the end, so the next request reads everything this one wrote; only the last message's marker moves.
 */
export function withCacheBreakpoints(call: LanguageModelV3CallOptions): LanguageModelV3CallOptions {
  const tools = call.tools?.map((tool, i, all) =>
    i === all.length - 1 ? { ...tool, providerOptions: breakpoint } : tool,
  );
  const last = call.prompt.length - 1;
  const prompt = call.prompt.map((message, i) =>
    (i === 0 && message.role === 'system') || (i === last && message.role !== 'system')
      ? { ...message, providerOptions: breakpoint }
      : message,
  );
  return { ...call, prompt, ...(tools ? { tools } : {}) };
}

/** Anthropic's error types and the HTTP status each stands for (its "HTTP errors" reference). */
const errorStatus: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/**
 * An `error` event in the stream (after the 200) as the HTTP error of its type, so it is classified and retried
 * alike: an in-stream overloaded_error is the 529 it stands for. The SDK does this only for an error that is the
 * stream's first event; later it passes the bare `{type, message}` on.
 */
export function streamErrorAsHttp(error: unknown, url: string): unknown {
  const { type, message } = (error ?? {}) as { type?: unknown; message?: unknown };
  const statusCode = typeof type === 'string' ? errorStatus[type] : undefined;
  if (statusCode === undefined || typeof message !== 'string') return error;
  return inStreamHttpError(message, statusCode, url, { type: 'error', error });
}

export function createAnthropicModel(options: HostedModelOptions): Model {
  const baseUrl = trimBaseUrl(options.baseUrl);
  const provider = createAnthropic({ baseURL: baseUrl, apiKey: options.apiKey, fetch: httpFetch });
  return aiSdkModel(provider(options.model), {
    provider: 'anthropic',
    maxOutputTokens,
    toolResultImages: 'inline',
    prepareCall: withCacheBreakpoints,
    streamError: (error) => streamErrorAsHttp(error, `${baseUrl}/messages`),
    // Anthropic's server-side web search: one search per request, its results as sources.
    webSearch: {
      url: baseUrl,
      tools: () => [
        { type: 'provider', id: 'anthropic.web_search_20250305', name: 'web_search', args: { maxUses: 1 } },
      ],
    },
    errors: hostedErrorContext('anthropic', options, baseUrl),
  });
}
