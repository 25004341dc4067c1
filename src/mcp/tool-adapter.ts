// An MCP server's tool as a Keel tool: named `<server>__<tool>`, offered with its own JSON Schema, run through the
// same executor as the built-in tools. It is `caution` (asked about like any tool that may change things) unless
// the config says it only reads: server annotations such as readOnlyHint are the server's claim, not the user's.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import picomatch from 'picomatch';
import type { McpServerConfig } from '../config/mcp-schema.js';
import { imageFromBytes, MAX_IMAGE_BYTES } from '../core/images.js';
import type { ImagePart } from '../core/messages.js';
import { clip } from '../core/text.js';
import { defineJsonSchemaTool, fail, ok, type Tool, type ToolResult } from '../tools/tool.js';
import { callFailure } from './failure.js';

/** What `tools/list` gives for one tool (the fields Keel reads). */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

const maxDescription = 1024;

/** `<server>__<tool>`, with characters providers refuse in tool names replaced, at most 64 long. */
export function exposedName(server: string, tool: string): string {
  return `${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

/** Whether the config offers this tool to the model: deny wins over allow; an empty allow list allows all. */
export function toolFilter(server: McpServerConfig): (tool: string) => boolean {
  const allow = server.tools.allow.length > 0 ? picomatch(server.tools.allow) : () => true;
  const deny = server.tools.deny.length > 0 ? picomatch(server.tools.deny) : () => false;
  return (tool) => allow(tool) && !deny(tool);
}

export function isReadOnly(server: McpServerConfig, tool: string): boolean {
  return server.read_only || (server.tools.read_only.length > 0 && picomatch(server.tools.read_only)(tool));
}

interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri: string; text?: string; mimeType?: string };
}

/** A tool result's content as text the model reads; binary content is named, not inlined. */
export function contentText(content: readonly ContentBlock[], structured?: unknown): string {
  const parts = content.map((block) => {
    switch (block.type) {
      case 'text':
        return block.text ?? '';
      case 'image':
      case 'audio':
        return `[${block.type} ${block.mimeType ?? ''}, ${Math.floor(((block.data?.length ?? 0) * 3) / 4)} bytes]`;
      case 'resource':
        return block.resource?.text ?? `[resource ${block.resource?.uri ?? ''}]`;
      case 'resource_link':
        return `[resource link ${block.uri ?? ''}${block.name ? ` (${block.name})` : ''}]`;
      default:
        return `[${block.type} content]`;
    }
  });
  if (parts.length === 0 && structured !== undefined) return JSON.stringify(structured, null, 2);
  return parts.join('\n');
}

/** The result's images as image parts (PNG, JPEG, GIF, WebP by their bytes, within the size limit); the text names them too. */
export function contentImages(content: readonly ContentBlock[], tool: string): ImagePart[] {
  return content.flatMap((block, i) => {
    if (block.type !== 'image' || !block.data || (block.data.length * 3) / 4 > MAX_IMAGE_BYTES) return [];
    const image = imageFromBytes(Buffer.from(block.data, 'base64'), `${tool} image ${i + 1}`);
    return image ? [image] : [];
  });
}

export interface AdapterOptions {
  server: string;
  config: McpServerConfig;
  /** The server's client once it is ready (a tool offered from the cache waits for its server here). */
  connect: (signal: AbortSignal) => Promise<Client>;
  /** Why the server stopped, once it has (a call it broke off says so). */
  stopped?: () => string | undefined;
  info: McpToolInfo;
}

export function mcpTool({ server, config, connect, stopped, info }: AdapterOptions): Tool {
  const name = exposedName(server, info.name);
  const description = clip(info.description?.trim() || `${info.name} (MCP server ${server})`, maxDescription);
  return defineJsonSchemaTool({
    name,
    description,
    inputSchema: { type: 'object', ...info.inputSchema },
    safety: isReadOnly(config, info.name) ? 'safe' : 'caution',
    async execute(args, ctx): Promise<ToolResult> {
      try {
        const client = await connect(ctx.signal);
        const result = await client.callTool({ name: info.name, arguments: args }, undefined, {
          signal: ctx.signal,
          timeout: config.timeout_seconds * 1000,
          resetTimeoutOnProgress: true,
        });
        const content = (result.content ?? []) as ContentBlock[];
        const text = contentText(content, result.structuredContent);
        const metadata = { mcp_server: server };
        if (result.isError) return fail(text || `${name} reported an error`, metadata);
        const images = contentImages(content, name);
        return { ...ok(text, metadata), ...(images.length > 0 ? { images } : {}) };
      } catch (error) {
        // Cancelled (Ctrl-C, the run's end): the SDK words that as a timeout; the executor says it was aborted.
        if (ctx.signal.aborted) throw error;
        return fail(callFailure(error, server, config, stopped?.()), { mcp_server: server });
      }
    },
  });
}
