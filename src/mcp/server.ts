// `keel mcp serve`, the protocol side: Keel's tools offered over stdio to any MCP client. Each tools/call goes to
// `runTool`, which the CLI wires to the executor (policy, jail, checkpoints, audit). stdout carries the protocol
// and nothing else: any other write to it is sent to stderr instead.
import { Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSpec } from '../core/model.js';

export interface ToolServerOptions {
  version: string;
  /** The tools offered now. */
  tools: () => ToolSpec[];
  /** Runs one call; `text` is what the client reads, `isError` when the call failed or was refused. */
  runTool: (name: string, args: unknown, signal: AbortSignal) => Promise<{ text: string; isError: boolean }>;
}

/** Serves until the client closes stdin; resolves then. */
export async function serveTools(options: ToolServerOptions): Promise<void> {
  const protocolOut = claimStdout();
  const server = new Server({ name: 'keel', version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: options.tools().map((spec) => ({
      name: spec.name,
      description: spec.description,
      inputSchema: { ...spec.inputSchema, type: 'object' as const },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { text, isError } = await options.runTool(
      request.params.name,
      request.params.arguments ?? {},
      extra.signal,
    );
    return { content: [{ type: 'text' as const, text }], isError };
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport(process.stdin, protocolOut));
  process.stdin.once('end', () => void server.close());
  await closed;
}

/** A stream to the real stdout for the transport; `process.stdout.write` goes to stderr from now on. */
function claimStdout(): Writable {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      write(chunk, callback);
    },
  });
}
