// Config → transport: a child process spoken to over stdio, or a streamable HTTP endpoint. Secrets in env values
// and headers are expanded here, handed to the transport, and kept nowhere else.
import { isAbsolute, resolve } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../config/mcp-schema.js';
import { clip } from '../core/text.js';
import { expandAll } from './config.js';
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
}

export interface TransportOptions {
  name: string;
  server: McpServerConfig;
  env: NodeJS.ProcessEnv;
  /** Stdio servers start here unless `cwd` says otherwise (relative `cwd` resolves against it). */
  workspace: string;
}

export function openTransport({ name, server, env, workspace }: TransportOptions): OpenedTransport {
  const where = `mcp.servers.${name}`;
  if (server.url !== undefined) {
    const headers = expandAll(server.headers, env, `${where}.headers`);
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } });
    const gone = () => Promise.resolve();
    return { transport, pid: () => null, kill: () => {}, gone, lastStderr: () => undefined };
  }
  const cwd =
    server.cwd === undefined
      ? workspace
      : isAbsolute(server.cwd)
        ? server.cwd
        : resolve(workspace, server.cwd);
  let tail = '';
  // The child gets the SDK's short list of safe variables (HOME, PATH, ...) plus its own env: not Keel's API keys.
  const transport = new GroupStdioTransport({
    command: server.command ?? '',
    args: server.args,
    env: expandAll(server.env, env, `${where}.env`),
    cwd,
    onStderr: (chunk) => {
      tail = (tail + chunk.toString('utf8')).slice(-4096);
    },
  });
  return {
    transport,
    pid: () => transport.pid,
    kill: () => transport.killAtExit(),
    gone: () => transport.gone,
    lastStderr: () => {
      const line = tail.trimEnd().split('\n').at(-1)?.trim();
      return line ? clip(line, 300) : undefined;
    },
  };
}
