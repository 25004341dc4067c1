// Ollama's own REST endpoints beside chat: the host form OLLAMA_HOST takes, /api/tags (models) and /api/show
// (context length, capabilities). Plain fetch: no SDK is needed to read two JSON documents.
import * as z from 'zod';
import { once } from '../core/once.js';
import { capabilitiesOf, type ModelCapabilities, type ServerCapabilities } from './capabilities.js';
import type { ProviderErrorContext } from './errors.js';
import { fetchJson } from './fetch-json.js';

const defaultPort = '11434';

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

/** How Ollama failures are worded; `root` is normalizeOllamaHost's result. */
export function ollamaErrorContext(root: string, modelId: string): ProviderErrorContext {
  return {
    label: 'Ollama',
    provider: 'ollama',
    baseUrl: root,
    modelId,
    unreachableHint:
      'start it with `ollama serve`, set OLLAMA_HOST, or pick another provider with --provider',
    credentialsHint:
      'an Ollama behind authentication takes its key from OLLAMA_API_KEY (or provider.ollama.api_key); check it and the address (--base-url / OLLAMA_HOST)',
    notFoundHint: `ollama pull ${modelId} or choose another with --model`,
  };
}

const tagsSchema = once(() => z.object({ models: z.array(z.object({ name: z.string() }).loose()) }).loose());
/** What POST /api/show says of one model, nothing from the table. Throws classified errors (unreachable, not found). */
export async function readOllamaShow(
  root: string,
  modelId: string,
  signal?: AbortSignal,
  apiKey?: string,
): Promise<ServerCapabilities> {
  const context = ollamaErrorContext(root, modelId);
  const body = await fetchJson(`${root}/api/show`, context, {
    method: 'POST',
    body: { model: modelId },
    signal,
    headers: ollamaHeaders(apiKey),
  });
  // Two fields of a large document, read by hand: a zod schema's first use costs more than the request (start-up path).
  const { model_info: info, capabilities } = (isObject(body) ? body : {}) as Record<string, unknown>;
  const architecture = isObject(info) ? info['general.architecture'] : undefined;
  const contextLength =
    isObject(info) && typeof architecture === 'string' ? info[`${architecture}.context_length`] : undefined;
  return {
    id: modelId,
    ...(typeof contextLength === 'number' && contextLength > 0 ? { contextWindow: contextLength } : {}),
    // Older servers have no `capabilities`: tool support is then unknown until the chat request says.
    ...(Array.isArray(capabilities)
      ? { tools: capabilities.includes('tools'), images: capabilities.includes('vision') }
      : {}),
    streaming: true,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An Ollama behind authentication (a proxy, a hosted server) takes its key as a bearer token (XZatoma). */
export function ollamaHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
}

/** The names of the installed models (GET /api/tags); throws classified errors (unreachable, rejected). */
export async function listOllamaTags(root: string, signal?: AbortSignal, apiKey?: string): Promise<string[]> {
  const context = ollamaErrorContext(root, '');
  const tags = tagsSchema().safeParse(
    await fetchJson(`${root}/api/tags`, context, { signal, endpoint: true, headers: ollamaHeaders(apiKey) }),
  );
  return tags.success ? tags.data.models.map((m) => m.name) : [];
}

/** Installed models (GET /api/tags), each with what /api/show says of it (table data if that fails). */
export async function listOllamaModels(
  root: string,
  signal?: AbortSignal,
  apiKey?: string,
): Promise<ModelCapabilities[]> {
  const names = await listOllamaTags(root, signal, apiKey);
  return Promise.all(
    names.map((name) =>
      readOllamaShow(root, name, signal, apiKey).then(
        (show) => capabilitiesOf(name, show),
        () => capabilitiesOf(name),
      ),
    ),
  );
}

/** How long the start-up /api/show may take before the run goes on without it (a remote server that hangs). */
const probeTimeoutMs = 3000;

/**
 * /api/show before the first chat request, never failing the run on its own: any failure (unreachable, unknown
 * model, timeout) gives undefined and the chat request reports it as before.
 */
export async function probeOllamaModel(
  root: string,
  modelId: string,
  apiKey?: string,
): Promise<ServerCapabilities | undefined> {
  try {
    return await readOllamaShow(root, modelId, AbortSignal.timeout(probeTimeoutMs), apiKey);
  } catch {
    return undefined;
  }
}
