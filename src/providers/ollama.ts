// The Ollama provider: ollama-ai-provider-v2 over the native /api/chat, with a context size fitted to each prompt.
import { createOllama } from 'ollama-ai-provider-v2';
import { aiSdkModel } from './ai-sdk.js';
import type { Model, ModelRequest } from './model.js';
import { ollamaFetch } from './ollama-fetch.js';

export interface OllamaModelOptions {
  model: string;
  /** As OLLAMA_HOST accepts it: `host`, `host:port`, `http://host:port`, with or without a trailing slash or `/api`. */
  baseUrl: string;
}

const defaultPort = '11434';
/** Room left for the model's answer on top of the prompt estimate. */
const outputReserve = 4096;
const minContext = 8192;

export function createOllamaModel(options: OllamaModelOptions): Model {
  const root = normalizeOllamaHost(options.baseUrl);
  // The provider appends `/chat` to its baseURL, so it wants the `/api` prefix included.
  const languageModel = createOllama({ baseURL: `${root}/api`, fetch: ollamaFetch })(options.model);
  return aiSdkModel(languageModel, {
    provider: 'ollama',
    providerOptions: (request) => ({ ollama: { options: { num_ctx: ollamaContextSize(request) } } }),
    errors: {
      label: 'Ollama',
      provider: 'ollama',
      baseUrl: root,
      modelId: options.model,
      unreachableHint:
        'start it with `ollama serve`, set OLLAMA_HOST, or pick another provider with --provider',
      credentialsHint:
        'Ollama itself needs no key; check the proxy in front of it (--base-url / OLLAMA_HOST)',
      notFoundHint: `ollama pull ${options.model} or choose another with --model`,
    },
  });
}

/** Normalises an OLLAMA_HOST-style value to `scheme://host:port` (no trailing slash, no `/api`), as the ollama CLI reads it. */
export function normalizeOllamaHost(value: string): string {
  let rest = value.trim();
  let scheme = 'http';
  let port = defaultPort;
  const schemeMatch = /^([a-z][a-z0-9+.-]*):\/\//i.exec(rest);
  if (schemeMatch) {
    scheme = schemeMatch[1]!.toLowerCase();
    rest = rest.slice(schemeMatch[0].length);
    // Like the ollama CLI: an explicit scheme without a port means that scheme's usual port.
    port = scheme === 'https' ? '443' : '80';
  }
  const slash = rest.indexOf('/');
  let path = slash === -1 ? '' : rest.slice(slash).replace(/\/+$/, '');
  if (path === '/api') path = '';
  let hostPort = slash === -1 ? rest : rest.slice(0, slash);
  if (hostPort === '' || hostPort.startsWith(':')) hostPort = `127.0.0.1${hostPort}`;
  const hasPort = /:\d+$/.test(hostPort) && (!hostPort.startsWith('[') || hostPort.includes(']:'));
  return `${scheme}://${hasPort ? hostPort : `${hostPort}:${port}`}${path}`;
}

/**
 * num_ctx for this request: a chars/4 estimate of messages and tool schemas plus room for the answer, rounded up
 * to a power of two and at least 8192. Powers of two keep it stable across turns, since a change reloads the model.
 */
export function ollamaContextSize(request: Pick<ModelRequest, 'messages' | 'tools'>): number {
  let chars = JSON.stringify(request.tools).length;
  for (const message of request.messages) {
    chars += message.content.length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) chars += call.name.length + call.input.length;
    }
  }
  const needed = Math.ceil(chars / 4) + outputReserve;
  return Math.max(minContext, 2 ** Math.ceil(Math.log2(needed)));
}
