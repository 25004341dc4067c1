// Where a run or chat starts its MCP servers: nothing (no SDK loaded) when none is enabled, else their processes
// at once (stdio servers boot while the SDK loads) and the manager, loaded and started in the background at launch;
// the first model request waits for them (`ready`), bounded by their startup timeout, and the run's end ends them
// without waiting.

import { isAbsolute, join } from 'node:path';
import type { McpServerConfig } from '../config/mcp-schema.js';
import type { PromptCommand } from '../core/prompt-command.js';
import type { CommandRunner } from '../core/runner.js';
import type { ReadJail } from '../safety/read-jail.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { McpManager } from './manager.js';
import { ServerProcess, stdioServer } from './server-process.js';

declare const KEEL_VERSION: string;
const version = typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0.0.0-dev';

export interface McpServers {
  /** The prompts of the servers ready now, as slash commands (`<server>__<prompt>`). */
  prompts(): PromptCommand[];
  /**
   * Before the first request: waits for servers still starting (those without a cached tool list) up to their
   * startup timeout, telling `waiting` once when it waits. Never throws; resolves when `signal` fires.
   */
  ready(signal: AbortSignal, waiting: (message: string) => void): Promise<void>;
  /** Ends every server at once (nothing awaited but the manager's loading); no warnings after this. */
  close(): Promise<void>;
}

export interface StartOptions {
  servers: Record<string, McpServerConfig>;
  registry: ToolRegistry;
  env: NodeJS.ProcessEnv;
  workspace: string;
  warn: (message: string) => void;
  /** mcp.startup_timeout_seconds (default 10). */
  startupTimeoutSeconds?: number;
  /** Keel's cache dir: the servers' last tool lists are kept under it. */
  cacheDir?: string;
  /**
   * Checks each stdio server's `cwd`: a relative one (or any, when a project file set `mcp.servers`) must stay in
   * the workspace; the user's own absolute ones are exempt.
   */
  jail?: { reads: ReadJail; project: boolean };
}

async function cwdRefusal(cwd: string, options: StartOptions): Promise<string | undefined> {
  if (!options.jail || (isAbsolute(cwd) && !options.jail.project)) return undefined;
  const checked = await options.jail.reads.check(cwd, options.workspace);
  return 'refused' in checked ? checked.refused : undefined;
}

/** The servers whose `cwd` the jail accepts; each one refused is a warning and does not start. */
async function jailedServers(options: StartOptions): Promise<Record<string, McpServerConfig>> {
  if (!options.jail) return options.servers;
  const kept: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(options.servers)) {
    const refused =
      server.enabled && server.cwd !== undefined ? await cwdRefusal(server.cwd, options) : undefined;
    if (refused) options.warn(`MCP server ${name} not started: its cwd ${server.cwd} is skipped: ${refused}`);
    else kept[name] = server;
  }
  return kept;
}

/**
 * Spawns each enabled stdio server now, before the SDK loads, for its connection to adopt. A server whose env cannot
 * be filled is left to its connection, which says why.
 */
function spawnEarly(
  servers: Record<string, McpServerConfig>,
  options: StartOptions,
): Record<string, ServerProcess> {
  const early: Record<string, ServerProcess> = {};
  for (const [name, config] of Object.entries(servers)) {
    if (!config.enabled || config.url !== undefined) continue;
    try {
      early[name] = new ServerProcess(stdioServer(name, config, options.env, options.workspace));
    } catch {
      // An unset ${VAR}: the connection's own start fails with the message.
    }
  }
  return early;
}

/**
 * A signal that would kill Keel before the CLI handles signals (early in launch, servers already spawned) ends the
 * servers first: alone on it, the handler exits as Keel's own do (SIGKILL to each group at exit). With other
 * listeners (the CLI's), it does nothing: they decide. Returns the function that removes it.
 */
function guardSignals(): () => void {
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
  const offs = Object.entries(codes).map(([name, code]) => {
    const handler = () => {
      if (process.listenerCount(name) === 1) process.exit(code);
    };
    process.on(name, handler);
    return () => process.off(name, handler);
  });
  return () => {
    for (const off of offs) off();
  };
}

export function startMcpServers(options: StartOptions): McpServers | undefined {
  if (!Object.values(options.servers).some((server) => server.enabled)) return undefined;
  let manager: McpManager | undefined;
  let closed = false;
  let early: ServerProcess[] = [];
  let unguard = () => {};
  // Until the manager has them (and after: it may never be made), no early process outlives Keel.
  const onExit = () => {
    for (const server of early) server.killAtExit();
  };
  const loading = jailedServers(options).then(async (servers) => {
    if (closed) return;
    const spawned = spawnEarly(servers, options);
    early = Object.values(spawned);
    if (early.length > 0) {
      process.on('exit', onExit);
      unguard = guardSignals();
    }
    const [{ McpManager }, { toolCache }] = await Promise.all([
      import('./manager.js'),
      import('./tool-cache.js'),
    ]);
    if (closed) return;
    const cache = options.cacheDir ? toolCache(join(options.cacheDir, 'mcp-tools')) : undefined;
    manager = new McpManager({ ...options, servers, version, early: spawned, ...(cache ? { cache } : {}) });
    manager.start();
  });
  return {
    prompts: () => manager?.prompts() ?? [],
    async ready(signal, waiting) {
      await loading;
      await manager?.ready(signal, waiting);
    },
    async close() {
      closed = true;
      await loading;
      await manager?.close();
      // Those the manager never adopted (it closed first) end here; ending one twice does nothing.
      for (const server of early) server.end();
      unguard();
      void Promise.all(early.map((server) => server.gone)).then(() => process.off('exit', onExit));
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
