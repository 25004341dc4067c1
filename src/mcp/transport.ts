// Config → transport: a child process spoken to over stdio, or a streamable HTTP endpoint. Secrets in env values
// and headers are expanded here, handed to the transport, and kept nowhere else.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../config/mcp-schema.js';
import { clip } from '../core/text.js';
import { baselineWasmOnly } from '../core/wasm-tier.js';
import { expandAll } from './config.js';
import { ServerProcess, stdioServer } from './server-process.js';
import { GroupStdioTransport } from './stdio-transport.js';

export interface OpenedTransport {
  transport: Transport;
  /** The stdio server's process id while it runs (its group is signalled on exit if it outlives Keel's goodbye). */
  pid(): number | null;
  /** Synchronous, for process exit: SIGKILL to a stdio server's process group still there (it had SIGTERM at close). */
  kill(): void;
  /** Resolves once a stdio server's process has exited (at once for HTTP). */
  gone(): Promise<void>;
  /** The last line the stdio server wrote to stderr: why it failed, more often than not. */
  lastStderr(): string | undefined;
  /** Why the transport itself stopped the server (a message too large to read). */
  stopReason(): string | undefined;
  /** How a stdio server's process ended (`exit code 3`, `signal SIGKILL`), once it has; undefined for HTTP. */
  exitStatus(): string | undefined;
}

export interface TransportOptions {
  name: string;
  server: McpServerConfig;
  env: NodeJS.ProcessEnv;
  /** Stdio servers start here unless `cwd` says otherwise (relative `cwd` resolves against it). */
  workspace: string;
  /** The stdio server's process, when the run started it at launch (start.ts). */
  early?: ServerProcess;
}

export function openTransport({ name, server, env, workspace, early }: TransportOptions): OpenedTransport {
  if (server.url !== undefined) {
    const headers = expandAll(server.headers, env, `mcp.servers.${name}.headers`);
    baselineWasmOnly(); // the SDK's transport uses fetch, whose HTTP parser is WebAssembly
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
    const gone = () => Promise.resolve();
    const none = () => undefined;
    return {
      transport,
      pid: () => null,
      kill: () => {},
      gone,
      lastStderr: none,
      stopReason: none,
      exitStatus: none,
    };
  }
  // The child gets the SDK's short list of safe variables (HOME, PATH, ...) plus its own env: not Keel's API keys.
  let open = () => early as ServerProcess;
  if (!early) {
    const spec = stdioServer(name, server, env, workspace);
    open = () => new ServerProcess(spec);
  }
  const transport = new GroupStdioTransport(open);
  return {
    transport,
    pid: () => transport.pid,
    kill: () => transport.killAtExit(),
    gone: () => transport.gone,
    lastStderr: () => {
      const line = transport.stderrTail().trimEnd().split('\n').at(-1)?.trim();
      return line ? clip(line, 300) : undefined;
    },
    stopReason: () => transport.stopReason,
    exitStatus: () => transport.exitStatus(),
  };
}
