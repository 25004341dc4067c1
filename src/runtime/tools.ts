// The tools a run offers: the built-in ones (or the caller's own choice), less the shell tools when commands are
// off, plus those defined in config (tools.custom). MCP servers' tools join later (assemble.ts starts them).
import type { LoadedConfig } from '../config/load.js';
import type { McpServerConfig } from '../config/mcp-schema.js';
import { cacheDir } from '../config/paths.js';
import type { AgentEvent } from '../core/events.js';
import { type McpServers, startMcpServers } from '../mcp/start.js';
import { COMMAND_TOOL } from '../safety/policy.js';
import { createReadJail } from '../safety/read-jail.js';
import { createRegistry, defaultTools, type ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';

export interface ToolChoice {
  /** The tools offered; default: the built-in ones. keel init offers none, keel ask the read-only ones. */
  tools?: Tool[];
  /** Add the tools of tools.custom; default: only with the built-in tools. */
  custom?: boolean;
  /** The run's model may search the web itself (a run with a model; not keel mcp serve or the tool evals). */
  nativeSearch?: boolean;
}

/** Providers whose API has its own web search (providers/*.ts wire it as NativeWebSearch). */
const SEARCHING_PROVIDERS: readonly string[] = ['anthropic', 'gemini', 'openai', 'openrouter'];
export const searchesTheWeb = (provider: string): boolean => SEARCHING_PROVIDERS.includes(provider);

export async function buildRegistry(
  loaded: LoadedConfig,
  workspaceRoot: string,
  choice: ToolChoice = {},
): Promise<ToolRegistry> {
  const { config } = loaded;
  const registry = createRegistry(choice.tools ?? defaultTools());
  // Without command execution the shell tool goes, and with it the tools that follow background commands.
  if (!config.safety.allow_command_execution) {
    for (const name of [COMMAND_TOOL, 'command_output', 'kill_command']) registry.remove(name);
  }
  // web_search is offered only where it can search: a configured endpoint (web.search), or the provider's own.
  if (!config.web.search && !(choice.nativeSearch && searchesTheWeb(config.provider.type)))
    registry.remove('web_search');
  // Their loader brings the bash parser, so it loads only when config defines some.
  const custom = choice.custom ?? choice.tools === undefined;
  if (custom && Object.keys(config.tools.custom).length > 0) {
    const { addConfigTools } = await import('../extend/config-tools.js');
    await addConfigTools(registry, loaded, workspaceRoot);
  }
  return registry;
}

/**
 * The MCP servers of mcp.servers, started now in the background; their tools join the registry when ready (the
 * first request waits for them, bounded: toolsReady) and they end with the runner.
 */
export function startRunMcp(
  loaded: LoadedConfig,
  registry: ToolRegistry,
  workspace: string,
  env: NodeJS.ProcessEnv,
  emit: (event: AgentEvent) => void,
  /** Servers given beside the config's (an editor's, keel acp); a configured name keeps its own server. */
  extra: Record<string, McpServerConfig> = {},
): McpServers | undefined {
  const { config } = loaded;
  return startMcpServers({
    servers: { ...extra, ...config.mcp.servers },
    registry,
    env,
    workspace,
    warn: (message) => emit({ type: 'warning', message }),
    startupTimeoutSeconds: config.mcp.startup_timeout_seconds,
    cacheDir: cacheDir(env),
    jail: {
      reads: createReadJail(env),
      project: loaded.sources['mcp.servers']?.startsWith('project file') === true,
    },
  });
}
