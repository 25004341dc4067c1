// The MCP servers of a run or chat: each connects in the background, in parallel, its tools joining the registry
// when ready; close() ends them all, and an exit handler kills any stdio server still alive so none outlives Keel.

import type { McpServerConfig } from '../config/mcp-schema.js';
import type { PromptCommand } from '../core/prompt-command.js';
import type { ToolRegistry } from '../tools/registry.js';
import { McpConnection, type ServerState } from './connection.js';
import { promptCommands } from './prompts.js';

export interface McpManagerOptions {
  servers: Record<string, McpServerConfig>;
  env: NodeJS.ProcessEnv;
  workspace: string;
  version: string;
  registry?: ToolRegistry;
  warn: (message: string) => void;
}

export class McpManager {
  private readonly connections: McpConnection[];
  private started?: Promise<void>;
  private readonly onExit = () => this.killNow();

  constructor(options: McpManagerOptions) {
    const { servers, ...rest } = options;
    this.connections = Object.entries(servers).map(
      ([name, config]) => new McpConnection({ name, config, ...rest }),
    );
  }

  /** Starts every enabled server without waiting for any; `settled()` resolves when each is ready or failed. */
  start(): void {
    if (this.started) return;
    process.on('exit', this.onExit);
    this.started = Promise.all(this.connections.map((connection) => connection.start())).then(() => {});
  }

  settled(): Promise<void> {
    return this.started ?? Promise.resolve();
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

  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
    process.off('exit', this.onExit);
  }

  /** Synchronous, for process exit: SIGTERM to every stdio server still running. */
  killNow(): void {
    for (const connection of this.connections) {
      const pid = connection.pid();
      if (pid === null) continue;
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  }
}
