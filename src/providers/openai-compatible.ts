// The OpenAI-compatible provider: any Chat Completions server (OpenAI, OpenRouter, vLLM, LM Studio, Ollama /v1).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { Model } from '../core/model.js';
import { aiSdkModel } from './ai-sdk.js';
import { compatibleFetch } from './compatible-fetch.js';
import { chatStreamErrorAsHttp } from './stream-error.js';

export interface OpenAICompatibleModelOptions {
  model: string;
  /** e.g. `http://host:port/v1`; the provider appends `/chat/completions`. */
  baseUrl: string;
  apiKey?: string;
}

export function createOpenAICompatibleModel(options: OpenAICompatibleModelOptions): Model {
  const baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: baseUrl,
    apiKey: options.apiKey,
    // Without it, streamed responses carry no token usage.
    includeUsage: true,
    // Tool-call arguments sent as JSON objects (some local servers) mended to the JSON text the schema takes.
    fetch: compatibleFetch,
  });
  return aiSdkModel(provider.chatModel(options.model), {
    provider: 'openai-compatible',
    streamError: (error) => chatStreamErrorAsHttp(error, `${baseUrl}/chat/completions`),
    errors: {
      label: 'the OpenAI-compatible server',
      provider: 'openai-compatible',
      baseUrl,
      modelId: options.model,
      unreachableHint: 'check --base-url / OPENAI_BASE_URL and that the server is running',
      credentialsHint: 'set OPENAI_API_KEY or provider.openai-compatible.api_key',
      notFoundHint: 'choose another model with --model',
      secrets: options.apiKey ? [options.apiKey] : [],
    },
  });
}
