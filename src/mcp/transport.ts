// Config → transport: a child process spoken to over stdio, or a streamable HTTP endpoint. Secrets in env values
// and headers are expanded here, handed to the transport, and kept nowhere else.
import { isAbsolute, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../config/mcp-schema.js';
import { clip } from '../core/text.js';
import { expandAll } from './config.js';

export interface OpenedTransport {
  transport: Transport;
  /** The stdio server's process id once started (killed on exit if it outlives Keel's goodbye). */
  pid(): number | null;
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
    return { transport, pid: () => null, lastStderr: () => undefined };
  }
  const cwd =
    server.cwd === undefined
      ? workspace
      : isAbsolute(server.cwd)
        ? server.cwd
        : resolve(workspace, server.cwd);
  // The child gets the SDK's short list of safe variables (HOME, PATH, ...) plus its own env: not Keel's API keys.
  const transport = new StdioClientTransport({
    command: server.command ?? '',
    args: server.args,
    env: expandAll(server.env, env, `${where}.env`),
    cwd,
    // Piped, not inherited: a server's chatter must not break the terminal or `--output json`.
    stderr: 'pipe',
  });
  let tail = '';
  (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
  });
  return {
    transport,
    pid: () => transport.pid,
    lastStderr: () => {
      const line = tail.trimEnd().split('\n').at(-1)?.trim();
      return line ? clip(line, 300) : undefined;
    },
  };
}
