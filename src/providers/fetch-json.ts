// GET or POST a provider's JSON endpoint (model lists, /api/show), failures classified like chat's. Over node:http
// rather than fetch: fetch's first use loads undici (tens of milliseconds), and the chat's prompt waits for /api/show
// but not for the first chat request.
import type { IncomingMessage, RequestOptions } from 'node:http';
import { createRequire } from 'node:module';
import { ProviderError } from '../core/errors.js';
import { classifyProviderError, type ProviderErrorContext } from './errors.js';

/** An HTTP error status, shaped like the AI SDK's APICallError so classifyProviderError reads it the same way. */
class HttpStatusError extends Error {
  constructor(
    readonly statusCode: number,
    readonly responseBody: string,
    url: string,
  ) {
    super(`HTTP ${statusCode} from ${url}`);
    this.name = 'HttpStatusError';
  }
}

export interface FetchJsonOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  /** A 404 means a wrong base URL (model lists), not an unknown model. */
  endpoint?: boolean;
}

export async function fetchJson(
  url: string,
  context: ProviderErrorContext,
  options: FetchJsonOptions = {},
): Promise<unknown> {
  let response: { status: number; text: string };
  try {
    response = await request(url, {
      method: options.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    throw classifyProviderError(error, context, options.signal);
  }
  const { text } = response;
  if (response.status === 404 && options.endpoint) {
    throw new ProviderError(`${context.label} has no ${url} (HTTP 404)`, {
      hint: 'check the base URL (--base-url)',
    });
  }
  if (response.status < 200 || response.status > 299)
    throw classifyProviderError(new HttpStatusError(response.status, text, url), context);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError(`${context.label} answered ${url} with something other than JSON`, {
      hint: 'check the base URL (--base-url)',
    });
  }
}

/** One HTTP(S) request; the whole body as text. https loads only for https URLs. */
async function request(
  url: string,
  options: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  // require, not import(): the bundle runs from V8's code cache, where Node 20 has no dynamic import callback.
  const load = createRequire(import.meta.url);
  const { request: send } = (
    target.protocol === 'https:' ? load('node:https') : load('node:http')
  ) as typeof import('node:http');
  const init: RequestOptions = { method: options.method, headers: options.headers, signal: options.signal };
  return new Promise((resolve, reject) => {
    const req = send(target, init, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
