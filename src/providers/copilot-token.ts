// Exchanges the long-lived GitHub token for Copilot's short-lived API token, and keeps a fresh one at hand.
import * as z from 'zod';
import { ProviderError, ProviderUnavailableError } from '../core/errors.js';
import { learnSecret } from '../safety/redact.js';
import { httpFetch } from './http-fetch.js';

/** The editor Copilot's internal API expects to talk to; one place to bump when it starts refusing these. */
export const copilotEditorHeaders = {
  'Editor-Version': 'vscode/1.99.3',
  'Editor-Plugin-Version': 'copilot-chat/0.26.7',
  'User-Agent': 'GitHubCopilotChat/0.26.7',
} as const;

export const copilotLoginHint = 'run `keel auth login copilot` or set GITHUB_TOKEN';

export interface CopilotToken {
  token: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** Chat API root from `endpoints.api`, e.g. https://api.individual.githubcopilot.com. */
  apiUrl?: string;
}

const tokenResponse = z.object({
  token: z.string().min(1),
  expires_at: z.number(),
  endpoints: z
    .object({ api: z.string().min(1).optional() })
    .loose()
    .optional(),
});

export interface TokenExchangeOptions {
  githubApiUrl: string;
  signal?: AbortSignal;
}

export async function exchangeCopilotToken(
  githubToken: string,
  options: TokenExchangeOptions,
): Promise<CopilotToken> {
  const root = options.githubApiUrl.trim().replace(/\/+$/, '');
  const url = `${root}/copilot_internal/v2/token`;
  let response: Response;
  try {
    response = await httpFetch(url, {
      headers: { Authorization: `token ${githubToken}`, Accept: 'application/json', ...copilotEditorHeaders },
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ProviderUnavailableError(
      'provider_unreachable',
      `cannot reach GitHub at ${root} for a Copilot token`,
      {
        hint: 'check the network, or provider.copilot.github_api_url',
        cause: error,
      },
    );
  }
  if (response.status === 401 || response.status === 403 || response.status === 404) {
    await response.body?.cancel();
    throw new ProviderUnavailableError(
      'credentials_rejected',
      `GitHub refused a Copilot token (HTTP ${response.status}): the GitHub account has no Copilot access or the token was revoked`,
      { hint: copilotLoginHint },
    );
  }
  const text = await response.text();
  if (!response.ok) {
    throw new ProviderError(
      `GitHub answered HTTP ${response.status} to the Copilot token exchange at ${url}`,
      {
        hint: 'try again later',
      },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = tokenResponse.safeParse(body);
  if (!parsed.success) {
    throw new ProviderError(`GitHub's Copilot token response from ${url} has an unexpected shape`);
  }
  // A bearer secret that reaches no config or environment: the redactors are told.
  learnSecret(parsed.data.token);
  return {
    token: parsed.data.token,
    expiresAt: parsed.data.expires_at * 1000,
    apiUrl: parsed.data.endpoints?.api,
  };
}

/** Hands out a Copilot token, exchanging again when it is within `marginMs` of expiry or was rejected. */
export class CopilotTokenSource {
  private current: CopilotToken | undefined;
  private pending: Promise<CopilotToken> | undefined;

  constructor(
    private readonly githubToken: string,
    private readonly options: { githubApiUrl: string; marginMs?: number; now?: () => number },
  ) {}

  async get(signal?: AbortSignal): Promise<CopilotToken> {
    const now = this.options.now?.() ?? Date.now();
    const margin = this.options.marginMs ?? 60_000;
    if (this.current && this.current.expiresAt - margin > now) return this.current;
    // Concurrent callers share one exchange.
    this.pending ??= exchangeCopilotToken(this.githubToken, {
      githubApiUrl: this.options.githubApiUrl,
      signal,
    }).finally(() => {
      this.pending = undefined;
    });
    this.current = await this.pending;
    return this.current;
  }

  /** Forgets the token, e.g. after the chat endpoint answered 401. */
  invalidate(): void {
    this.current = undefined;
  }
}
