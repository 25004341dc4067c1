// One MCP server for the length of a run: connect (bounded by timeout_seconds), list its tools, resources and
// prompts, keep its tools in the registry while it lives, and report its end once. Never throws: a server
// that fails is a state and one warning, and the run goes on without it. The tools it listed last time (tool-cache.ts)
// are offered while it starts; a call to one waits for it.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../config/mcp-schema.js';
import type { ToolRegistry } from '../tools/registry.js';
import { describeTransport } from './config.js';
import { type FailureFacts, startFailure, stoppedReason, toolGone } from './failure.js';
import type { ServerProcess } from './server-process.js';
import { exposedName, isReadOnly, type McpToolInfo, mcpTool, toolFilter } from './tool-adapter.js';
import type { ToolCache } from './tool-cache.js';
import { type OpenedTransport, openTransport } from './transport.js';

export type ServerStatus = 'disabled' | 'starting' | 'ready' | 'failed' | 'stopped';

export interface ToolListing extends McpToolInfo {
  /** The name the model sees; absent when tools.allow / tools.deny leave the tool out. */
  exposedAs?: string;
  readOnly: boolean;
}

export interface PromptInfo {
  name: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export interface ServerState {
  name: string;
  transport: string;
  status: ServerStatus;
  error?: string;
  tools: ToolListing[];
  resources: { uri: string; name: string; description?: string }[];
  prompts: PromptInfo[];
}

export interface ConnectionOptions {
  name: string;
  config: McpServerConfig;
  env: NodeJS.ProcessEnv;
  workspace: string;
  version: string;
  /** Where offered tools go while the server lives; absent for `keel mcp list`. */
  registry?: ToolRegistry;
  /** The tool lists of earlier runs; absent for `keel mcp list`, which shows only what the server says now. */
  cache?: ToolCache;
  /** A stdio server's process the run started at launch, before the SDK loaded. */
  early?: ServerProcess;
  warn: (message: string) => void;
}

/** Enough pages for any sane server; a server paging forever is cut off here. */
const maxPages = 20;

export class McpConnection {
  readonly state: ServerState;
  client?: Client;
  private opened?: OpenedTransport;
  private registered: string[] = [];
  private closing = false;
  private starting?: Promise<void>;
  /** The tool list offered now, as JSON (undefined when none is). */
  private toolsKey?: string;
  /** Resolves once the cached tool list (if any) is offered. */
  readonly cacheRead: Promise<void>;
  /** Whether tools from the cache are offered while the server starts. */
  cachedTools = false;

  constructor(readonly options: ConnectionOptions) {
    this.state = {
      name: options.name,
      transport: describeTransport(options.config),
      status: options.config.enabled ? 'starting' : 'disabled',
      tools: [],
      resources: [],
      prompts: [],
    };
    this.cacheRead = this.offerCached();
  }

  /** Resolves when the server is ready or has failed (at once for one never started). */
  settled(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  private async offerCached(): Promise<void> {
    const { cache, config } = this.options;
    if (!cache || this.state.status !== 'starting') return;
    const tools = await cache.read(config);
    if (!tools || tools.length === 0 || this.closing || this.state.status !== 'starting') return;
    this.cachedTools = true;
    this.setTools(tools);
  }

  pid(): number | null {
    return this.opened?.pid() ?? null;
  }

  /** Synchronous, for process exit: a stdio server's process group still there is killed. */
  kill(): void {
    this.opened?.kill();
  }

  /** Resolves once a stdio server's process has exited, or at once when there is none. */
  gone(): Promise<void> {
    return this.opened?.gone() ?? Promise.resolve();
  }

  start(): Promise<void> {
    this.starting ??= this.connect();
    return this.starting;
  }

  private async connect(): Promise<void> {
    if (this.state.status !== 'starting') return;
    const { name, config } = this.options;
    const timeout = config.timeout_seconds * 1000;
    try {
      this.opened = openTransport({
        name,
        server: config,
        env: this.options.env,
        workspace: this.options.workspace,
        ...(this.options.early ? { early: this.options.early } : {}),
      });
      const client = new Client(
        { name: 'keel', version: this.options.version },
        {
          listChanged: {
            tools: { onChanged: (error, tools) => !error && tools && this.toolsChanged(tools) },
          },
        },
      );
      this.client = client;
      await client.connect(this.opened.transport, { timeout });
      const capabilities = client.getServerCapabilities() ?? {};
      const tools = capabilities.tools
        ? await pages(
            (cursor) => client.listTools({ cursor }, { timeout }),
            (r) => r.tools,
          )
        : [];
      if (capabilities.resources) {
        const resources = await pages(
          (cursor) => client.listResources({ cursor }, { timeout }),
          (r) => r.resources,
        );
        this.state.resources = resources.map(({ uri, name, description }) => ({ uri, name, description }));
      }
      if (capabilities.prompts) {
        const prompts = await pages(
          (cursor) => client.listPrompts({ cursor }, { timeout }),
          (r) => r.prompts,
        );
        this.state.prompts = prompts.map(({ name, description, arguments: args }) => ({
          name,
          description,
          arguments: args,
        }));
      }
      if (this.closing) return;
      // From here on, the end of the connection is the server stopping: its tools go, with one warning.
      client.onclose = () => this.stopped();
      this.state.status = 'ready';
      this.setTools(tools);
      void this.options.cache?.write(config, this.state.tools.map(toolInfo));
    } catch (error) {
      if (this.closing) return;
      this.state.status = 'failed';
      this.state.error = this.failure(error);
      // Cached tools offered while it started go: a call waiting for one fails with the reason, as does a later one.
      this.unregister(this.state.error);
      this.options.warn(`MCP server ${name} ${this.state.error}; going on without it`);
      await this.client?.close().catch(() => {});
    }
  }

  /** The client once the server is ready: a call to a cached tool waits here (bounded by the start's timeout). */
  private async ready(signal: AbortSignal): Promise<Client> {
    if (this.state.status === 'starting') {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        void this.settled().then(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
    if (this.state.status === 'ready' && this.client) return this.client;
    throw new Error(`not available: ${this.state.error ?? this.state.status}`);
  }

  /** Ends the connection at once (a stdio server's process group is signalled, not waited for); no warning. */
  async close(): Promise<void> {
    this.closing = true;
    this.unregister();
    await this.client?.close().catch(() => {});
  }

  /** The server said its tools changed (tools/list_changed): the registry follows while it is up. */
  private toolsChanged(tools: SdkTool[]): void {
    if (this.closing || this.state.status !== 'ready') return;
    this.setTools(tools);
    void this.options.cache?.write(this.options.config, this.state.tools.map(toolInfo));
  }

  private setTools(tools: readonly McpToolInfo[]): void {
    const { name, config, registry } = this.options;
    // The list the cache gave, now from the server itself: the offered tools stay as they are (they reach the
    // live client through ready()), so requests keep the same bytes.
    const key = JSON.stringify(tools.map((tool) => [tool.name, tool.description, tool.inputSchema]));
    if (key === this.toolsKey) return;
    const offered = toolFilter(config);
    // unregister() forgets the key: it is set after, or a cached list would be swapped (and reordered) when live.
    this.unregister();
    this.toolsKey = key;
    this.state.tools = tools.map((tool) => {
      const info: McpToolInfo = {
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
      };
      const listing: ToolListing = { ...info, readOnly: isReadOnly(config, tool.name) };
      if (!offered(tool.name)) return listing;
      listing.exposedAs = exposedName(name, tool.name);
      if (registry && !registry.has(listing.exposedAs)) {
        registry.add(
          mcpTool({
            server: name,
            config,
            connect: (signal) => this.ready(signal),
            stopped: () => (this.state.status === 'stopped' ? this.state.error : undefined),
            info,
          }),
        );
        this.registered.push(listing.exposedAs);
      }
      return listing;
    });
  }

  /** Takes this server's tools out of the registry; `why` (after `MCP server <name> `) tells a later call to one. */
  private unregister(why?: string): void {
    for (const tool of this.registered) {
      this.options.registry?.remove(
        tool,
        why === undefined ? undefined : toolGone(this.options.name, tool, why),
      );
    }
    this.registered = [];
    this.toolsKey = undefined;
  }

  private stopped(): void {
    if (this.closing || this.state.status !== 'ready') return;
    const count = this.registered.length;
    this.state.status = 'stopped';
    this.state.error = stoppedReason(this.facts());
    this.unregister(this.state.error);
    const gone = count === 1 ? 'its tool is' : `its ${count} tools are`;
    this.options.warn(
      `MCP server ${this.options.name} ${this.state.error}: ${gone} gone; going on without it`,
    );
  }

  /** Why the start failed, in words: a timeout names the limit, a crash its last line on stderr. */
  private failure(error: unknown): string {
    return startFailure(error, this.facts());
  }

  private facts(): FailureFacts {
    const { config, workspace } = this.options;
    const stderr = this.opened?.lastStderr();
    const stopReason = this.opened?.stopReason();
    const exit = this.opened?.exitStatus();
    const cwd =
      config.url === undefined && config.cwd !== undefined ? resolve(workspace, config.cwd) : undefined;
    return {
      name: this.options.name,
      config,
      ...(stderr ? { stderr } : {}),
      ...(stopReason ? { stopReason } : {}),
      ...(exit ? { exit } : {}),
      ...(cwd !== undefined && !existsSync(cwd) ? { missingCwd: cwd } : {}),
    };
  }
}

const toolInfo = ({ name, description, inputSchema }: ToolListing): McpToolInfo => ({
  name,
  ...(description === undefined ? {} : { description }),
  inputSchema,
});

async function pages<R extends { nextCursor?: string }, T>(
  fetchPage: (cursor: string | undefined) => Promise<R>,
  items: (page: R) => T[],
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    all.push(...items(result));
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return all;
}
