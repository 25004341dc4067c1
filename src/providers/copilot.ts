// The GitHub Copilot provider: Copilot's OpenAI-compatible chat endpoint, with Keel's own token exchange and refresh.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import * as z from 'zod';
import type { KeelConfig } from '../config/schema.js';
import { KeelError, ProviderError, ProviderUnavailableError } from '../core/errors.js';
import type { Model } from '../core/model.js';
import { aiSdkModel } from './ai-sdk.js';
import { CopilotTokenSource, copilotEditorHeaders, copilotLoginHint } from './copilot-token.js';
import { resolveCredential } from './credentials.js';
import type { ProviderErrorContext } from './errors.js';
import { fetchJson } from './fetch-json.js';
import { httpFetch, preconnect } from './http-fetch.js';
import { type HeadersInput, LightHeaders } from './http-headers.js';

type CopilotSettings = KeelConfig['provider']['copilot'];

/** Used when neither provider.copilot.base_url nor the token names an endpoint. */
const defaultApiUrl = 'https://api.githubcopilot.com';

const chatHeaders = {
  'Copilot-Integration-Id': 'vscode-chat',
  'Openai-Intent': 'conversation-edits',
  ...copilotEditorHeaders,
} as const;

export interface CopilotModelOptions {
  model: string;
  githubToken: string;
  githubApiUrl: string;
  /** Overrides the chat endpoint the token names (enterprise proxies, tests). */
  baseUrl?: string;
}

/** The Copilot model for the config, with the GitHub token from env, keyring or credentials file. */
export async function createCopilotModelFromConfig(
  settings: CopilotSettings,
  env: NodeJS.ProcessEnv,
): Promise<Model> {
  const githubToken = await copilotGithubToken(env);
  // The first request exchanges the GitHub token for a Copilot one: that connection opens now (http-fetch.ts), and
  // a configured chat endpoint's too. (The token names its own endpoint only once it arrives.)
  preconnect(settings.github_api_url);
  if (settings.base_url) preconnect(settings.base_url);
  return createCopilotModel({
    model: settings.model,
    githubToken,
    githubApiUrl: settings.github_api_url,
    baseUrl: settings.base_url,
  });
}

/** The GitHub token from env, keyring or credentials file; none is an error before any request. */
export async function copilotGithubToken(env: NodeJS.ProcessEnv): Promise<string> {
  const githubToken = await resolveCredential('copilot', env);
  if (githubToken) return githubToken;
  throw new ProviderUnavailableError('credentials_rejected', 'not logged in to GitHub Copilot', {
    hint: copilotLoginHint,
  });
}

function copilotErrorContext(baseUrl: string, modelId: string, githubToken: string): ProviderErrorContext {
  return {
    label: 'GitHub Copilot',
    provider: 'copilot',
    baseUrl,
    modelId,
    unreachableHint: 'check the network, or provider.copilot.base_url',
    // The message names the command already; the hint says why a token that worked may not now.
    credentialsHint: 'the GitHub token may have expired, been revoked, or lost Copilot access',
    notFoundHint:
      'choose another model with --model (`keel models copilot` lists those your Copilot plan offers)',
    credentialsEnv: 'GITHUB_TOKEN',
    secrets: [githubToken],
  };
}

export function createCopilotModel(options: CopilotModelOptions): Model {
  const tokens = new CopilotTokenSource(options.githubToken, { githubApiUrl: options.githubApiUrl });
  const override = options.baseUrl?.trim().replace(/\/+$/, '');
  // The SDK needs a base URL up front; the real one (from the token) is swapped in by copilotFetch.
  const placeholder = 'https://copilot.invalid';
  // Messages name the endpoint the request went to: the token's, known once a token is exchanged.
  const errors = copilotErrorContext(override ?? defaultApiUrl, options.model, options.githubToken);
  const provider = createOpenAICompatible({
    name: 'copilot',
    baseURL: override ?? placeholder,
    includeUsage: true,
    fetch: copilotFetch(
      tokens,
      override === undefined
        ? {
            placeholder,
            onEndpoint: (url) => {
              errors.baseUrl = url;
            },
          }
        : undefined,
    ),
  });
  const model = aiSdkModel(provider.chatModel(options.model), { provider: 'copilot', errors });
  return {
    provider: model.provider,
    modelId: model.modelId,
    async *stream(request) {
      try {
        yield* model.stream(request);
      } catch (error) {
        throw tokenFailure(error) ?? error;
      }
    },
  };
}

/** A token exchange failing inside our fetch reaches us wrapped as a chat error; it is the one the user must see. */
function tokenFailure(error: unknown): KeelError | undefined {
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < 8; depth += 1) {
    if (cause instanceof KeelError) return cause;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return undefined;
}

/** URLs starting with the placeholder go to the token's endpoint, which onEndpoint is told. */
interface TokenEndpoint {
  placeholder: string;
  onEndpoint: (url: string) => void;
}

/**
 * A fetch that adds the current Copilot token and headers, points placeholder URLs at the token's endpoint,
 * and on a 401 exchanges the token once more and retries.
 */
function copilotFetch(tokens: CopilotTokenSource, endpoint: TokenEndpoint | undefined): typeof fetch {
  const send = async (
    input: Parameters<typeof fetch>[0],
    init: RequestInit | undefined,
  ): Promise<Response> => {
    const token = await tokens.get(init?.signal ?? undefined);
    // Not `instanceof Request` nor the global Headers: either would load undici (see http-fetch.ts).
    let url = typeof input === 'object' && 'url' in input ? input.url : String(input);
    if (endpoint && url.startsWith(endpoint.placeholder)) {
      const root = (token.apiUrl ?? defaultApiUrl).replace(/\/+$/, '');
      endpoint.onEndpoint(root);
      url = root + url.slice(endpoint.placeholder.length);
    }
    const headers = new LightHeaders(init?.headers as HeadersInput | undefined);
    for (const [name, value] of Object.entries(chatHeaders)) headers.set(name, value);
    headers.set('Authorization', `Bearer ${token.token}`);
    headers.set('X-Initiator', initiator(init?.body));
    return httpFetch(url, { ...init, headers: headers as unknown as RequestInit['headers'] });
  };
  return async (input, init) => {
    const response = await send(input, init);
    if (response.status !== 401) return response;
    await response.body?.cancel();
    tokens.invalidate();
    return send(input, init);
  };
}

/** "agent" for tool-loop turns (they do not count as premium user requests), "user" for the user's own. */
function initiator(body: unknown): 'user' | 'agent' {
  if (typeof body !== 'string') return 'user';
  try {
    const messages = (JSON.parse(body) as { messages?: { role?: string }[] }).messages ?? [];
    return messages.some((m) => m.role === 'assistant' || m.role === 'tool') ? 'agent' : 'user';
  } catch {
    return 'user';
  }
}

export interface CopilotModelInfo {
  id: string;
  name: string;
  vendor?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  toolCalls: boolean;
  streaming: boolean;
}

const modelList = z.object({
  data: z.array(
    z
      .object({
        id: z.string(),
        name: z.string().optional(),
        vendor: z.string().optional(),
        model_picker_enabled: z.boolean().optional(),
        policy: z.object({ state: z.string().optional() }).loose().optional(),
        capabilities: z
          .object({
            family: z.string().optional(),
            type: z.string().optional(),
            limits: z
              .object({
                max_context_window_tokens: z.number().optional(),
                max_prompt_tokens: z.number().optional(),
                max_output_tokens: z.number().optional(),
              })
              .loose()
              .optional(),
            supports: z
              .object({ streaming: z.boolean().optional(), tool_calls: z.boolean().optional() })
              .loose()
              .optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  ),
});

/** Chat models the account may pick: enabled in the picker and by policy, one per family. */
export async function listCopilotModels(
  options: Omit<CopilotModelOptions, 'model'> & { signal?: AbortSignal },
): Promise<CopilotModelInfo[]> {
  const tokens = new CopilotTokenSource(options.githubToken, { githubApiUrl: options.githubApiUrl });
  const token = await tokens.get(options.signal);
  const root = (options.baseUrl ?? token.apiUrl ?? defaultApiUrl).trim().replace(/\/+$/, '');
  const body = await fetchJson(`${root}/models`, copilotErrorContext(root, '', options.githubToken), {
    headers: { ...chatHeaders, Authorization: `Bearer ${token.token}` },
    signal: options.signal,
    endpoint: true,
  });
  const parsed = modelList.safeParse(body);
  if (!parsed.success)
    throw new ProviderError(`the Copilot model list at ${root}/models has an unexpected shape`);
  const families = new Set<string>();
  const models: CopilotModelInfo[] = [];
  for (const m of parsed.data.data) {
    if (m.model_picker_enabled !== true) continue;
    if (m.policy?.state !== undefined && m.policy.state !== 'enabled') continue;
    if (m.capabilities?.type !== undefined && m.capabilities.type !== 'chat') continue;
    const family = m.capabilities?.family ?? m.id;
    if (families.has(family)) continue;
    families.add(family);
    const limits = m.capabilities?.limits;
    models.push({
      id: m.id,
      name: m.name ?? m.id,
      vendor: m.vendor,
      contextWindow: limits?.max_prompt_tokens ?? limits?.max_context_window_tokens,
      maxOutputTokens: limits?.max_output_tokens,
      toolCalls: m.capabilities?.supports?.tool_calls ?? false,
      streaming: m.capabilities?.supports?.streaming ?? false,
    });
  }
  return models;
}
