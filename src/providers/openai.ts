// The OpenAI provider: @ai-sdk/openai over Chat Completions (not the Responses API, so proxies speaking chat work too);
// only a web search goes to the Responses API, where OpenAI's search is.
import { createOpenAI } from '@ai-sdk/openai';
import type { Model } from '../core/model.js';
import { aiSdkModel } from './ai-sdk.js';
import { type HostedModelOptions, hostedErrorContext, trimBaseUrl } from './hosted.js';
import { httpFetch } from './http-fetch.js';

export function createOpenAIModel(options: HostedModelOptions): Model {
  const baseUrl = trimBaseUrl(options.baseUrl);
  const provider = createOpenAI({ baseURL: baseUrl, apiKey: options.apiKey, fetch: httpFetch });
  return aiSdkModel(provider.chat(options.model), {
    provider: 'openai',
    // Web search lives in the Responses API: a search request goes there, with its web_search tool.
    webSearch: {
      url: baseUrl,
      model: () => provider.responses(options.model),
      tools: () => [{ type: 'provider', id: 'openai.web_search', name: 'web_search', args: {} }],
    },
    errors: hostedErrorContext('openai', options, baseUrl),
  });
}
