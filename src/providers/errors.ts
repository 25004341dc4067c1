// Turns what an AI SDK provider throws (network failures, HTTP errors, in-stream errors) into Keel's typed errors.
import {
  isAbortError,
  KeelError,
  ModelUnsupportedError,
  ProviderError,
  ProviderUnavailableError,
} from '../core/errors.js';
import { bodyReport, causeOf, type ServerReport, serverReport } from './server-errors.js';

/** What the classifier needs to say where a failure happened and how to fix it. */
export interface ProviderErrorContext {
  /** Name used in messages: "Ollama", "the OpenAI-compatible server". */
  label: string;
  /** The provider as the user selects it (`ollama`, `openai-compatible`). */
  provider: string;
  baseUrl: string;
  modelId: string;
  unreachableHint: string;
  credentialsHint: string;
  /** The env var holding the key (`GEMINI_API_KEY`); when set, a 401/403 names it and `keel auth login`. */
  credentialsEnv?: string;
  notFoundHint: string;
  /** Where to add credit or check the plan, for a refusal of an account out of credit. */
  creditHint?: string;
  /** Values that must never appear in a message (API keys), in case a server echoes them. */
  secrets?: string[];
}

const networkCodes: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/** An AbortError for a fired signal, keeping the signal's own reason when it already is one. */
export function abortError(signal: AbortSignal): Error {
  if (isAbortError(signal.reason)) return signal.reason as Error;
  const error = new Error('the model call was aborted', { cause: signal.reason });
  error.name = 'AbortError';
  return error;
}

/**
 * A response stream that broke off before its finish, or carried data the provider's parser rejects: a failure of
 * the transport or the server like a reset connection, so it is asked again (see retryableFailure).
 */
export class BrokenStreamError extends Error {
  constructor(
    /** As the user reads it in a retry notice: "response stream ended before its finish". */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'BrokenStreamError';
  }
}

/**
 * The refusal of a model that cannot call tools: from the server (Ollama's "does not support tools", OpenRouter's
 * "No endpoints found that support tool use", …), or before any request from /api/show.
 */
export function modelWithoutTools(modelId: string, provider: string, cause?: unknown): ModelUnsupportedError {
  return new ModelUnsupportedError('model_without_tools', `model "${modelId}" does not support tools`, {
    hint: `pick a model with tool support (--model), or have Keel describe the tools in the prompt: provider.${provider}.tool_protocol: text (or auto: only for models that refuse tools)`,
    cause,
  });
}

/** Classifies any failure of a model call; the result is meant to be thrown. */
export function classifyProviderError(
  error: unknown,
  context: ProviderErrorContext,
  signal?: AbortSignal,
): Error {
  if (signal?.aborted) return abortError(signal);
  if (isAbortError(error)) return error as Error;
  // Already classified (e.g. a token exchange failing inside a provider's fetch): keep its code and exit code.
  if (error instanceof KeelError) return error;
  const broken = findBrokenStream(error);
  if (broken) {
    const message = `${context.label} at ${context.baseUrl} sent a broken response: ${broken.reason}`;
    return new ProviderError(message, { cause: error });
  }
  const network = findNetworkCode(error);
  // The AI SDK reports other transport failures (e.g. a port fetch refuses to use) as "Cannot connect to API: …";
  // fetch itself (a model list, /api/show) as "fetch failed" with the reason as its cause.
  const transport =
    error instanceof Error
      ? (/^Cannot connect to API: (.+)$/.exec(error.message)?.[1] ??
        (error instanceof TypeError && error.message === 'fetch failed' && error.cause instanceof Error
          ? error.cause.message
          : undefined))
      : undefined;
  if (network || transport) {
    return new ProviderUnavailableError(
      'provider_unreachable',
      `cannot reach ${context.label} at ${context.baseUrl} (${network ? networkCodes[network] : transport})`,
      { hint: context.unreachableHint, cause: error },
    );
  }
  const status = statusOf(error);
  const report = serverReport(error);
  const detail = redact(report.message, context.secrets);
  if (status !== undefined) return classifyHttp(status, report, detail, context, error);
  return new ProviderError(`${context.label} reported an error: ${detail}`, { cause: error });
}

function classifyHttp(
  status: number,
  report: ServerReport,
  detail: string,
  context: ProviderErrorContext,
  cause: unknown,
): KeelError {
  switch (causeOf(status, report)) {
    case 'credentials':
      return new ProviderUnavailableError(
        'credentials_rejected',
        `credentials rejected by ${context.provider} (HTTP ${status})${
          context.credentialsEnv
            ? `; run \`keel auth login ${context.provider}\` or set ${context.credentialsEnv}`
            : ''
        }`,
        { hint: context.credentialsHint, cause },
      );
    case 'no-credit':
      return new ProviderUnavailableError(
        'credit_exhausted',
        `${context.label} refused the request: the account has no credit or quota left (HTTP ${status}: ${detail})`,
        { hint: context.creditHint ?? "add credit or check the account's plan with the provider", cause },
      );
    case 'no-tools':
      return modelWithoutTools(context.modelId, context.provider, cause);
    case 'unknown-model':
      return new ModelUnsupportedError(
        'model_not_found',
        `model "${context.modelId}" not found at ${context.label} (${detail})`,
        { hint: context.notFoundHint, cause },
      );
    default:
      return new ProviderError(`${context.label} at ${context.baseUrl} answered HTTP ${status}: ${detail}`, {
        hint: status === 404 ? 'check the base URL (--base-url)' : undefined,
        cause,
      });
  }
}

/** Walks cause chains (and AggregateError members, as Node's happy-eyeballs connect throws) for a socket error code. */
function findNetworkCode(error: unknown, depth = 0): string | undefined {
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code in networkCodes) return code;
  const nested = (error as { errors?: unknown }).errors;
  if (Array.isArray(nested)) {
    for (const inner of nested) {
      const found = findNetworkCode(inner, depth + 1);
      if (found) return found;
    }
  }
  return findNetworkCode((error as { cause?: unknown }).cause, depth + 1);
}

/** A failure worth asking again: why (as the user reads it) and the delay the server asked for, if it did. */
export interface RetryableFailure {
  reason: string;
  /** From Retry-After (seconds or HTTP date), retry-after-ms, or Gemini's RetryInfo retryDelay; not capped here. */
  retryAfterMs?: number;
}

/** Transport failures that a second try may not hit; refused or unknown hosts fail at once instead. */
const transientNetworkCodes = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'EAI_AGAIN',
]);

/**
 * Whether a failed model call (as thrown, classified or not) may succeed if asked again: 408, 429, 5xx, a reset
 * or timed-out connection, a stream broken off or garbled. Aborts, credentials (401/403), a 429 for an account out
 * of quota, other 4xx and errors a server reports inside a stream without a status are never retried (Gemini's
 * SDK and anthropic.ts give theirs the HTTP status they stand for).
 */
export function retryableFailure(error: unknown, now = Date.now()): RetryableFailure | undefined {
  if (isAbortError(error)) return undefined;
  const broken = findBrokenStream(error);
  if (broken) return { reason: broken.reason };
  const network = findNetworkCode(error);
  if (network) return transientNetworkCodes.has(network) ? { reason: networkCodes[network]! } : undefined;
  const http = findHttpError(error);
  if (!http) return undefined;
  const status = http.statusCode;
  if (status !== 408 && status !== 429 && status < 500) return undefined;
  // A 429 for an account out of quota (OpenAI's insufficient_quota) will never pass: not a rate limit.
  if (causeOf(status, bodyReport(http.responseBody ?? '')) === 'no-credit') return undefined;
  const reason =
    status === 429
      ? 'rate limited (HTTP 429)'
      : status === 408
        ? 'request timed out (HTTP 408)'
        : status === 529
          ? 'server overloaded (HTTP 529)'
          : `server error (HTTP ${status})`;
  const retryAfterMs = serverDelayMs(http.responseHeaders, http.responseBody, now);
  return retryAfterMs === undefined ? { reason } : { reason, retryAfterMs };
}

function findBrokenStream(error: unknown, depth = 0): BrokenStreamError | undefined {
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  if (error instanceof BrokenStreamError) return error;
  return findBrokenStream((error as { cause?: unknown }).cause, depth + 1);
}

interface HttpFailure {
  statusCode: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
}

/** The AI SDK's APICallError (or anything shaped like it) in a cause chain. */
function findHttpError(error: unknown, depth = 0): HttpFailure | undefined {
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  if (statusOf(error) !== undefined) return error as HttpFailure;
  return findHttpError((error as { cause?: unknown }).cause, depth + 1);
}

/** The delay a server asked for: `retry-after-ms`, `Retry-After` (seconds or an HTTP date), Gemini's retryDelay. */
export function serverDelayMs(
  headers: Record<string, string> | undefined,
  body: string | undefined,
  now = Date.now(),
): number | undefined {
  const header = (name: string) =>
    Object.entries(headers ?? {})
      .find(([key]) => key.toLowerCase() === name)?.[1]
      ?.trim();
  const ms = Number.parseFloat(header('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = header('retry-after');
  if (after) {
    if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return geminiRetryDelayMs(body);
}

/** `{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"46s"}]}}` (or in a list). */
function geminiRetryDelayMs(body: string | undefined): number | undefined {
  if (!body?.includes('RetryInfo')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  const details = (first as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const info = detail as { '@type'?: unknown; retryDelay?: unknown } | null;
    if (typeof info?.['@type'] !== 'string' || !info['@type'].endsWith('google.rpc.RetryInfo')) continue;
    const match =
      typeof info.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(info.retryDelay.trim()) : null;
    if (match) return Number(match[1]) * 1000;
  }
  return undefined;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

function redact(text: string, secrets: string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***');
  return out;
}
