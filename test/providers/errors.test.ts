// Error classification: the providers' documented error bodies as a table, failures that loopback cannot stage (DNS),
// and host names that resolve to several addresses.
import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { KeelError } from '../../src/core/errors.js';
import {
  classifyProviderError,
  type ProviderErrorContext,
  retryableFailure,
} from '../../src/providers/errors.js';
import { createOllamaModel } from '../../src/providers/ollama.js';
import { ask, failure, freePort, request } from './helpers.js';

const context: ProviderErrorContext = {
  label: 'Ollama',
  provider: 'ollama',
  baseUrl: 'http://gpu-box:11434',
  modelId: 'qwen3',
  unreachableHint: 'start it',
  credentialsHint: 'key',
  notFoundHint: 'pull it',
};

describe('provider error classification', () => {
  it('reports a DNS failure as provider_unreachable naming the URL', () => {
    // The shape fetch throws: TypeError("fetch failed") caused by the resolver's error.
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND gpu-box'), { code: 'ENOTFOUND' });
    const error = classifyProviderError(new TypeError('fetch failed', { cause: dns }), context) as KeelError;
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toBe('cannot reach Ollama at http://gpu-box:11434 (host not found)');
    expect(error.hint).toBe('start it');
  });

  it('reports other transport failures as provider_unreachable too', async () => {
    // fetch refuses some ports outright ("bad port"); that is still "cannot reach", not a server error.
    const error = await failure(
      createOllamaModel({ model: 'qwen3', baseUrl: 'localhost:9' }),
      request(ask('hi')),
    );
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toBe('cannot reach Ollama at http://localhost:9 (bad port)');
  });

  it("reports fetch's own refusal (a model list, /api/show: no AI SDK around it) as provider_unreachable", () => {
    const refused = new TypeError('fetch failed', { cause: new Error('bad port') });
    const error = classifyProviderError(refused, context) as KeelError;
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toBe('cannot reach Ollama at http://gpu-box:11434 (bad port)');
  });

  it('keeps an abort an abort even if the provider wrapped it', () => {
    const controller = new AbortController();
    controller.abort();
    const error = classifyProviderError(new Error('something else'), context, controller.signal);
    expect(error.name).toBe('AbortError');
  });

  it('sees connection refused behind a name with several addresses (localhost)', async () => {
    const port = await freePort();
    const model = createOllamaModel({ model: 'qwen3', baseUrl: `localhost:${port}` });
    const error = await failure(model, request(ask('hi')));
    expect(error.code).toBe('provider_unreachable');
    expect(error.message).toBe(`cannot reach Ollama at http://localhost:${port} (connection refused)`);
    expect(error.hint).toBe(
      'start it with `ollama serve`, set OLLAMA_HOST, or pick another provider with --provider',
    );
  });
});

/** An HTTP error as the AI SDK throws it. */
const httpError = (statusCode: number, body: unknown) =>
  new APICallError({
    message: 'request failed',
    url: 'http://host/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseBody: typeof body === 'string' ? body : JSON.stringify(body),
  });

const gemini = (status: string, message: string, reason?: string) => ({
  error: {
    code: 400,
    message,
    status,
    ...(reason ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason }] } : {}),
  },
});
const openai = (message: string, code: string | null = null, type = 'invalid_request_error') => ({
  error: { message, type, param: null, code },
});

// [what, status, body, the code it is classified as]
const classified: [string, number, unknown, string][] = [
  ['any 401', 401, openai('Incorrect API key provided'), 'credentials_rejected'],
  ['any 403', 403, { error: { message: 'forbidden' } }, 'credentials_rejected'],
  [
    "Gemini's invalid key",
    400,
    gemini('INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID'),
    'credentials_rejected',
  ],
  [
    "Gemini's invalid key as a one-item list",
    400,
    [gemini('INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID')],
    'credentials_rejected',
  ],
  [
    "Ollama's model without tools",
    400,
    { error: 'registry.ollama.ai/library/gemma:2b does not support tools' },
    'model_without_tools',
  ],
  [
    "OpenAI's model without tools",
    400,
    openai(
      'tools is not supported in this model. For a list of supported models, refer to https://platform.openai.com/docs/guides/function-calling.',
    ),
    'model_without_tools',
  ],
  [
    "Gemini's model without function calling",
    400,
    gemini('INVALID_ARGUMENT', 'Function calling is not enabled for models/gemma-3-27b-it'),
    'model_without_tools',
  ],
  [
    "OpenRouter's model no endpoint serves with tools",
    404,
    {
      error: {
        message:
          'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing',
        code: 404,
      },
    },
    'model_without_tools',
  ],
  [
    "OpenRouter's invalid model ID",
    400,
    { error: { message: 'anthropic/claude-9 is not a valid model ID', code: 400 } },
    'model_not_found',
  ],
  [
    "Copilot's model not supported",
    400,
    openai('The requested model is not supported.', 'model_not_supported'),
    'model_not_found',
  ],
  [
    "OpenAI's unknown model",
    404,
    openai('The model `gpt-9` does not exist or you do not have access to it.', 'model_not_found'),
    'model_not_found',
  ],
  ["Ollama's unknown model", 404, { error: "model 'nope' not found" }, 'model_not_found'],
  [
    "Gemini's unknown model",
    404,
    {
      error: {
        code: 404,
        message:
          'models/gemini-9 is not found for API version v1beta, or is not supported for generateContent.',
        status: 'NOT_FOUND',
      },
    },
    'model_not_found',
  ],
  [
    "Anthropic's unknown model",
    404,
    { type: 'error', error: { type: 'not_found_error', message: 'model: claude-9' } },
    'model_not_found',
  ],
  // A 404 that says nothing of an unknown model is a wrong address (a base URL without its /v1), not a wrong model.
  ["a proxy's 404 page", 404, '<html><body><h1>404 Not Found</h1></body></html>', 'provider_error'],
  [
    'a model server with no such route',
    404,
    { error: 'scripted model server: no route POST /chat/completions' },
    'provider_error',
  ],
  [
    "OpenAI's account out of quota",
    429,
    openai(
      'You exceeded your current quota, please check your plan and billing details.',
      'insufficient_quota',
      'insufficient_quota',
    ),
    'credit_exhausted',
  ],
  [
    "OpenRouter's insufficient credits",
    402,
    { error: { message: 'Insufficient credits. Add more using https://openrouter.ai/credits', code: 402 } },
    'credit_exhausted',
  ],
  [
    "Anthropic's credit balance too low",
    400,
    {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'Your credit balance is too low to access the Anthropic API.',
      },
    },
    'credit_exhausted',
  ],
  // Unrelated errors keep the server's words as a plain provider error.
  [
    "Gemini's other invalid argument",
    400,
    gemini('INVALID_ARGUMENT', 'Request contains an invalid argument.'),
    'provider_error',
  ],
  [
    'a 400 mentioning tools that is not about support',
    400,
    openai("Invalid 'tools[0].function.name': string does not match pattern."),
    'provider_error',
  ],
  [
    'an ordinary rate limit',
    429,
    openai(
      'Rate limit reached for gpt-4.1 in organization org-x on tokens per min.',
      'rate_limit_exceeded',
      'tokens',
    ),
    'provider_error',
  ],
  [
    'a 400 naming a model ID that is valid',
    400,
    openai("Unsupported value: 'temperature' does not support 0 with this model."),
    'provider_error',
  ],
];

describe("what providers' error bodies mean", () => {
  const rows = classified.map(([what, status, body, code]) => ({ what, status, body, code }));
  it.each(rows)('$what (HTTP $status) is $code', ({ status, body, code }) => {
    const error = classifyProviderError(httpError(status, body), context) as KeelError;
    expect(error.code).toBe(code);
  });

  it('words a rejected Gemini key (HTTP 400) as a 401 is worded, naming the variable', () => {
    const body = [
      gemini('INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID'),
    ];
    const error = classifyProviderError(httpError(400, body), {
      ...context,
      label: 'Gemini',
      provider: 'gemini',
      credentialsEnv: 'GEMINI_API_KEY',
    }) as KeelError;
    expect(error.message).toBe(
      'credentials rejected by gemini (HTTP 400); run `keel auth login gemini` or set GEMINI_API_KEY',
    );
    expect(error.exitCode).toBe(3);
  });

  it('quotes the message of a list-form body rather than the raw JSON', () => {
    const body = [gemini('INTERNAL', 'An internal error has occurred.')];
    const error = classifyProviderError(httpError(500, body), context) as KeelError;
    expect(error.message).toBe(
      'Ollama at http://gpu-box:11434 answered HTTP 500: An internal error has occurred.',
    );
  });

  it('says where to add credit, and names the model without tools and how to go on', () => {
    const credit = classifyProviderError(
      httpError(402, {
        error: { message: 'Insufficient credits. Add more using https://openrouter.ai/credits' },
      }),
      { ...context, label: 'OpenRouter', creditHint: 'add credit at https://openrouter.ai/settings/credits' },
    ) as KeelError;
    expect(credit.message).toBe(
      'OpenRouter refused the request: the account has no credit or quota left (HTTP 402: Insufficient credits. Add more using https://openrouter.ai/credits)',
    );
    expect(credit.hint).toBe('add credit at https://openrouter.ai/settings/credits');
    const tools = classifyProviderError(
      httpError(404, { error: { message: 'No endpoints found that support tool use.' } }),
      { ...context, provider: 'openrouter', modelId: 'mistralai/mistral-7b-instruct:free' },
    ) as KeelError;
    expect(tools.message).toBe('model "mistralai/mistral-7b-instruct:free" does not support tools');
    expect(tools.hint).toContain('provider.openrouter.tool_protocol: text');
  });
});

describe('what is asked again', () => {
  it('retries a rate limit but never an account out of quota, classified or not', () => {
    const quota = httpError(
      429,
      openai(
        'You exceeded your current quota, please check your plan and billing details.',
        'insufficient_quota',
        'insufficient_quota',
      ),
    );
    expect(retryableFailure(quota)).toBeUndefined();
    expect(retryableFailure(classifyProviderError(quota, context))).toBeUndefined();
    expect(retryableFailure(httpError(429, openai('Rate limit reached', 'rate_limit_exceeded')))).toEqual({
      reason: 'rate limited (HTTP 429)',
    });
  });
});
