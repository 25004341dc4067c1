// An error inside a stream (after the 200), as the HTTP error it stands for, so it is classified and retried alike
// (`inStreamHttpError`; Anthropic's error events: anthropic.ts). In a Chat Completions stream: OpenRouter reports an upstream failure mid-answer as `{"error": {"code": "server_error" | 502, …}}`,
// vLLM and other servers as `{"error": {"type": "server_error", …}}`. The AI SDK passes the bare object on; the retry
// then drops what the failed attempt streamed (retry.ts). An error naming no kind it can stand for stays as it is.
import { APICallError } from '@ai-sdk/provider';

const KINDS: Readonly<Record<string, number>> = {
  server_error: 500,
  internal_error: 500,
  internal_server_error: 500,
  api_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  overloaded: 503,
  overloaded_error: 503,
  timeout: 504,
  rate_limit_exceeded: 429,
  rate_limit_error: 429,
};

/** The HTTP status an in-stream error's `code` or `type` stands for, or undefined. */
export function streamErrorStatus(error: unknown): number | undefined {
  const { code, type } = (error ?? {}) as { code?: unknown; type?: unknown };
  if (typeof code === 'number' && code >= 400 && code <= 599) return code;
  for (const kind of [code, type])
    if (typeof kind === 'string' && KINDS[kind] !== undefined) return KINDS[kind];
  return undefined;
}

/** The HTTP error an in-stream error stands for, `body` its JSON as the server sent it. */
export function inStreamHttpError(
  message: string,
  statusCode: number,
  url: string,
  body: unknown,
): APICallError {
  return new APICallError({
    message,
    url,
    requestBodyValues: {},
    statusCode,
    responseBody: JSON.stringify(body),
  });
}

export function chatStreamErrorAsHttp(error: unknown, url: string): unknown {
  const statusCode = streamErrorStatus(error);
  const message = (error as { message?: unknown } | undefined)?.message;
  if (statusCode === undefined || typeof message !== 'string') return error;
  return inStreamHttpError(message, statusCode, url, { error });
}
