// The OpenAI provider: @ai-sdk/openai over Chat Completions (not the Responses API, so proxies speaking chat work too).
import { createOpenAI } from '@ai-sdk/openai';
import type { Model } from '../core/model.js';
import { aiSdkModel } from './ai-sdk.js';
import { type HostedModelOptions, hostedErrorContext, trimBaseUrl } from './hosted.js';

export function createOpenAIModel(options: HostedModelOptions): Model {
  const baseUrl = trimBaseUrl(options.baseUrl);
  const provider = createOpenAI({ baseURL: baseUrl, apiKey: options.apiKey });
  return aiSdkModel(provider.chat(options.model), {
    provider: 'openai',
    errors: hostedErrorContext('openai', options, baseUrl),
  });
}
