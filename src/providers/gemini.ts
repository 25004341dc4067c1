// The Gemini provider: @ai-sdk/google over generateContent / streamGenerateContent?alt=sse.
// Tool results go out as functionResponse objects and thought signatures ride back on the tool calls
// (ToolCall.providerMetadata), both handled by the SDK once ai-sdk.ts passes the metadata through.
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import type { Model } from '../core/model.js';
import { aiSdkModel } from './ai-sdk.js';
import { type HostedModelOptions, hostedErrorContext, trimBaseUrl } from './hosted.js';
import { httpFetch } from './http-fetch.js';

export function createGeminiModel(options: HostedModelOptions): Model {
  const baseUrl = trimBaseUrl(options.baseUrl);
  const provider = createGoogleGenerativeAI({ baseURL: baseUrl, apiKey: options.apiKey, fetch: httpFetch });
  return aiSdkModel(provider(options.model), {
    provider: 'gemini',
    toolResultImages: 'inline',
    // Grounding with Google Search: the answer's grounding chunks are its sources.
    webSearch: {
      url: baseUrl,
      tools: () => [{ type: 'provider', id: 'google.google_search', name: 'google_search', args: {} }],
    },
    errors: hostedErrorContext('gemini', options, baseUrl),
  });
}
