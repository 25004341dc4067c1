// The environment and command-line layers: which variables and flags set which config keys.
import * as z from 'zod';
import { ConfigError } from '../core/errors.js';
import type { ConfigLayer } from './layer.js';
import { checkValue, type LayerEntry, schemaIn, unwrap } from './leaf-schema.js';
import { type ProviderName, providerField, providerNames } from './provider-schema.js';

export interface ConfigFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  maxTurns?: number;
  cassette?: string;
  /** How the caller names these (a message about a bad value says it); default: keel's flags. */
  names?: FlagNames;
}

/** What each value is called where it was given, and the word for that place ("flag", "option"). */
export interface FlagNames {
  provider: string;
  model: string;
  baseUrl: string;
  maxTurns: string;
  cassette: string;
  kind: string;
}

export const CLI_FLAGS: FlagNames = {
  provider: '--provider',
  model: '--model',
  baseUrl: '--base-url',
  maxTurns: '--max-turns',
  cassette: '--cassette',
  kind: 'flag',
};

const ollamaDefaultPort = '11434';

/** Variables that set one fixed key. KEEL_MODEL is separate: it follows the selected provider. */
const envKeys: ReadonlyArray<readonly [variable: string, key: string]> = [
  ['KEEL_PROVIDER', 'provider.type'],
  ['OLLAMA_HOST', 'provider.ollama.base_url'],
  ['OLLAMA_MODEL', 'provider.ollama.model'],
  ['OLLAMA_API_KEY', 'provider.ollama.api_key'],
  ['COPILOT_MODEL', 'provider.copilot.model'],
  ['OPENAI_BASE_URL', 'provider.openai-compatible.base_url'],
  ['OPENAI_API_KEY', 'provider.openai-compatible.api_key'],
];

function unknownProvider(name: string, origin: string): ConfigError {
  return new ConfigError(`unknown provider "${name}" in ${origin}`, {
    hint: `valid providers: ${providerNames.join(', ')}`,
  });
}

/** `name` as a provider's, or undefined when not given; an unknown name is a config error naming `origin`. */
export function asProvider(name: string | undefined, origin: string): ProviderName | undefined {
  if (name === undefined) return undefined;
  if ((providerNames as readonly string[]).includes(name)) return name as ProviderName;
  throw unknownProvider(name, origin);
}

/** Empty variables count as unset, as shells make `FOO= keel` easy to type by accident. */
function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

export function envProvider(env: NodeJS.ProcessEnv): ProviderName | undefined {
  return asProvider(envValue(env, 'KEEL_PROVIDER'), 'KEEL_PROVIDER');
}

/** The provider the flags choose: --provider, or replay for --cassette alone (it means nothing to another). */
export function flagProvider(flags: ConfigFlags): ProviderName | undefined {
  const named = asProvider(flags.provider, (flags.names ?? CLI_FLAGS).provider);
  if (flags.cassette === undefined || named === 'replay') return named;
  if (named === undefined) return 'replay';
  throw new ConfigError(`--cassette is for --provider replay, not ${named}`, {
    hint: `drop --provider ${named} to replay the cassette, or drop --cassette (--record <file> records a run)`,
  });
}

/** Ollama's own convention: OLLAMA_HOST may be `host`, `host:port` or a URL; http and port 11434 by default. */
export function normaliseOllamaHost(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '');
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  let url = hasScheme ? trimmed : `http://${trimmed}`;
  if (!hasScheme && !/:\d+(\/|$)/.test(trimmed)) {
    const slash = url.indexOf('/', 'http://'.length);
    url =
      slash === -1
        ? `${url}:${ollamaDefaultPort}`
        : `${url.slice(0, slash)}:${ollamaDefaultPort}${url.slice(slash)}`;
  }
  if (!URL.canParse(url)) {
    throw new ConfigError(`OLLAMA_HOST is not a valid address: "${value}"`, {
      hint: 'use host:port or a URL, e.g. OLLAMA_HOST=localhost:11434',
    });
  }
  return url;
}

/**
 * The schema of the leaf key a variable or flag sets, undefined when there is none. Provider keys are looked up in
 * the provider block alone: the whole schema is built only for the others (--max-turns) or when a file is read.
 */
async function leafSchema(key: string): Promise<z.ZodType | undefined> {
  const path = key.split('.');
  const field = path[0] === 'provider' && path.length > 1 ? providerField(path[1]!) : undefined;
  const schema =
    path[0] !== 'provider'
      ? (await import('./keys.js')).schemaAt(path)
      : field && schemaIn(unwrap(field).inner, path.slice(2));
  return schema instanceof z.ZodObject ? undefined : schema;
}

async function checkedEntry(
  key: string,
  value: unknown,
  origin: string,
  source: string,
): Promise<LayerEntry> {
  const schema = await leafSchema(key);
  if (schema === undefined) throw new Error(`no config key ${key}`);
  return checkValue(key, schema, value, origin, source);
}

/** The environment layer; `selected` is the provider finally chosen, which KEEL_MODEL applies to. */
export async function envLayer(env: NodeJS.ProcessEnv, selected: ProviderName): Promise<ConfigLayer> {
  const layer: ConfigLayer = new Map();
  for (const [variable, key] of envKeys) {
    const raw = envValue(env, variable);
    if (raw === undefined) continue;
    if (variable === 'KEEL_PROVIDER') asProvider(raw, variable);
    const value = variable === 'OLLAMA_HOST' ? normaliseOllamaHost(raw) : raw;
    layer.set(key, await checkedEntry(key, value, variable, `env ${variable}`));
  }
  // A globally exported KEEL_MODEL must not break providers without a model (replay), so it is skipped there.
  const model = envValue(env, 'KEEL_MODEL');
  const modelKey = `provider.${selected}.model`;
  if (model !== undefined && (await leafSchema(modelKey))) {
    layer.set(modelKey, await checkedEntry(modelKey, model, 'KEEL_MODEL', 'env KEEL_MODEL'));
  }
  return layer;
}

/** The flag layer; --model and --base-url apply to the provider finally chosen. */
export async function flagLayer(flags: ConfigFlags, selected: ProviderName): Promise<ConfigLayer> {
  const layer: ConfigLayer = new Map();
  const names = flags.names ?? CLI_FLAGS;
  const set = async (key: string, value: unknown, flag: string) => {
    if (value === undefined) return;
    if (!(await leafSchema(key))) {
      throw new ConfigError(`${flag} does not apply to the ${selected} provider`, {
        hint: `remove ${flag}, or choose another provider with ${names.provider}`,
      });
    }
    layer.set(key, await checkedEntry(key, value, flag, `${names.kind} ${flag}`));
  };
  const chosen = flagProvider(flags);
  await set('provider.type', chosen, flags.provider === undefined ? names.cassette : names.provider);
  await set(`provider.${selected}.model`, flags.model, names.model);
  await set(`provider.${selected}.base_url`, flags.baseUrl, names.baseUrl);
  await set('agent.max_turns', flags.maxTurns, names.maxTurns);
  await set('provider.replay.cassette', flags.cassette, names.cassette);
  return layer;
}
