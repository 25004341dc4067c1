// Where a run or chat starts its MCP servers: nothing (no SDK loaded) when none is enabled, else the manager,
// loaded and started in the background so the first model request never waits for a server.

import type { McpServerConfig } from '../config/mcp-schema.js';
import type { PromptCommand } from '../core/prompt-command.js';
import type { CommandRunner } from '../core/runner.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { McpManager } from './manager.js';

declare const KEEL_VERSION: string;
const version = typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0.0.0-dev';

export interface McpServers {
  /** The prompts of the servers ready now, as slash commands (`<server>__<prompt>`). */
  prompts(): PromptCommand[];
  /** Ends every server; no warnings after this. */
  close(): Promise<void>;
}

export interface StartOptions {
  servers: Record<string, McpServerConfig>;
  registry: ToolRegistry;
  env: NodeJS.ProcessEnv;
  workspace: string;
  warn: (message: string) => void;
  /** Why a stdio server's working directory is refused (a link out of the workspace), or undefined. */
  refuseCwd?: (cwd: string) => Promise<string | undefined>;
}

/** The servers whose `cwd` the jail accepts; each one refused is a warning and does not start. */
async function jailedServers(options: StartOptions): Promise<Record<string, McpServerConfig>> {
  const { refuseCwd } = options;
  if (!refuseCwd) return options.servers;
  const kept: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(options.servers)) {
    const refused = server.enabled && server.cwd !== undefined ? await refuseCwd(server.cwd) : undefined;
    if (refused) options.warn(`MCP server ${name} not started: its cwd ${server.cwd} is skipped: ${refused}`);
    else kept[name] = server;
  }
  return kept;
}

export function startMcpServers(options: StartOptions): McpServers | undefined {
  if (!Object.values(options.servers).some((server) => server.enabled)) return undefined;
  let manager: McpManager | undefined;
  let closed = false;
  const loading = Promise.all([import('./manager.js'), jailedServers(options)]).then(
    ([{ McpManager }, servers]) => {
      if (closed) return;
      manager = new McpManager({ ...options, servers, version });
      manager.start();
    },
  );
  return {
    prompts: () => manager?.prompts() ?? [],
    async close() {
      closed = true;
      await loading;
      await manager?.close();
    },
  };
}

/** The agent's runner, whose killAll (at the end of a run or chat, and on SIGTERM) also ends the MCP servers. */
export function withServers(runner: CommandRunner, servers: McpServers | undefined): CommandRunner {
  if (!servers) return runner;
  return {
    ...runner,
    killAll() {
      void servers.close();
      return runner.killAll();
    },
  };
}
