// What a provider's error says, read into one shape whatever its dialect, and the table of the providers' documented
// wordings that name a cause Keel acts on (a rejected key, no credit, a model without tools, an unknown model).
import { clip } from '../core/text.js';

/** The server's own words: its message (or the raw body, clipped) and the codes it gave with it. */
export interface ServerReport {
  message: string;
  /**
   * Every string code in the error: OpenAI's `type` and `code`, Anthropic's `type`, Google's `status` and its
   * ErrorInfo `reason`s (`API_KEY_INVALID`).
   */
  codes: string[];
}

export type ErrorCause = 'credentials' | 'no-credit' | 'no-tools' | 'unknown-model';

interface CauseRule {
  cause: ErrorCause;
  /** The HTTP statuses it applies at; absent: any. */
  status?: readonly number[];
  /** A code the body carries (see ServerReport.codes). */
  code?: string;
  /** Patterns the message must all match. */
  message?: readonly RegExp[];
}

/** In order: the first rule that matches names the cause. Each wording is the provider's documented one. */
export const ERROR_CAUSES: readonly CauseRule[] = [
  { cause: 'credentials', status: [401, 403] },
  // Gemini: 400 INVALID_ARGUMENT "API key not valid. Please pass a valid API key." with an ErrorInfo reason.
  { cause: 'credentials', status: [400], code: 'API_KEY_INVALID' },
  // 402 Payment Required: OpenRouter's "Insufficient credits. Add more using https://openrouter.ai/credits",
  // Anthropic's billing_error.
  { cause: 'no-credit', status: [402] },
  // OpenAI: 429 "You exceeded your current quota, please check your plan and billing details." (type and code
  // insufficient_quota): not a rate limit, waiting will not help.
  { cause: 'no-credit', status: [429], code: 'insufficient_quota' },
  // Anthropic: 400 invalid_request_error "Your credit balance is too low to access the Anthropic API. …"
  { cause: 'no-credit', status: [400], message: [/\bcredit balance is too low\b/i] },
  // Ollama: 400 "registry.ollama.ai/library/gemma:2b does not support tools" (and servers passing it on).
  { cause: 'no-tools', message: [/\bdoes not support tools\b/i] },
  // OpenAI: 400 "tools is not supported in this model. For a list of supported models, refer to …"
  { cause: 'no-tools', status: [400], message: [/\btools is not supported in this model\b/i] },
  // Gemini: 400 INVALID_ARGUMENT "Function calling is not enabled for models/gemma-3-27b-it"
  { cause: 'no-tools', status: [400], message: [/\bfunction calling is not enabled for\b/i] },
  // OpenRouter: 404 "No endpoints found that support tool use. To learn more about provider routing, visit: …"
  { cause: 'no-tools', status: [404], message: [/\bno endpoints found that support tool use\b/i] },
  // OpenRouter: 400 "anthropic/claude-9 is not a valid model ID"
  { cause: 'unknown-model', status: [400], message: [/\bis not a valid model id\b/i] },
  // Copilot: 400 invalid_request_error, code model_not_supported, "The requested model is not supported."
  { cause: 'unknown-model', status: [400], code: 'model_not_supported' },
  // A 404 saying a model is unknown: Ollama's "model 'x' not found", OpenAI's model_not_found ("The model `x` does
  // not exist …"), Gemini's "models/x is not found for API version v1beta", Anthropic's not_found_error "model: x".
  // Any other 404 (a base URL missing its /v1, a proxy's page, a server's "no route" naming itself a model server)
  // is a wrong address, not a wrong model.
  { cause: 'unknown-model', status: [404], code: 'model_not_found' },
  { cause: 'unknown-model', status: [404], code: 'not_found_error', message: [/\bmodel\b/i] },
  { cause: 'unknown-model', status: [404], message: [/\bmodels?\b.*\b(not found|does not exist)\b/is] },
  { cause: 'unknown-model', message: [/not found/i, /model/i] },
];

/** The cause a failed request's status and report name, if a rule knows it. */
export function causeOf(status: number, report: ServerReport): ErrorCause | undefined {
  const rule = ERROR_CAUSES.find(
    (r) =>
      (r.status === undefined || r.status.includes(status)) &&
      (r.code === undefined || report.codes.includes(r.code)) &&
      (r.message ?? []).every((pattern) => pattern.test(report.message)),
  );
  return rule?.cause;
}

/**
 * The report in a failure: its JSON error body if it has one (APICallError's responseBody), a mid-stream
 * `{"error": …}` chunk that failed the SDK's schema (a validation error's value), an error object a stream part
 * carried, else the error's message.
 */
export function serverReport(error: unknown): ServerReport {
  if (typeof error === 'string') return { message: error, codes: [] };
  if (typeof error !== 'object' || error === null) return { message: String(error), codes: [] };
  const body = (error as { responseBody?: unknown }).responseBody;
  if (typeof body === 'string' && body.trim() !== '') return bodyReport(body);
  const fromValue = errorReport((error as { value?: unknown }).value);
  if (fromValue) return fromValue;
  const own = errorReport({ error });
  if (own) return own;
  return { message: error instanceof Error ? error.message : JSON.stringify(error), codes: [] };
}

/** An error body as text: JSON in any provider's shape, else the text itself (clipped). */
export function bodyReport(body: string): ServerReport {
  try {
    const report = errorReport(JSON.parse(body));
    if (report) return report;
  } catch {
    // Not JSON: the text is the message.
  }
  return { message: clip(body.trim(), 501), codes: [] };
}

/**
 * The error of a parsed body: `{"error": "…"}` (Ollama), `{"error": {message, type, code}}` (OpenAI, OpenRouter,
 * Anthropic's inside `{"type": "error"}`), Google's `{"error": {code, message, status, details}}` — which Gemini
 * sometimes sends as a one-item list — or a bare `{message}`.
 */
export function errorReport(value: unknown): ServerReport | undefined {
  const top = Array.isArray(value) ? value[0] : value;
  if (typeof top !== 'object' || top === null) return undefined;
  const error = (top as { error?: unknown }).error ?? (top as { message?: unknown }).message;
  if (typeof error === 'string') return { message: error, codes: [] };
  if (typeof error !== 'object' || error === null) return undefined;
  const message = (error as { message?: unknown }).message;
  if (typeof message !== 'string') return undefined;
  return { message, codes: codesOf(error as Record<string, unknown>) };
}

function codesOf(error: Record<string, unknown>): string[] {
  const codes = [error.type, error.code, error.status].filter((c): c is string => typeof c === 'string');
  const details = Array.isArray(error.details) ? error.details : [];
  for (const detail of details) {
    const reason = (detail as { reason?: unknown } | null)?.reason;
    if (typeof reason === 'string') codes.push(reason);
  }
  return codes;
}
