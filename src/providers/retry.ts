// Asks a model again after failures a second try may fix (429, 5xx, resets, broken or silent streams), with backoff.
//
// Each attempt runs under its own AbortController chained to the caller's signal, with an idle timer reset on every
// chunk (ModelRequest.onActivity) and event; when it fires the attempt is aborted and counts as a retryable failure.
// A stall is asked again once only, whatever `retries` says: a server that went silent twice is unlikely to answer
// a third time, and each wait costs a whole idle timeout (so a dead provider fails in about two timeouts).
// Before waiting, the wrapper yields a `retry` event, numbered n of provider.retries across every kind of failure: the
// consumer drops whatever the failed attempt streamed, since the whole request is sent again. Delays: the server's ask (Retry-After, retry-after-ms, Gemini's retryDelay, capped
// at maxServerDelayMs) or exponential backoff with ±20% jitter. The CLI sets baseDelayMs from the undocumented test
// hook KEEL_RETRY_BASE_MS (see index.ts); nothing else reads it.
import { setTimeout as sleep } from 'node:timers/promises';
import { type KeelError, ProviderError } from '../core/errors.js';
import type { Model, ModelEvent, ModelRequest } from '../core/model.js';
import { abortError, type RetryableFailure, retryableFailure } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (provider.retries); 0 turns retrying off but keeps the idle timeout. */
  retries: number;
  /** Abort an attempt that receives nothing for this long (provider.idle_timeout_seconds); retried once at most. */
  idleTimeoutMs: number;
  /** First backoff delay, doubled on each retry. Default 1 s. */
  baseDelayMs?: number;
  /** Longest backoff delay. Default 30 s. */
  maxDelayMs?: number;
  /** Longest server-asked delay honoured; a longer ask waits this long and the reason says so. Default 60 s. */
  maxServerDelayMs?: number;
  /** Source of jitter in [0, 1). Default Math.random. */
  random?: () => number;
}

const defaults = { baseDelayMs: 1000, maxDelayMs: 30_000, maxServerDelayMs: 60_000 };
/** Retries of an attempt that went silent (see the file comment), and how a retry event says so. */
const maxStallRetries = 1;
const stallLimit = 'a silent stream is retried once';

export function retryingModel(inner: Model, options: RetryOptions): Model {
  const settings: Required<RetryOptions> = {
    retries: options.retries,
    idleTimeoutMs: options.idleTimeoutMs,
    baseDelayMs: options.baseDelayMs ?? defaults.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? defaults.maxDelayMs,
    maxServerDelayMs: options.maxServerDelayMs ?? defaults.maxServerDelayMs,
    random: options.random ?? Math.random,
  };
  return {
    provider: inner.provider,
    modelId: inner.modelId,
    ...(inner.capabilities ? { capabilities: inner.capabilities } : {}),
    ...(inner.webSearch ? { webSearch: inner.webSearch } : {}),
    stream: (request) => streamWithRetries(inner, settings, request),
  };
}

async function* streamWithRetries(
  inner: Model,
  options: Required<RetryOptions>,
  request: ModelRequest,
): AsyncGenerator<ModelEvent> {
  let stalls = 0;
  for (let attempt = 0; ; attempt++) {
    const controller = new AbortController();
    let idle = false;
    let timer: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        idle = true;
        controller.abort(new Error(`no data for ${seconds(options.idleTimeoutMs)}`));
      }, options.idleTimeoutMs);
    };
    let failure: RetryableFailure | undefined;
    let lastError: unknown;
    touch();
    try {
      const attemptRequest: ModelRequest = {
        ...request,
        signal: AbortSignal.any([request.signal, controller.signal]),
        onActivity: () => {
          touch();
          request.onActivity?.();
        },
      };
      for await (const event of inner.stream(attemptRequest)) {
        touch();
        yield event;
      }
      return;
    } catch (error) {
      if (request.signal.aborted) throw error;
      lastError = idle ? idleError(inner, options.idleTimeoutMs) : error;
      failure = idle ? { reason: `no data for ${seconds(options.idleTimeoutMs)}` } : retryableFailure(error);
    } finally {
      clearTimeout(timer);
    }
    if (!failure || attempt >= options.retries) throw exhausted(lastError, attempt);
    if (idle && ++stalls > maxStallRetries) throw exhausted(lastError, attempt);
    const { delayMs, reason } = delayFor(failure, attempt, options);
    // One count per request, whatever failed: attempt n of at most `retries`. A stall's own limit is named in its
    // reason, as a second stall ends the request however many retries are left.
    yield {
      type: 'retry',
      attempt: attempt + 1,
      max: options.retries,
      delayMs,
      reason: idle ? `${reason} (${stallLimit})` : reason,
    };
    try {
      await sleep(delayMs, undefined, { signal: request.signal });
    } catch {
      throw abortError(request.signal);
    }
  }
}

/** The server's ask when it made one (capped), else base × 2^attempt (capped) with ±20% jitter. */
export function delayFor(
  failure: RetryableFailure,
  attempt: number,
  options: Required<Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'maxServerDelayMs' | 'random'>>,
): { delayMs: number; reason: string } {
  const asked = failure.retryAfterMs;
  if (asked !== undefined) {
    if (asked <= options.maxServerDelayMs) return { delayMs: Math.round(asked), reason: failure.reason };
    return {
      delayMs: options.maxServerDelayMs,
      reason: `${failure.reason}; the server asked to wait ${seconds(asked)}, capped at ${seconds(options.maxServerDelayMs)}`,
    };
  }
  const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return { delayMs: Math.round(backoff * (0.8 + 0.4 * options.random())), reason: failure.reason };
}

function idleError(inner: Model, idleTimeoutMs: number): KeelError {
  return new ProviderError(
    `no data from ${inner.provider} for ${seconds(idleTimeoutMs)}; the response stream stalled`,
    {
      hint: 'check the server; raise provider.idle_timeout_seconds if the model is slow to start (a stall is retried once)',
    },
  );
}

/** The last failure as the run reports it, saying how often it was retried. */
function exhausted(error: unknown, retries: number): unknown {
  if (retries > 0 && error instanceof Error)
    error.message += ` (after ${retries} ${retries === 1 ? 'retry' : 'retries'})`;
  return error;
}

function seconds(ms: number): string {
  const value = ms / 1000;
  return `${value < 10 ? Number(value.toFixed(1)) : Math.round(value)} s`;
}
