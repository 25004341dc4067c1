// A scripted GitHub on loopback: the device-flow login, the Copilot token exchange and Copilot's model list.
// Chat goes to the scripted model server, whose URL the token's `endpoints.api` names.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLoopback, readBody, sendJson } from './http.js';

/** One answer of the access-token poll. */
export type PollAnswer = 'pending' | 'slow_down' | 'denied' | 'expired' | 'granted';

export interface GitHubServerOptions {
  /** Answers to successive polls; the last one repeats. */
  polls?: PollAnswer[];
  /** Seconds between polls the device code asks for (fractions keep tests fast). */
  interval?: number;
  /** The interval named by a slow_down answer. */
  slowDownInterval?: number;
  /** The GitHub token handed out on `granted` and accepted by the token exchange. */
  githubToken?: string;
  /** Seconds each Copilot token lives (expires_at = now + ttl). */
  tokenTtlSeconds?: number;
  /** The chat API root named in `endpoints.api`. Default: this server. */
  apiUrl?: string;
  /** Answer the token exchange with this status instead. */
  exchangeStatus?: number;
}

export interface GitHubRequest {
  route: string;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary wire fields.
  body: any;
  at: number;
}

export interface GitHubServer {
  url: string;
  requests: GitHubRequest[];
  /** Copilot tokens issued so far, in order (`copilot-token-1`, …). */
  issued: string[];
  close(): Promise<void>;
}

export const copilotModelList = {
  object: 'list',
  data: [
    {
      id: 'gpt-4.1',
      name: 'GPT-4.1',
      vendor: 'Azure OpenAI',
      model_picker_enabled: true,
      policy: { state: 'enabled' },
      capabilities: {
        family: 'gpt-4.1',
        type: 'chat',
        limits: { max_context_window_tokens: 128000, max_prompt_tokens: 111000, max_output_tokens: 16384 },
        supports: { streaming: true, tool_calls: true },
      },
    },
    {
      id: 'gpt-4.1-2025-04-14',
      name: 'GPT-4.1 (dated)',
      model_picker_enabled: true,
      capabilities: { family: 'gpt-4.1', type: 'chat', supports: { tool_calls: true } },
    },
    {
      id: 'claude-sonnet-4',
      name: 'Claude Sonnet 4',
      model_picker_enabled: true,
      policy: { state: 'disabled' },
      capabilities: { family: 'claude-sonnet-4', type: 'chat' },
    },
    { id: 'hidden', model_picker_enabled: false, capabilities: { family: 'hidden', type: 'chat' } },
    {
      id: 'text-embedding-3-small',
      model_picker_enabled: true,
      capabilities: { family: 'text-embedding-3-small', type: 'embeddings' },
    },
  ],
};

export async function startGitHubServer(options: GitHubServerOptions = {}): Promise<GitHubServer> {
  const requests: GitHubRequest[] = [];
  const issued: string[] = [];
  const polls = options.polls ?? ['granted'];
  const githubToken = options.githubToken ?? 'ghu_scripted';
  let poll = 0;

  const { url, close } = await listenLoopback((req, res) => {
    void handle(req, res).catch((error: unknown) => sendJson(res, 500, { message: String(error) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const route = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
    requests.push({
      route,
      headers: { ...req.headers },
      body: raw ? JSON.parse(raw) : undefined,
      at: Date.now(),
    });
    switch (route) {
      case 'POST /login/device/code':
        return sendJson(res, 200, {
          device_code: 'device-123',
          user_code: 'WDJB-MJHT',
          verification_uri: `${url}/login/device`,
          expires_in: 900,
          interval: options.interval ?? 0.01,
        });
      case 'POST /login/oauth/access_token': {
        const answer = polls[Math.min(poll, polls.length - 1)];
        poll += 1;
        if (answer === 'granted') {
          return sendJson(res, 200, { access_token: githubToken, token_type: 'bearer', scope: 'read:user' });
        }
        const error = {
          pending: 'authorization_pending',
          slow_down: 'slow_down',
          denied: 'access_denied',
          expired: 'expired_token',
        }[answer!];
        return sendJson(res, 200, {
          error,
          error_description: `scripted ${error}`,
          ...(answer === 'slow_down' ? { interval: options.slowDownInterval ?? 0.2 } : {}),
        });
      }
      case 'GET /copilot_internal/v2/token': {
        if (options.exchangeStatus) return sendJson(res, options.exchangeStatus, { message: 'Not Found' });
        if (req.headers.authorization !== `token ${githubToken}`)
          return sendJson(res, 401, { message: 'Bad credentials' });
        const token = `copilot-token-${issued.length + 1}`;
        issued.push(token);
        return sendJson(res, 200, {
          token,
          expires_at: Math.floor(Date.now() / 1000) + (options.tokenTtlSeconds ?? 1800),
          refresh_in: 1500,
          endpoints: { api: options.apiUrl ?? url },
        });
      }
      case 'GET /models':
        return sendJson(res, 200, copilotModelList);
      default:
        return sendJson(res, 404, { message: `scripted GitHub: no route ${route}` });
    }
  }

  return {
    url,
    requests,
    issued,
    close,
  };
}
