// The OpenRouter provider: @openrouter/ai-sdk-provider (reasoning deltas, url citations, in-stream errors, `:` comments).
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import type { Model } from '../core/model.js';
import { aiSdkModel } from './ai-sdk.js';
import { type HostedModelOptions, hostedErrorContext, openRouterHeaders, trimBaseUrl } from './hosted.js';
import { httpFetch } from './http-fetch.js';
import { chatStreamErrorAsHttp } from './stream-error.js';

export { openRouterHeaders } from './hosted.js';

export function createOpenRouterModel(options: HostedModelOptions): Model {
  const baseUrl = trimBaseUrl(options.baseUrl);
  const provider = createOpenRouter({
    baseURL: baseUrl,
    apiKey: options.apiKey,
    headers: openRouterHeaders,
    fetch: httpFetch,
  });
  // Usage accounting: without it the stream may end with no token counts (tokens and cost would show 0).
  return aiSdkModel(provider.chat(options.model, { usage: { include: true } }), {
    provider: 'openrouter',
    streamError: (error) => chatStreamErrorAsHttp(error, `${baseUrl}/chat/completions`),
    // OpenRouter's web plugin: the same model with search results, cited as url_citation annotations.
    webSearch: {
      url: baseUrl,
      model: (maxResults) =>
        provider.chat(options.model, {
          usage: { include: true },
          plugins: [{ id: 'web', max_results: maxResults }],
        }),
    },
    errors: hostedErrorContext('openrouter', options, baseUrl),
  });
}
