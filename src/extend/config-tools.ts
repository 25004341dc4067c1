// Adds the tools of `tools.custom` to a run's registry; a relative script is found beside the config file that
// defines it, else in the workspace. Loaded only when config defines tools (it brings in the bash parser).
import { dirname } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { ConfigError } from '../core/errors.js';
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
): Promise<void> {
  const file = definingFile(loaded.sources['tools.custom']);
  const tools = await customTools(loaded.config.tools.custom, {
    scriptDirs: [...(file ? [dirname(file)] : []), workspace],
  });
  for (const tool of tools) {
    if (registry.get(tool.name)) {
      throw new ConfigError(`tools.custom.${tool.name}: a built-in tool has that name`, {
        hint: 'rename the tool',
      });
    }
    registry.add(tool);
  }
}
