// Model lists of the scripted model server, in each provider's shape: Ollama /api/tags and /api/show, OpenAI and
// OpenRouter GET /v1/models, Anthropic GET /v1/models (told apart by its anthropic-version header), Gemini /v1beta/models.

export interface OllamaModelSpec {
  name: string;
  /** `general.architecture`; the context length key is `<architecture>.context_length`. */
  architecture?: string;
  contextLength?: number;
  /** Omitted (null) as older servers do. */
  capabilities?: string[] | null;
}

export interface ModelListOptions {
  /** The models Ollama has; default one qwen3:latest with tools and a 40960-token context. */
  ollamaModels?: OllamaModelSpec[];
  /** Overrides every /api/show answer's capabilities (kept from the first version of this server). */
  capabilities?: string[];
  /** Speak OpenRouter's dialect on the OpenAI route (here: the richer /v1/models). */
  openrouter?: boolean;
}

type Headers = Record<string, string | string[] | undefined>;
export type ListAnswer = { status: number; body: unknown } | undefined;

/** Ollama's default model here, and the first of the lists tests give. */
export const qwen3Spec: OllamaModelSpec = {
  name: 'qwen3:latest',
  architecture: 'qwen3',
  contextLength: 40960,
  capabilities: ['completion', 'tools'],
};
const defaultOllama: OllamaModelSpec[] = [qwen3Spec];

/** The model Keel lists from geminiModels below (prices from its own table). */
export const geminiFlashListed = {
  id: 'gemini-2.5-flash',
  contextWindow: 1048576,
  maxOutput: 65536,
  tools: true,
  streaming: true,
  images: true,
  price: { inputPerMTok: 0.3, outputPerMTok: 2.5, cacheReadPerMTok: 0.075 },
  source: 'server',
};

/** The answer to a model-list route, or undefined when the route is not one. */
export function modelListAnswer(
  route: string,
  headers: Headers,
  body: { model?: string } | undefined,
  options: ModelListOptions,
): ListAnswer {
  const ollama = options.ollamaModels ?? defaultOllama;
  switch (route) {
    case 'GET /api/tags':
      return { status: 200, body: { models: ollama.map(tag) } };
    case 'POST /api/show': {
      const wanted = body?.model ?? '';
      const spec =
        ollama.find((m) => m.name === wanted || m.name === `${wanted}:latest`) ??
        // The first version of this server answered any name; tests that name no models keep that.
        (options.ollamaModels ? undefined : { ...defaultOllama[0]!, name: wanted });
      if (!spec) return { status: 404, body: { error: `model '${wanted}' not found` } };
      return { status: 200, body: show(spec, options.capabilities) };
    }
    case 'GET /v1/models':
      if (headers['anthropic-version']) return { status: 200, body: anthropicModels };
      return { status: 200, body: options.openrouter ? openRouterModels : openaiModels };
    case 'GET /v1beta/models':
      return { status: 200, body: geminiModels };
    default:
      return undefined;
  }
}

function tag(spec: OllamaModelSpec) {
  return {
    name: spec.name,
    model: spec.name,
    modified_at: '2025-01-01T00:00:00Z',
    size: 5e9,
    digest: 'x',
    details: { format: 'gguf', family: spec.architecture ?? 'qwen3', parameter_size: '8.2B' },
  };
}

function show(spec: OllamaModelSpec, override: string[] | undefined) {
  const architecture = spec.architecture ?? 'qwen3';
  const capabilities = override ?? spec.capabilities;
  return {
    modelfile: '',
    parameters: '',
    template: '',
    details: { family: architecture, parameter_size: '8.2B', quantization_level: 'Q4_K_M' },
    model_info: {
      'general.architecture': architecture,
      ...(spec.contextLength ? { [`${architecture}.context_length`]: spec.contextLength } : {}),
    },
    ...(capabilities === null ? {} : { capabilities: capabilities ?? ['completion', 'tools'] }),
  };
}

const openaiModels = {
  object: 'list',
  data: [
    { id: 'gpt-4o-mini', object: 'model', created: 1, owned_by: 'scripted' },
    { id: 'text-embedding-3-small', object: 'model', created: 1, owned_by: 'scripted' },
  ],
};

export const openRouterModels = {
  data: [
    {
      id: 'anthropic/claude-sonnet-4',
      name: 'Anthropic: Claude Sonnet 4',
      context_length: 200000,
      pricing: { prompt: '0.000003', completion: '0.000015', request: '0' },
      top_provider: { context_length: 200000, max_completion_tokens: 64000, is_moderated: false },
      supported_parameters: ['max_tokens', 'temperature', 'tools', 'tool_choice', 'reasoning'],
    },
    {
      id: 'mistralai/mistral-7b-instruct:free',
      name: 'Mistral 7B Instruct (free)',
      context_length: 32768,
      pricing: { prompt: '0', completion: '0' },
      top_provider: { context_length: 32768, max_completion_tokens: null, is_moderated: false },
      supported_parameters: ['max_tokens', 'temperature'],
    },
  ],
};

const anthropicModels = {
  data: [
    {
      type: 'model',
      id: 'claude-sonnet-4-5-20250929',
      display_name: 'Claude Sonnet 4.5',
      created_at: '2025-09-29T00:00:00Z',
    },
    {
      type: 'model',
      id: 'claude-haiku-4-5-20251001',
      display_name: 'Claude Haiku 4.5',
      created_at: '2025-10-01T00:00:00Z',
    },
  ],
  has_more: false,
  first_id: 'claude-sonnet-4-5-20250929',
  last_id: 'claude-haiku-4-5-20251001',
};

export const geminiModels = {
  models: [
    {
      name: 'models/gemini-2.5-flash',
      displayName: 'Gemini 2.5 Flash',
      inputTokenLimit: 1048576,
      outputTokenLimit: 65536,
      supportedGenerationMethods: [
        'generateContent',
        'countTokens',
        'createCachedContent',
        'batchGenerateContent',
      ],
    },
    {
      name: 'models/gemini-embedding-001',
      displayName: 'Gemini Embedding 001',
      inputTokenLimit: 2048,
      outputTokenLimit: 1,
      supportedGenerationMethods: ['embedContent', 'countTextTokens'],
    },
  ],
};
