// Adds the tools of `tools.custom` to a run's registry; a relative script is found beside the config file that
// defines it, else in the workspace. Loaded only when config defines tools (it brings in the bash parser).
import { dirname } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { ConfigError } from '../core/errors.js';
import { createReadJail } from '../safety/read-jail.js';
import type { ToolRegistry } from '../tools/registry.js';
import { customTools } from './custom-tool.js';

/** "project file /w/.keel.yaml:3 (trusted folder)" → /w/.keel.yaml. */
function definingFile(source: string | undefined): string | undefined {
  return source?.match(/^(?:user|project|config) file (.+?)(?::\d+)?(?: \(trusted folder\))?$/)?.[1];
}

export async function addConfigTools(
  registry: ToolRegistry,
  loaded: LoadedConfig,
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const source = loaded.sources['tools.custom'];
  const file = definingFile(source);
  // A project's scripts must stay in the workspace (a link out is skipped); the user's own config is exempt.
  const jail = source?.startsWith('project file') ? createReadJail(env) : undefined;
  const tools = await customTools(loaded.config.tools.custom, {
    scriptDirs: [...(file ? [dirname(file)] : []), workspace],
    ...(jail
      ? {
          refuseScript: async (script: string) => {
            const checked = await jail.check(script, workspace);
            return 'refused' in checked ? checked.refused : undefined;
          },
        }
      : {}),
    // Emitted with the config's own warnings when the run's events start.
    warn: (message) => loaded.warnings.push(message),
  }).catch((error: unknown) => {
    throw inFile(error, file);
  });
  for (const tool of tools) {
    if (registry.get(tool.name)) {
      throw inFile(
        new ConfigError(`tools.custom.${tool.name}: a built-in tool has that name`, {
          hint: 'rename the tool',
        }),
        file,
      );
    }
    registry.add(tool);
  }
}

/** A tool's config error naming the file that defines it, as a config file's own errors do. */
function inFile(error: unknown, file: string | undefined): unknown {
  if (!(error instanceof ConfigError) || !file) return error;
  const [key, ...rest] = error.message.split(': ');
  return new ConfigError(`${key} in ${file}: ${rest.join(': ')}`, {
    ...(error.hint ? { hint: error.hint } : {}),
    cause: error,
  });
}
