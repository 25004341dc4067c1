// Where a run starts: the workspace directory, checked, and the config loaded for it (flags > env > project file >
// user file > defaults). Every entry point resolves its options to a RunSource first.

import { configDefaults } from '../config/defaults.js';
import { type ConfigFlags, type LoadedConfig, loadConfig } from '../config/load.js';
import { resolveWorkspaceDir } from './workspace-dir.js';

export { resolveWorkspaceDir };

/** Where a run starts, as resolved by its caller (the CLI resolves paths against where keel was started). */
export interface RunSource {
  /** The workspace directory; default: the process's working directory. */
  cwd?: string;
  /** An absolute config file replacing the user file (--config). */
  configFile?: string;
  /** Values given on the command line, above env and files. */
  flags?: ConfigFlags;
  /** An absolute cassette path to record the model's responses to (--record). */
  record?: string;
}

export async function loadRunConfig(source: RunSource, env: NodeJS.ProcessEnv): Promise<LoadedConfig> {
  return loadConfig({
    workspace: await resolveWorkspaceDir(source.cwd),
    configFile: source.configFile,
    env,
    flags: source.flags ?? {},
  });
}

/** The defaults alone, no file or variable read: for runs that must not depend on the user's config (tool evals). */
export async function defaultConfig(): Promise<LoadedConfig> {
  return { config: (await configDefaults()).config, sources: {}, files: [], ignored: [], warnings: [] };
}
