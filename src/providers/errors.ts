// Turns what an AI SDK provider throws (network failures, HTTP errors, in-stream errors) into Keel's typed errors.
import {
  isAbortError,
  type KeelError,
  ModelUnsupportedError,
  ProviderError,
  ProviderUnavailableError,
} from '../core/errors.js';

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
  notFoundHint: string;
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

/** Classifies any failure of a model call; the result is meant to be thrown. */
export function classifyProviderError(
  error: unknown,
  context: ProviderErrorContext,
  signal?: AbortSignal,
): Error {
  if (signal?.aborted) return abortError(signal);
  if (isAbortError(error)) return error as Error;
  const network = findNetworkCode(error);
  // The AI SDK reports other transport failures (e.g. a port fetch refuses to use) as "Cannot connect to API: …".
  const transport =
    error instanceof Error ? /^Cannot connect to API: (.+)$/.exec(error.message)?.[1] : undefined;
  if (network || transport) {
    return new ProviderUnavailableError(
      'provider_unreachable',
      `cannot reach ${context.label} at ${context.baseUrl} (${network ? networkCodes[network] : transport})`,
      { hint: context.unreachableHint, cause: error },
    );
  }
  const status = statusOf(error);
  const detail = redact(serverMessage(error), context.secrets);
  if (status !== undefined) return classifyHttp(status, detail, context, error);
  return new ProviderError(`${context.label} reported an error: ${detail}`, { cause: error });
}

function classifyHttp(
  status: number,
  detail: string,
  context: ProviderErrorContext,
  cause: unknown,
): KeelError {
  const lower = detail.toLowerCase();
  if (status === 401 || status === 403) {
    return new ProviderUnavailableError(
      'credentials_rejected',
      `credentials rejected by ${context.provider} (HTTP ${status})`,
      { hint: context.credentialsHint, cause },
    );
  }
  if (lower.includes('does not support tools')) {
    return new ModelUnsupportedError(
      'model_without_tools',
      `model "${context.modelId}" does not support tools`,
      {
        hint: 'pick a model with tool support, e.g. --model qwen3',
        cause,
      },
    );
  }
  if ((status === 404 || lower.includes('not found')) && lower.includes('model')) {
    return new ModelUnsupportedError(
      'model_not_found',
      `model "${context.modelId}" not found at ${context.label} (${detail})`,
      { hint: context.notFoundHint, cause },
    );
  }
  return new ProviderError(`${context.label} at ${context.baseUrl} answered HTTP ${status}: ${detail}`, {
    hint: status === 404 ? 'check the base URL (--base-url)' : undefined,
    cause,
  });
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

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** The server's own words: the JSON error body if there is one, else the error's message. */
function serverMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error !== 'object' || error === null) return String(error);
  const body = (error as { responseBody?: unknown }).responseBody;
  if (typeof body === 'string' && body.trim() !== '') return messageFromBody(body);
  // A mid-stream `{"error":...}` line that failed the SDK's schema arrives as a validation error holding it.
  const value = (error as { value?: unknown }).value;
  const fromValue = errorField(value);
  if (fromValue) return fromValue;
  const own = errorField({ error });
  if (own) return own;
  return error instanceof Error ? error.message : JSON.stringify(error);
}

function messageFromBody(body: string): string {
  try {
    return errorField(JSON.parse(body)) ?? truncate(body);
  } catch {
    return truncate(body);
  }
}

function errorField(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const error =
    (value as { error?: unknown; message?: unknown }).error ?? (value as { message?: unknown }).message;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return undefined;
}

function truncate(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed;
}

function redact(text: string, secrets: string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***');
  return out;
}
