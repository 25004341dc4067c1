// Loads the config: defaults < user file < project file < environment < flags, remembering each value's source.
// A project file in an untrusted folder cannot set the keys of config/trust.ts; those fall back to the user's.

import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { ConfigFileOptions } from './file.js';
import { configLeaves } from './keys.js';
import type { ConfigLayer } from './layer.js';
import { type ConfigFlags, envLayer, envProvider, flagLayer, flagProvider } from './overrides.js';
import { projectConfigPath, userConfigPath } from './paths.js';
import { configSchema, type KeelConfig, type ProviderName } from './schema.js';
import { configSecrets } from './secrets.js';
import { type IgnoredKey, requiresTrust, untrustedWarning } from './trust.js';
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

function defaultLayer(): ConfigLayer {
  return new Map(configLeaves().map((leaf) => [leaf.key, { value: leaf.defaultValue, source: 'default' }]));
}

function setPath(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let current = root;
  for (const segment of path.slice(0, -1)) {
    current[segment] ??= {};
    current = current[segment] as Record<string, unknown>;
  }
  current[path.at(-1)!] = value;
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
  const guarded = [...project].filter(([key]) => requiresTrust(key));
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
  const defaults = defaultLayer();
  const ignored = project
    ? await screenProject(project, [defaults, ...(user ? [user] : [])], workspace, env)
    : [];
  const fileLayers = [user, project].filter((layer): layer is ConfigLayer => layer !== undefined);

  let selected = defaults.get('provider.type')!.value as ProviderName;
  for (const layer of fileLayers) selected = (layer.get('provider.type')?.value as ProviderName) ?? selected;
  selected = flagProvider(flags) ?? envProvider(env) ?? selected;

  const merged = defaults;
  for (const layer of [...fileLayers, envLayer(env, selected), flagLayer(flags, selected)]) {
    for (const [key, entry] of layer) merged.set(key, entry);
  }

  const raw: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  for (const leaf of configLeaves()) {
    const entry = merged.get(leaf.key)!;
    sources[leaf.key] = entry.source;
    if (entry.value !== undefined) setPath(raw, leaf.path, entry.value);
  }
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
  const files = [user && userFile, project && projectFile].filter((file): file is string => Boolean(file));
  const warnings = ignored.length > 0 ? [untrustedWarning(projectFile, workspace, ignored)] : [];
  return { config: result.data, sources, files, ignored, warnings, secrets };
}
