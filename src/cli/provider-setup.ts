// The first run's decisions, as data and pure functions: whether a provider was chosen at all, which installed
// Ollama model to use, and what to do without one — set Ollama up, ask at a terminal, or name the command headless.
import type { CredentialProvider } from '../providers/credentials.js';

/** Sources (as config/load.ts names them) that are no choice of provider: the defaults, and OLLAMA_HOST, which only says where Ollama is. */
const notAChoice = new Set(['default', 'env OLLAMA_HOST']);

/** Whether a config file, the environment or a flag chose the provider (or set anything of Ollama's but its address). */
export function providerChosen(sources: Record<string, string>): boolean {
  return Object.entries(sources).some(
    ([key, source]) =>
      (key === 'provider.type' || key.startsWith('provider.ollama.')) && !notAChoice.has(source),
  );
}

/** Model families that call tools well, best first (the name before `:`); embedding models never chat. */
const preferredFamilies = [
  'qwen3',
  'qwen3-coder',
  'gpt-oss',
  'qwen2.5-coder',
  'qwen2.5',
  'llama3.1',
  'llama3.3',
  'llama3.2',
  'mistral-nemo',
  'mistral-small',
  'mistral',
  'granite3.3',
  'deepseek-r1',
];

const family = (name: string) => name.split(':')[0]!.split('/').at(-1)!;

/** The installed name that `wanted` means (`qwen3` is `qwen3:latest`, else its first tag), or undefined. */
export function installedAs(models: readonly string[], wanted: string): string | undefined {
  if (models.includes(wanted) || models.includes(`${wanted}:latest`)) return wanted;
  return models.find((m) => m.startsWith(`${wanted}:`));
}

/** The model to use: the configured one when installed, else the best-known family, else the first chat model. */
export function pickOllamaModel(models: readonly string[], wanted: string): string | undefined {
  const configured = installedAs(models, wanted);
  if (configured) return configured;
  const chat = models.filter((m) => !/embed/i.test(m));
  for (const name of preferredFamilies) {
    const found = chat.find((m) => family(m) === name);
    if (found) return found;
  }
  return chat[0];
}

export interface SetupFacts {
  /** providerChosen(): nothing to set up. */
  chosen: boolean;
  /** Ollama's address, as its error messages name it. */
  ollamaUrl: string;
  /** The models Ollama lists, or undefined when it did not answer. */
  ollama?: readonly string[];
  /** provider.ollama.model (its default unless set). */
  ollamaModel: string;
  /** Providers whose credential was found (environment, keyring, credentials file). */
  credentials: readonly CredentialProvider[];
  /** A person at a terminal who can be asked. */
  terminal: boolean;
}

export type SetupStep =
  | { kind: 'go' }
  /** Use Ollama with this model: said, and saved to the user config. */
  | { kind: 'ollama'; model: string }
  /** Ask which provider; `note` says why Ollama is not simply used. */
  | { kind: 'choose'; note?: string }
  /** Headless: one message and the exact command to run. */
  | { kind: 'fail'; message: string; hint: string };

export function setupStep(facts: SetupFacts): SetupStep {
  if (facts.chosen) return { kind: 'go' };
  const { ollama, ollamaModel: wanted, ollamaUrl } = facts;
  const model = ollama ? pickOllamaModel(ollama, wanted) : undefined;
  if (model) {
    if (facts.terminal) return { kind: 'ollama', model };
    // Headless, an Ollama with the default model works as it always has; another model is the user's to choose.
    if (installedAs(ollama!, wanted)) return { kind: 'go' };
    return {
      kind: 'fail',
      message: `no provider is configured, and the Ollama at ${ollamaUrl} has no model ${wanted}`,
      hint: `choose one it has: keel config set provider.ollama.model ${model} (or pass --model ${model})`,
    };
  }
  const empty = ollama !== undefined;
  if (facts.terminal) {
    return {
      kind: 'choose',
      note: empty
        ? `the Ollama at ${ollamaUrl} has no models yet (ollama pull qwen3)`
        : `no Ollama answers at ${ollamaUrl}`,
    };
  }
  const found = facts.credentials[0];
  if (found) {
    return {
      kind: 'fail',
      message: `no provider is configured (a ${found} credential is there)`,
      hint: `use it: keel config set provider.type ${found} (or pass --provider ${found})`,
    };
  }
  return {
    kind: 'fail',
    message: empty
      ? `no provider is configured, and the Ollama at ${ollamaUrl} has no models`
      : `no provider is configured, and no Ollama answers at ${ollamaUrl}`,
    hint: empty
      ? 'pull one: ollama pull qwen3; or run keel at a terminal to choose a provider'
      : 'run keel at a terminal to choose one, or: keel auth login openai && keel config set provider.type openai ' +
        '(also copilot, anthropic, gemini, openrouter); or start Ollama: ollama serve',
  };
}
