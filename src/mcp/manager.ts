// The MCP servers of a run or chat: each connects in the background, in parallel, its tools joining the registry
// when ready (or at once from the cache of the last list). Before the first request, `ready` waits for servers
// without a cached list up to their startup timeout; close() ends them all at once, and an exit handler signals
// any stdio server still alive so none outlives Keel.

import type { McpServerConfig } from '../config/mcp-schema.js';
import type { PromptCommand } from '../core/prompt-command.js';
import type { ToolRegistry } from '../tools/registry.js';
import { McpConnection, type ServerState } from './connection.js';
import { promptCommands } from './prompts.js';
import type { ServerProcess } from './server-process.js';
import type { ToolCache } from './tool-cache.js';

export interface McpManagerOptions {
  servers: Record<string, McpServerConfig>;
  env: NodeJS.ProcessEnv;
  workspace: string;
  version: string;
  registry?: ToolRegistry;
  cache?: ToolCache;
  /** mcp.startup_timeout_seconds: a server's own startup_timeout_seconds wins. */
  startupTimeoutSeconds?: number;
  /** Stdio servers' processes the run started at launch, by server name. */
  early?: Record<string, ServerProcess>;
  warn: (message: string) => void;
}

export class McpManager {
  private readonly connections: McpConnection[];
  private started?: Promise<void>;
  private startedAt = 0;
  private readonly lateWarned = new Set<McpConnection>();
  private readonly onExit = () => this.killNow();

  constructor(private readonly options: McpManagerOptions) {
    const { servers, startupTimeoutSeconds: _, early, ...rest } = options;
    this.connections = Object.entries(servers).map(([name, config]) => {
      const process = early?.[name];
      return new McpConnection({ name, config, ...rest, ...(process ? { early: process } : {}) });
    });
  }

  /** Starts every enabled server without waiting for any; `settled()` resolves when each is ready or failed. */
  start(): void {
    if (this.started) return;
    process.on('exit', this.onExit);
    this.startedAt = Date.now();
    this.started = Promise.all(this.connections.map((connection) => connection.start())).then(() => {});
  }

  settled(): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  /** Each server's state once it is ready or has failed (disabled ones at once), in the order they settle. */
  async eachSettled(each: (state: ServerState) => void): Promise<void> {
    await Promise.all(
      this.connections.map((connection) => connection.settled().then(() => each(connection.state))),
    );
  }

  /** How long the first request waits for this server, counted from start(), in ms. */
  private deadline(connection: McpConnection): number {
    const { config } = connection.options;
    const seconds = config.startup_timeout_seconds ?? this.options.startupTimeoutSeconds ?? 10;
    return this.startedAt + seconds * 1000;
  }

  /**
   * Waits until every server still starting without a cached tool list is ready, failed or past its startup
   * timeout, or `signal` fires. `waiting` is told once, when there is a wait; each server past its timeout is one
   * warning, and its tools join when it is ready.
   */
  async ready(signal: AbortSignal, waiting: (message: string) => void): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.cacheRead));
    const pending = this.connections.filter(
      (connection) => connection.state.status === 'starting' && !connection.cachedTools,
    );
    const now = Date.now();
    const waited = pending.filter((connection) => this.deadline(connection) > now);
    if (waited.length > 0 && !signal.aborted) {
      const longest = Math.max(...waited.map((connection) => this.deadline(connection) - now));
      const names = waited.map((connection) => connection.state.name).join(', ');
      waiting(`waiting for MCP servers to start: ${names} (up to ${Math.ceil(longest / 1000)} s)`);
      const timers: NodeJS.Timeout[] = [];
      await new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => resolve(), { once: true });
        const each = waited.map(
          (connection) =>
            new Promise<void>((done) => {
              timers.push(setTimeout(done, this.deadline(connection) - now));
              void connection.settled().then(done);
            }),
        );
        void Promise.all(each).then(() => resolve());
      });
      for (const timer of timers) clearTimeout(timer);
    }
    if (signal.aborted) return;
    for (const connection of pending) {
      if (connection.state.status !== 'starting' || this.lateWarned.has(connection)) continue;
      this.lateWarned.add(connection);
      const { config } = connection.options;
      const seconds = config.startup_timeout_seconds ?? this.options.startupTimeoutSeconds ?? 10;
      this.options.warn(
        `MCP server ${connection.state.name} is not ready after ${seconds} s (startup_timeout_seconds); its tools join when it is`,
      );
    }
  }

  states(): ServerState[] {
    return this.connections.map((connection) => connection.state);
  }

  /** The prompts of the servers ready now, as slash commands. */
  prompts(): PromptCommand[] {
    return this.connections.flatMap((connection) =>
      connection.client && connection.state.status === 'ready'
        ? promptCommands(connection.state.name, connection.client, connection.state.prompts)
        : [],
    );
  }

  /**
   * Ends every server now: stdio process groups get SIGTERM and their pipes close, nothing is waited for. The exit
   * handler stays: a server that ignored SIGTERM gets SIGKILL when Keel exits.
   */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
    void Promise.all(this.connections.map((connection) => connection.gone())).then(() =>
      process.off('exit', this.onExit),
    );
  }

  /** Synchronous, for process exit: SIGKILL to every stdio server's process group still there. */
  killNow(): void {
    for (const connection of this.connections) connection.kill();
  }
}
