// Whether a provider has a model of a given name, from the provider's own list where one request gets it and it names
// every model the provider takes: Ollama's /api/tags (where `qwen3` is `qwen3:latest`), an OpenAI-compatible server's
// /v1/models — which some servers (llama.cpp, a proxy) do not hold to: they answer any name, so their list is
// advice, not a refusal (`binding`). Hosted providers also take names their lists leave out (Anthropic's aliases,
// OpenRouter's `:nitro` variants), so they are not asked.
import type { KeelConfig } from '../config/schema.js';
import { editDistance } from '../core/text.js';

/** A name of the provider's list, or the names closest to one it does not have (none close: empty). */
export type ModelNameCheck = { known: true } | { known: false; near: string[] };

/**
 * The names of the models `provider` has, or why its list is not asked (see above). Makes one request; throws what
 * it fails with (unreachable, rejected, aborted).
 */
export async function listedModelNames(
  provider: KeelConfig['provider'],
  options: { env: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<{ names: string[]; binding: boolean } | { unasked: string }> {
  switch (provider.type) {
    case 'ollama': {
      const { listOllamaTags, normalizeOllamaHost } = await import('./ollama-api.js');
      const root = normalizeOllamaHost(provider.ollama.base_url);
      return { names: await listOllamaTags(root, options.signal, provider.ollama.api_key), binding: true };
    }
    case 'openai-compatible': {
      const { listProviderModels } = await import('./model-lists.js');
      const models = await listProviderModels(provider, {
        ...options,
        apiKey: () =>
          Promise.reject(new Error('an OpenAI-compatible server takes its key from its settings')),
      });
      return { names: models.map((model) => model.id), binding: false };
    }
    case 'replay':
      return { unasked: 'a replay answers with its cassette' };
    default:
      return { unasked: `${provider.type} takes names its model list leaves out` };
  }
}

/** How many close names a refusal offers. */
const NEAR = 3;

/** `name` against the provider's `names`: known (Ollama's `:latest` may go unsaid), else the names closest to it. */
export function checkModelName(name: string, names: readonly string[]): ModelNameCheck {
  if (names.includes(name) || names.includes(`${name}:latest`)) return { known: true };
  const wanted = name.toLowerCase();
  const ranked = names
    .map((candidate) => ({ candidate, rank: nearness(wanted, candidate.toLowerCase()) }))
    .filter(({ rank }) => rank !== undefined)
    .sort((a, b) => a.rank! - b.rank! || a.candidate.localeCompare(b.candidate));
  return { known: false, near: ranked.slice(0, NEAR).map(({ candidate }) => candidate) };
}

/**
 * How close `candidate` is to `wanted` (lower is closer; undefined: not close): the same name in another case or
 * with another tag (`qwen3:8b` for `qwen3`), a typo away from the name or from its part before the tag, one holding
 * the other, two typos away.
 */
function nearness(wanted: string, candidate: string): number | undefined {
  const base = candidate.split(':')[0]!;
  if (candidate === wanted || base === wanted.split(':')[0]) return 0;
  const distance = Math.min(editDistance(wanted, candidate), editDistance(wanted, base));
  if (distance === 1) return 1;
  if ((wanted.length >= 3 && candidate.includes(wanted)) || (base.length >= 3 && wanted.includes(base)))
    return 2;
  return distance === 2 ? 3 : undefined;
}
