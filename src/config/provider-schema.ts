// The config's provider block (zod), apart from the rest of the schema: the flags and variables that set provider
// keys (--provider, --model, --base-url, OLLAMA_HOST, ...) are checked against their own keys of it, built on first
// use, without building the whole schema.
import * as z from 'zod';

export const providerNames = [
  'ollama',
  'openai-compatible',
  'copilot',
  'gemini',
  'openrouter',
  'anthropic',
  'openai',
  'replay',
] as const;
export type ProviderName = (typeof providerNames)[number];

export const positiveInt = z.number().int().positive();
/** Base URLs: a malformed one is refused when the config loads, naming its key or flag, before any request. */
export const httpUrl = z.url({ protocol: /^https?$/ });
/** How tools reach the model: its native tool calling, or described in the prompt and parsed from its replies. */
const toolProtocol = z
  .enum(['native', 'text', 'auto'])
  .default('auto')
  .describe(
    'tool calling: native, text (tools in the prompt, calls parsed from replies) or auto (text when the model has none)',
  );

/** An API-key provider's block: its model and API root, each with a default. */
function hostedProvider(label: string, model: string, baseUrl: string) {
  return z
    .object({
      model: z.string().min(1).default(model).describe(`${label} model id`),
      base_url: httpUrl.default(baseUrl).describe('API root'),
      tool_protocol: toolProtocol,
    })
    .strict()
    .prefault({});
}

const memo = <T>(make: () => T): (() => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

/** The provider block's keys, each built on first use: a flag or variable checks its own provider's keys only. */
const fields = {
  type: memo(() => z.enum(providerNames).default('ollama').describe('which provider to use')),
  retries: memo(() =>
    z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(3)
      .describe('retries of a request after 429, 5xx, a reset or a broken stream'),
  ),
  idle_timeout_seconds: memo(() =>
    positiveInt
      .default(30)
      .describe('abort a response stream silent for this long; retried once, then the run fails'),
  ),
  ollama: memo(() =>
    z
      .object({
        model: z.string().min(1).default('qwen3').describe('model name as Ollama lists it'),
        base_url: httpUrl.default('http://localhost:11434').describe('address of the Ollama server'),
        api_key: z
          .string()
          .optional()
          .describe('bearer token for an Ollama behind authentication; prefer the OLLAMA_API_KEY variable'),
        tool_protocol: toolProtocol,
      })
      .strict()
      .prefault({})
      .describe('a local or remote Ollama server'),
  ),
  'openai-compatible': memo(() =>
    z
      .object({
        model: z.string().min(1).default('gpt-4o-mini').describe('model name as the server expects it'),
        base_url: httpUrl
          .default('https://api.openai.com/v1')
          .describe('base URL of the API (ending in /v1 for most servers)'),
        api_key: z.string().optional().describe('API key; prefer the OPENAI_API_KEY variable'),
        tool_protocol: toolProtocol,
      })
      .strict()
      .prefault({})
      .describe('any server speaking the OpenAI chat completions API'),
  ),
  copilot: memo(() =>
    z
      .object({
        model: z.string().min(1).default('gpt-4.1').describe('Copilot model id'),
        base_url: httpUrl.optional().describe('chat endpoint; default: the one the Copilot token names'),
        github_url: httpUrl.default('https://github.com').describe('GitHub host of the device-flow login'),
        github_api_url: httpUrl
          .default('https://api.github.com')
          .describe('GitHub API host of the Copilot token exchange'),
        tool_protocol: toolProtocol,
      })
      .strict()
      .prefault({})
      .describe('GitHub Copilot (log in with `keel auth login copilot`)'),
  ),
  gemini: memo(() =>
    hostedProvider('Gemini', 'gemini-2.5-flash', 'https://generativelanguage.googleapis.com/v1beta').describe(
      'Google Gemini API (GEMINI_API_KEY)',
    ),
  ),
  openrouter: memo(() =>
    hostedProvider('OpenRouter', 'anthropic/claude-sonnet-4', 'https://openrouter.ai/api/v1').describe(
      'OpenRouter (OPENROUTER_API_KEY)',
    ),
  ),
  anthropic: memo(() =>
    hostedProvider('Anthropic', 'claude-sonnet-4-5', 'https://api.anthropic.com/v1').describe(
      'Anthropic Messages API (ANTHROPIC_API_KEY)',
    ),
  ),
  openai: memo(() =>
    hostedProvider('OpenAI', 'gpt-4.1-mini', 'https://api.openai.com/v1').describe(
      'OpenAI API (OPENAI_API_KEY)',
    ),
  ),
  replay: memo(() =>
    z
      .object({
        cassette: z.string().optional().describe('recorded session to play back'),
        tool_protocol: toolProtocol,
      })
      .strict()
      .prefault({})
      .describe('plays back a recorded session, for tests and demos'),
  ),
};

/** One key of the provider block (`type`, `retries`, a provider's mapping), or undefined when there is none. */
export function providerField(name: string): z.ZodType | undefined {
  return Object.hasOwn(fields, name) ? fields[name as keyof typeof fields]() : undefined;
}

/** `provider`: which provider runs the model, and each provider's block (the whole schema's, schema.ts). */
export const providerSchema = () =>
  z
    .object({
      type: fields.type(),
      retries: fields.retries(),
      idle_timeout_seconds: fields.idle_timeout_seconds(),
      ollama: fields.ollama(),
      'openai-compatible': fields['openai-compatible'](),
      copilot: fields.copilot(),
      gemini: fields.gemini(),
      openrouter: fields.openrouter(),
      anthropic: fields.anthropic(),
      openai: fields.openai(),
      replay: fields.replay(),
    })
    .strict()
    .prefault({})
    .describe('where the model runs');
