// Chooses the model for the configured provider, loading only that provider's code (start-up stays lean).
import type { KeelConfig } from '../config/schema.js';
import { CassetteError } from '../core/errors.js';
import type { Model } from '../core/model.js';
import type { Redactor } from '../safety/redact.js';
import { capabilitiesOf, type ModelCapabilities } from './capabilities.js';
import type { HostedModelOptions, HostedProvider } from './hosted.js';
import { afterRequestSent, preconnect } from './http-fetch.js';
import { retryingModel } from './retry.js';
import type { ToolProtocol } from './text-tools.js';

export interface CreateModelOptions {
  /** Record every response of the chosen model to this cassette file. */
  record?: string;
  /** Where credentials in environment variables are looked up (passed in, never read globally). */
  env?: NodeJS.ProcessEnv;
  /** Removes secrets from what the cassette keeps (the run's redactor). */
  redact?: Redactor;
  /**
   * false: no Ollama /api/show before the first request, which then needs neither the model's tool support nor its
   * context length (one short question, no tools: keel ask); Keel's table tells what is known of the model.
   */
  probe?: boolean;
}

export async function createModel(
  provider: KeelConfig['provider'],
  options: CreateModelOptions = {},
): Promise<Model> {
  const { record } = options;
  const recorder = record ? await import('./record.js') : undefined;
  // Before the provider is asked anything (Ollama's /api/show included).
  if (record && recorder) await recorder.checkRecordPath(record);
  let model = await baseModel(provider, options.env ?? {}, options.probe !== false);
  // Providers other than Ollama make no request before the first chat: what Keel knows comes from its table.
  if (!model.capabilities && provider.type !== 'replay')
    model = withCapabilities(model, capabilitiesOf(model.modelId));
  if (record && recorder) model = recorder.recordingModel(model, record, options.redact);
  // Retries wrap the recorder, so a cassette holds only the attempts that completed and no retry events.
  if (provider.type !== 'replay') {
    model = retryingModel(model, {
      retries: provider.retries,
      idleTimeoutMs: provider.idle_timeout_seconds * 1000,
      baseDelayMs: retryBaseMs(options.env),
    });
  }
  return withToolProtocol(model, provider[provider.type].tool_protocol);
}

/**
 * `provider/model` as the model created from this provider configuration will call itself, known without creating
 * it (the chat's banner, drawn while the run is assembled); undefined for a replay, whose cassette names its model.
 */
export function configuredModelName(provider: KeelConfig['provider']): string | undefined {
  return provider.type === 'replay' ? undefined : `${provider.type}/${provider[provider.type].model}`;
}

/**
 * The text protocol wraps everything else, so cassettes and retries hold the provider's own replies. auto: text
 * when the model is known to lack tool calling, else native until the provider refuses it.
 */
async function withToolProtocol(model: Model, protocol: ToolProtocol): Promise<Model> {
  if (protocol === 'native') return model;
  const { textToolModel, autoToolModel } = await import('./text-tools.js');
  if (protocol === 'text' || model.capabilities?.tools === false) return textToolModel(model);
  return autoToolModel(model);
}

/** Test hook, not a product setting: KEEL_RETRY_BASE_MS shortens the backoff so fault tests run fast. */
function retryBaseMs(env: NodeJS.ProcessEnv | undefined): number | undefined {
  const value = Number(env?.KEEL_RETRY_BASE_MS);
  return env?.KEEL_RETRY_BASE_MS && Number.isFinite(value) && value >= 0 ? value : undefined;
}

async function baseModel(
  provider: KeelConfig['provider'],
  env: NodeJS.ProcessEnv,
  probe: boolean,
): Promise<Model> {
  switch (provider.type) {
    case 'gemini':
    case 'openrouter':
    case 'anthropic':
    case 'openai': {
      const settings = hostedSettings(provider[provider.type]);
      const loading = hostedFactories[provider.type]();
      loading.catch(() => {});
      const key = await apiKey(provider.type, env);
      // With a key to send, the connection opens while the provider's code loads and the run is assembled.
      preconnect(settings.baseUrl);
      return (await loading)({ ...settings, apiKey: key });
    }
    case 'ollama': {
      const { model, api_key: ollamaKey } = provider.ollama;
      const [{ normalizeOllamaHost, probeOllamaModel }, { keepShow, keptShow }] = await Promise.all([
        import('./ollama-api.js'),
        import('./ollama-show-cache.js'),
      ]);
      const root = normalizeOllamaHost(provider.ollama.base_url);
      preconnect(root);
      const ask = async () => {
        const show = await probeOllamaModel(root, model, ollamaKey);
        if (show) void keepShow(env, root, model, show);
        return show;
      };
      // What /api/show said in an earlier run, unless it would refuse this one (no tools, and native asked for).
      const kept = probe ? keptShow(env, root, model) : undefined;
      const trusted = kept?.tools === false && provider.ollama.tool_protocol === 'native' ? undefined : kept;
      // Asked again once the first chat request is out, for the next run; without a kept answer, asked now, while
      // the SDK loads. Failing, it leaves the chat request to report.
      if (trusted) afterRequestSent(root, () => void ask());
      const [{ createOllamaModel }, show] = await Promise.all([
        import('./ollama.js'),
        trusted ?? (probe ? ask() : undefined),
      ]);
      // auto and text describe the tools in the prompt instead (withToolProtocol); native cannot work.
      if (show?.tools === false && provider.ollama.tool_protocol === 'native') {
        const { modelWithoutTools } = await import('./errors.js');
        throw modelWithoutTools(model, 'ollama');
      }
      return createOllamaModel({
        model,
        baseUrl: provider.ollama.base_url,
        // Unasked, the table's context length still caps num_ctx.
        capabilities: show || !probe ? capabilitiesOf(model, show) : undefined,
        ...(ollamaKey ? { apiKey: ollamaKey } : {}),
      });
    }
    case 'openai-compatible': {
      const settings = provider['openai-compatible'];
      preconnect(settings.base_url);
      const { createOpenAICompatibleModel } = await import('./openai-compatible.js');
      return createOpenAICompatibleModel({
        model: settings.model,
        baseUrl: settings.base_url,
        apiKey: settings.api_key,
      });
    }
    case 'copilot': {
      const { createCopilotModelFromConfig } = await import('./copilot.js');
      return createCopilotModelFromConfig(provider.copilot, env);
    }
    case 'replay': {
      const cassette = provider.replay.cassette;
      if (!cassette) {
        throw new CassetteError(
          'cassette_invalid',
          'provider replay needs a cassette: pass --cassette <file>',
        );
      }
      const { replayModel } = await import('./replay.js');
      return replayModel(cassette);
    }
  }
}

function withCapabilities(model: Model, capabilities: ModelCapabilities): Model {
  return {
    provider: model.provider,
    modelId: model.modelId,
    capabilities,
    ...(model.webSearch ? { webSearch: model.webSearch } : {}),
    stream: (request) => model.stream(request),
  };
}

/** The provider's models with what is known of each: its model list, then Keel's table. Makes network requests. */
export async function listModels(
  provider: KeelConfig['provider'],
  options: { env: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<ModelCapabilities[]> {
  const { listProviderModels } = await import('./model-lists.js');
  return listProviderModels(provider, { ...options, apiKey: (name) => apiKey(name, options.env) });
}

/**
 * Without a key a hosted provider's list cannot be asked for: Keel's built-in table instead, with a note saying
 * so. undefined when the provider's own list can be fetched (it has a key, or is not a hosted provider).
 */
export async function tableListWithoutKey(
  provider: KeelConfig['provider'],
  env: NodeJS.ProcessEnv,
): Promise<{ models: ModelCapabilities[]; note: string } | undefined> {
  const type = provider.type;
  if (!(type in hostedFactories)) return undefined;
  const hosted = type as HostedProvider;
  const { resolveCredential, credentialEnvVar } = await import('./credentials.js');
  if (await resolveCredential(hosted, env)) return undefined;
  const { tableModels } = await import('./model-lists.js');
  return {
    models: tableModels(hosted),
    note: `no API key for ${hosted}: showing Keel's built-in table; set ${credentialEnvVar[hosted]} for the provider's live list`,
  };
}

/** The API-key providers differ only in their module; each loads when chosen. */
const hostedFactories: Record<HostedProvider, () => Promise<(options: HostedModelOptions) => Model>> = {
  gemini: async () => (await import('./gemini.js')).createGeminiModel,
  openrouter: async () => (await import('./openrouter.js')).createOpenRouterModel,
  anthropic: async () => (await import('./anthropic.js')).createAnthropicModel,
  openai: async () => (await import('./openai.js')).createOpenAIModel,
};

const hostedSettings = (settings: { model: string; base_url: string }) => ({
  model: settings.model,
  baseUrl: settings.base_url,
});

/** A hosted provider's key (env var > keyring > credentials file); none is an error before any request. */
async function apiKey(provider: HostedProvider, env: NodeJS.ProcessEnv): Promise<string> {
  const { resolveCredential } = await import('./credentials.js');
  const key = await resolveCredential(provider, env);
  if (key) return key;
  const { missingKey } = await import('./hosted.js');
  throw missingKey(provider);
}
