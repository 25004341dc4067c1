// The Ollama provider: ollama-ai-provider-v2 over the native /api/chat, with a context size fitted to each prompt.
import { createOllama } from 'ollama-ai-provider-v2';
import type { Model, ModelRequest } from '../core/model.js';
import { aiSdkModel } from './ai-sdk.js';
import type { ModelCapabilities } from './capabilities.js';
import { normalizeOllamaHost, ollamaErrorContext, ollamaHeaders } from './ollama-api.js';
import { ollamaFetch } from './ollama-fetch.js';

export { normalizeOllamaHost } from './ollama-api.js';

export interface OllamaModelOptions {
  model: string;
  /** As OLLAMA_HOST accepts it: `host`, `host:port`, `http://host:port`, with or without a trailing slash or `/api`. */
  baseUrl: string;
  /** From /api/show when it answered: the context length caps num_ctx. */
  capabilities?: ModelCapabilities;
  /** Sent as a bearer token to an Ollama behind authentication. */
  apiKey?: string;
}

/** Room left for the model's answer on top of the prompt estimate. */
const outputReserve = 4096;
const minContext = 8192;

export function createOllamaModel(options: OllamaModelOptions): Model {
  const root = normalizeOllamaHost(options.baseUrl);
  // The provider appends `/chat` to its baseURL, so it wants the `/api` prefix included.
  const languageModel = createOllama({
    baseURL: `${root}/api`,
    fetch: ollamaFetch,
    headers: ollamaHeaders(options.apiKey),
  })(options.model);
  const maxContext = options.capabilities?.contextWindow;
  return aiSdkModel(languageModel, {
    provider: 'ollama',
    capabilities: options.capabilities,
    // Ollama reads sampling settings only from `options` (the provider's top-level temperature is ignored there).
    providerOptions: (request) => ({
      ollama: {
        options: {
          num_ctx: ollamaContextSize(request, maxContext),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        },
      },
    }),
    errors: ollamaErrorContext(root, options.model),
  });
}

/**
 * num_ctx for this request: a chars/4 estimate of messages and tool schemas plus room for the answer, rounded up
 * to a power of two and at least 8192. Powers of two keep it stable across turns, since a change reloads the model.
 * Never more than the model's context length (a larger num_ctx only wastes memory, or fails on small models).
 */
export function ollamaContextSize(
  request: Pick<ModelRequest, 'messages' | 'tools'>,
  maxContext?: number,
): number {
  let chars = JSON.stringify(request.tools).length;
  for (const message of request.messages) {
    chars += message.content.length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) chars += call.name.length + call.input.length;
    }
  }
  const needed = Math.ceil(chars / 4) + outputReserve;
  const size = Math.max(minContext, 2 ** Math.ceil(Math.log2(needed)));
  return maxContext === undefined ? size : Math.min(size, maxContext);
}
