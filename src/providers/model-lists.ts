// `keel models`: each provider's model list (plain fetch, each API's own auth), merged with Keel's model table.
import * as z from 'zod';
import type { KeelConfig } from '../config/schema.js';
import { ProviderError } from '../core/errors.js';
import { capabilitiesOf, type ModelCapabilities } from './capabilities.js';
import { fetchJson } from './fetch-json.js';
import { type HostedProvider, hostedErrorContext, openRouterHeaders, trimBaseUrl } from './hosted.js';
import { modelTable } from './model-table.js';

export interface ListOptions {
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** A hosted provider's key, or the missing-key error (index.ts owns the lookup). */
  apiKey: (provider: HostedProvider) => Promise<string>;
}

type ProviderConfig = KeelConfig['provider'];

export async function listProviderModels(
  provider: ProviderConfig,
  options: ListOptions,
): Promise<ModelCapabilities[]> {
  switch (provider.type) {
    case 'ollama': {
      const { listOllamaModels, normalizeOllamaHost } = await import('./ollama-api.js');
      return listOllamaModels(
        normalizeOllamaHost(provider.ollama.base_url),
        options.signal,
        provider.ollama.api_key,
      );
    }
    case 'openai-compatible': {
      const settings = provider['openai-compatible'];
      const base = trimBaseUrl(settings.base_url);
      const context = {
        ...hostedErrorContext(
          'openai',
          { model: settings.model, apiKey: settings.api_key ?? '', baseUrl: base },
          base,
        ),
        label: 'the OpenAI-compatible server',
        provider: 'openai-compatible',
        credentialsEnv: undefined,
        credentialsHint: 'set OPENAI_API_KEY or provider.openai-compatible.api_key',
      };
      const headers: Record<string, string> = settings.api_key
        ? { Authorization: `Bearer ${settings.api_key}` }
        : {};
      return (await openAIIds(base, context, headers, options.signal)).map((id) => capabilitiesOf(id));
    }
    case 'openai': {
      const { base, context, key } = await hosted('openai', provider.openai, options);
      const ids = await openAIIds(base, context, { Authorization: `Bearer ${key}` }, options.signal);
      return ids.filter((id) => !notChat.test(id)).map((id) => capabilitiesOf(id));
    }
    case 'anthropic': {
      const { base, context, key } = await hosted('anthropic', provider.anthropic, options);
      const headers = { 'x-api-key': key, 'anthropic-version': '2023-06-01' };
      return (await openAIIds(base, context, headers, options.signal, '?limit=1000')).map((id) =>
        capabilitiesOf(id),
      );
    }
    case 'openrouter': {
      const { base, context, key } = await hosted('openrouter', provider.openrouter, options);
      const body = openRouterList.safeParse(
        await fetchJson(`${base}/models`, context, {
          headers: { Authorization: `Bearer ${key}`, ...openRouterHeaders },
          signal: options.signal,
          endpoint: true,
        }),
      );
      if (!body.success) throw unexpected('OpenRouter', `${base}/models`);
      return body.data.data.map((m) =>
        capabilitiesOf(m.id, {
          id: m.id,
          contextWindow: m.context_length ?? undefined,
          maxOutput: m.top_provider?.max_completion_tokens ?? undefined,
          tools: m.supported_parameters ? m.supported_parameters.includes('tools') : undefined,
          images: m.architecture?.input_modalities?.includes('image') ?? undefined,
          streaming: true,
          price: perMillion(m.pricing ?? {}),
        }),
      );
    }
    case 'gemini': {
      const { base, context, key } = await hosted('gemini', provider.gemini, options);
      return geminiModels(base, context, key, options.signal);
    }
    case 'copilot': {
      const { copilotGithubToken, listCopilotModels } = await import('./copilot.js');
      const settings = provider.copilot;
      const models = await listCopilotModels({
        githubToken: await copilotGithubToken(options.env),
        githubApiUrl: settings.github_api_url,
        baseUrl: settings.base_url,
        signal: options.signal,
      });
      return models.map((m) =>
        capabilitiesOf(m.id, {
          id: m.id,
          contextWindow: m.contextWindow,
          maxOutput: m.maxOutputTokens,
          tools: m.toolCalls,
          streaming: m.streaming,
        }),
      );
    }
    case 'replay': {
      const cassette = provider.replay.cassette;
      if (!cassette) return [];
      const { replayModel } = await import('./replay.js');
      // A cassette holds one model's responses; what that model can do was never recorded.
      return [{ id: (await replayModel(cassette)).modelId, source: 'unknown' }];
    }
  }
}

/** The table's families each hosted provider serves; OpenRouter names them with its vendor prefix. */
const tableFamilies: Record<Exclude<HostedProvider, 'openrouter'>, { prefix: string; vendor: string }> = {
  openai: { prefix: 'gpt-', vendor: 'openai/' },
  anthropic: { prefix: 'claude-', vendor: 'anthropic/' },
  gemini: { prefix: 'gemini-', vendor: 'google/' },
};

/** A hosted provider's models as Keel's built-in table knows them: the list shown when there is no key to ask. */
export function tableModels(provider: HostedProvider): ModelCapabilities[] {
  const families = provider === 'openrouter' ? Object.values(tableFamilies) : [tableFamilies[provider]];
  return families.flatMap(({ prefix, vendor }) =>
    modelTable
      .filter((entry) => entry.id.startsWith(prefix))
      .map((entry) => {
        const id = provider === 'openrouter' ? `${vendor}${entry.id}` : entry.id;
        return { ...capabilitiesOf(id), id };
      }),
  );
}

/** OpenAI's list also holds embedding, speech, image and moderation models, which cannot run an agent. */
const notChat = /embedding|tts|whisper|transcribe|dall-e|image|moderation|davinci|babbage|realtime|audio/;

async function hosted(
  name: HostedProvider,
  settings: { model: string; base_url: string },
  options: ListOptions,
) {
  const key = await options.apiKey(name);
  const base = trimBaseUrl(settings.base_url);
  return {
    base,
    key,
    context: hostedErrorContext(name, { model: settings.model, apiKey: key, baseUrl: base }, base),
  };
}

type Context = ReturnType<typeof hostedErrorContext>;

const idList = z.object({ data: z.array(z.object({ id: z.string() }).loose()) }).loose();

/** `GET {base}/models` answering `{data: [{id}]}`: OpenAI, OpenAI-compatible servers, Anthropic. */
async function openAIIds(
  base: string,
  context: Context,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  query = '',
): Promise<string[]> {
  const url = `${base}/models`;
  const body = idList.safeParse(
    await fetchJson(`${url}${query}`, context, { headers, signal, endpoint: true }),
  );
  if (!body.success) throw unexpected(context.label, url);
  return body.data.data.map((m) => m.id);
}

const openRouterList = z.object({
  data: z.array(
    z
      .object({
        id: z.string(),
        context_length: z.number().nullish(),
        supported_parameters: z.array(z.string()).nullish(),
        pricing: z
          .object({
            prompt: z.string().nullish(),
            completion: z.string().nullish(),
            input_cache_read: z.string().nullish(),
            input_cache_write: z.string().nullish(),
          })
          .loose()
          .nullish(),
        top_provider: z.object({ max_completion_tokens: z.number().nullish() }).loose().nullish(),
        architecture: z
          .object({ input_modalities: z.array(z.string()).nullish() })
          .loose()
          .nullish(),
      })
      .loose(),
  ),
});

/** OpenRouter prices are USD per token as decimal strings; `-1` marks a variable-priced router. */
function perMillion(pricing: {
  prompt?: string | null;
  completion?: string | null;
  input_cache_read?: string | null;
  input_cache_write?: string | null;
}): ModelCapabilities['price'] {
  const { prompt, completion } = pricing;
  const input = Number(prompt);
  const output = Number(completion);
  if (!prompt || !completion || !(input >= 0) || !(output >= 0)) return undefined;
  const round = (value: number) => Math.round(value * 1e6 * 1e6) / 1e6;
  const read = Number(pricing.input_cache_read);
  const write = Number(pricing.input_cache_write);
  return {
    inputPerMTok: round(input),
    outputPerMTok: round(output),
    ...(pricing.input_cache_read && read >= 0 ? { cacheReadPerMTok: round(read) } : {}),
    ...(pricing.input_cache_write && write >= 0 ? { cacheWritePerMTok: round(write) } : {}),
  };
}

const geminiList = z.object({
  models: z
    .array(
      z
        .object({
          name: z.string(),
          inputTokenLimit: z.number().optional(),
          outputTokenLimit: z.number().optional(),
          supportedGenerationMethods: z.array(z.string()).optional(),
        })
        .loose(),
    )
    .optional(),
  nextPageToken: z.string().optional(),
});

/** Pages through `GET {base}/models`; only models that can generateContent (not embeddings) are listed. */
async function geminiModels(
  base: string,
  context: Context,
  key: string,
  signal: AbortSignal | undefined,
): Promise<ModelCapabilities[]> {
  const models: ModelCapabilities[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 20; page++) {
    const query = `?pageSize=1000${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
    const body = geminiList.safeParse(
      await fetchJson(`${base}/models${query}`, context, {
        headers: { 'x-goog-api-key': key },
        signal,
        endpoint: true,
      }),
    );
    if (!body.success) throw unexpected('Gemini', `${base}/models`);
    for (const m of body.data.models ?? []) {
      if (!m.supportedGenerationMethods?.includes('generateContent')) continue;
      const id = m.name.replace(/^models\//, '');
      models.push(
        capabilitiesOf(id, {
          id,
          contextWindow: m.inputTokenLimit,
          maxOutput: m.outputTokenLimit,
          // Every generateContent model also serves streamGenerateContent.
          streaming: true,
        }),
      );
    }
    pageToken = body.data.nextPageToken;
    if (!pageToken) break;
  }
  return models;
}

function unexpected(label: string, url: string) {
  return new ProviderError(`the ${label} model list at ${url} has an unexpected shape`, {
    hint: 'check the base URL (--base-url)',
  });
}
