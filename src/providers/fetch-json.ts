// GET or POST a provider's JSON endpoint (model lists, /api/show), failures classified like chat's. Over the
// providers' node:http client (http-fetch.ts) rather than fetch: fetch's first use loads undici (tens of
// milliseconds), and the chat's prompt waits for /api/show.
import { ProviderError } from '../core/errors.js';
import { classifyProviderError, type ProviderErrorContext } from './errors.js';
import { quietHttpFetch } from './http-fetch.js';

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
    // Quiet: these requests are not the model's first, which work held until then waits for.
    const reply = await quietHttpFetch(url, {
      method: options.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
    response = { status: reply.status, text: await reply.text() };
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
