// Loads the config: defaults < user file < project file < environment < flags, remembering each value's source.
// A project file in an untrusted folder cannot set the keys of config/trust.ts; those fall back to the user's.

import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { configDefaults, type LeafDefault, setPath } from './defaults.js';
import type { ConfigFileOptions } from './file.js';
import type { ConfigLayer } from './layer.js';
import { type ConfigFlags, envLayer, envProvider, flagLayer, flagProvider } from './overrides.js';
import { projectConfigPath, userConfigPath } from './paths.js';
import type { KeelConfig, ProviderName } from './schema.js';
import { configSecrets } from './secrets.js';
import type { IgnoredKey } from './trust.js';
import { trustedBy } from './trusted-folders.js';

export type { ConfigFlags } from './overrides.js';

/** The YAML parser loads only when a config file exists: most runs have none, and start-up counts. */
async function readConfigFile(file: string, options: ConfigFileOptions): Promise<ConfigLayer | undefined> {
  if (!options.required && !existsSync(file)) return undefined;
  const { readConfigFile: read } = await import('./file.js');
  return read(file, options);
}

export interface LoadedConfig {
  /** Validated, defaults filled. */
  config: KeelConfig;
  /**
   * Dotted key -> where its value came from, for every leaf key: "default", "user file /x/config.yaml:3",
   * "config file /x.yaml:2" (from --config), "project file /w/.keel.yaml:5", "env KEEL_MODEL", "flag --model".
   */
  sources: Record<string, string>;
  /** Config files that were read (those that exist). */
  files: string[];
  /** Project-file keys left out because the workspace folder is not trusted (see config/trust.ts). */
  ignored: IgnoredKey[];
  /** Ready-worded warnings for the user (at most one today: the ignored keys). */
  warnings: string[];
  /**
   * Secret values written in the config files (an api_key, a token), those overridden or ignored included: the
   * redactor removes them wherever they show up.
   */
  secrets?: string[];
}

export interface LoadConfigOptions {
  workspace: string;
  /** From `--config <file>`: replaces the user file and must exist. Relative paths resolve against the workspace. */
  configFile?: string;
  /** Also locates the state dir, whose trusted-folders file says whether the workspace is trusted. */
  env: NodeJS.ProcessEnv;
  flags: ConfigFlags;
}

function defaultLayer(leaves: readonly LeafDefault[]): ConfigLayer {
  return new Map(leaves.map((leaf) => [leaf.key, { value: leaf.defaultValue, source: 'default' }]));
}

/**
 * Leaves out of `project` the keys that need a trusted folder, unless the workspace is trusted (then their
 * sources say so). A value equal to the one underneath changes nothing, so it is dropped without a word.
 */
async function screenProject(
  project: ConfigLayer,
  below: ConfigLayer[],
  workspace: string,
  env: NodeJS.ProcessEnv,
): Promise<IgnoredKey[]> {
  const { requiresTrust } = await import('./trust.js');
  const guarded = [...project].filter(([key, entry]) => requiresTrust(key, entry.value));
  // The trusted-folders file is read only when it matters, so most runs never touch it.
  if (guarded.length === 0) return [];
  const trusted = (await trustedBy(env, workspace)) !== undefined;
  const ignored: IgnoredKey[] = [];
  for (const [key, entry] of guarded) {
    if (trusted) {
      entry.source = `${entry.source} (trusted folder)`;
      continue;
    }
    project.delete(key);
    const underneath = below.findLast((layer) => layer.has(key))?.get(key)?.value;
    if (JSON.stringify(underneath) !== JSON.stringify(entry.value)) {
      ignored.push({ key, source: entry.source });
    }
  }
  return ignored;
}

export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const { workspace, env, flags } = options;
  const userFile = options.configFile
    ? isAbsolute(options.configFile)
      ? options.configFile
      : resolve(workspace, options.configFile)
    : userConfigPath(env);
  const projectFile = projectConfigPath(workspace);

  const user = await readConfigFile(userFile, {
    label: options.configFile ? 'config file' : 'user file',
    required: options.configFile !== undefined,
  });
  // `--config .keel.yaml` names the project file itself; reading it twice would only blur the sources.
  const project =
    resolve(projectFile) === resolve(userFile)
      ? undefined
      : await readConfigFile(projectFile, { label: 'project file', required: false });
  // Before screening: an untrusted project's key is ignored, but still a secret if the model comes across it.
  const secrets = [user, project].flatMap((layer) =>
    [...(layer ?? [])].flatMap(([key, entry]) => configSecrets({ [key.split('.').at(-1)!]: entry.value })),
  );
  const { leaves, config: defaultConfig } = await configDefaults();
  const defaults = defaultLayer(leaves);
  const ignored = project
    ? await screenProject(project, [defaults, ...(user ? [user] : [])], workspace, env)
    : [];
  const fileLayers = [user, project].filter((layer): layer is ConfigLayer => layer !== undefined);

  let selected = defaults.get('provider.type')!.value as ProviderName;
  for (const layer of fileLayers) selected = (layer.get('provider.type')?.value as ProviderName) ?? selected;
  selected = flagProvider(flags) ?? envProvider(env) ?? selected;

  const overrides = [await envLayer(env, selected), await flagLayer(flags, selected)];
  const merged = defaults;
  for (const layer of [...fileLayers, ...overrides]) {
    for (const [key, entry] of layer) merged.set(key, entry);
  }

  const sources: Record<string, string> = {};
  for (const leaf of leaves) sources[leaf.key] = merged.get(leaf.key)!.source;
  const files = [user && userFile, project && projectFile].filter((file): file is string => Boolean(file));
  const warnings =
    ignored.length > 0
      ? [(await import('./trust.js')).untrustedWarning(projectFile, workspace, ignored)]
      : [];
  const config =
    fileLayers.length === 0
      ? withOverrides(defaultConfig, leaves, overrides)
      : await parseMerged(leaves, merged);
  return { config, sources, files, ignored, warnings, secrets };
}

/**
 * No config file: the defaults' config with the variables' and flags' values, each checked against its key's schema
 * (overrides.ts), set in place. None of those keys is part of a rule across keys, so the whole schema need not be
 * built to check them again.
 */
function withOverrides(
  config: KeelConfig,
  leaves: readonly LeafDefault[],
  layers: ConfigLayer[],
): KeelConfig {
  const paths = new Map(leaves.map((leaf) => [leaf.key, leaf.path]));
  for (const layer of layers) {
    for (const [key, entry] of layer) {
      if (entry.value !== undefined) setPath(config as Record<string, unknown>, paths.get(key)!, entry.value);
    }
  }
  return config;
}

/** The merged layers parsed by the whole schema, which also applies the rules across keys of the files' values. */
async function parseMerged(leaves: readonly LeafDefault[], merged: ConfigLayer): Promise<KeelConfig> {
  const raw: Record<string, unknown> = {};
  for (const leaf of leaves) {
    const value = merged.get(leaf.key)!.value;
    if (value !== undefined) setPath(raw, leaf.path, value);
  }
  const { configSchema } = await import('./schema.js');
  // Each layer was checked on its own, so this only fails if the schema and the layers disagree.
  const result = configSchema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(
      `the merged config is invalid: ${result.error.issues[0]?.message ?? 'unknown problem'}`,
      {
        hint: 'run `keel config show` to see where each value came from',
      },
    );
  }
  return result.data;
}
