// The Anthropic provider: @ai-sdk/anthropic over the Messages API (streamed SSE events).
import { createAnthropic } from '@ai-sdk/anthropic';
import type { Model } from '../core/model.js';
import { aiSdkModel } from './ai-sdk.js';
import { type HostedModelOptions, hostedErrorContext, trimBaseUrl } from './hosted.js';

/**
 * max_tokens is required by the API. The SDK would otherwise ask for the model's full output limit (64k for
 * Sonnet 4.5), which counts against rate limits; an agent turn rarely needs more than this.
 */
const maxOutputTokens = 16_384;

export function createAnthropicModel(options: HostedModelOptions): Model {
  const baseUrl = trimBaseUrl(options.baseUrl);
  const provider = createAnthropic({ baseURL: baseUrl, apiKey: options.apiKey });
  return aiSdkModel(provider(options.model), {
    provider: 'anthropic',
    maxOutputTokens,
    errors: hostedErrorContext('anthropic', options, baseUrl),
  });
}
