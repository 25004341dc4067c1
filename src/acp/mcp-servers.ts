// The MCP servers an editor hands a session (`mcpServers` of session/new and session/load) as Keel's server config:
// a stdio command or a streamable HTTP endpoint, joining mcp.servers for that session's run. SSE is not spoken.
import type { McpServer } from '@agentclientprotocol/sdk';
import { type McpServerConfig, mcpServerSchema, serverNamePattern } from '../config/mcp-schema.js';

export interface EditorServers {
  servers: Record<string, McpServerConfig>;
  /** Why a server was left out, one line each. */
  skipped: string[];
}

/** A name usable as a tool prefix (`<server>__<tool>`): the editor's, its other characters as "-". */
function serverName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'editor';
  let chosen = serverNamePattern.test(base) ? base : 'editor';
  for (let n = 2; taken.has(chosen); n += 1) chosen = `${base}-${n}`;
  taken.add(chosen);
  return chosen;
}

const pairs = (list: readonly { name: string; value: string }[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ name, value }) => [name, value]));

export function editorServers(list: readonly McpServer[] | undefined): EditorServers {
  const servers: Record<string, McpServerConfig> = {};
  const skipped: string[] = [];
  const taken = new Set<string>();
  for (const server of list ?? []) {
    if ('type' in server && server.type === 'sse') {
      skipped.push(`MCP server ${server.name}: SSE is not supported; give its streamable HTTP endpoint`);
      continue;
    }
    const config =
      'type' in server && server.type === 'http'
        ? { url: server.url, headers: pairs(server.headers) }
        : { command: server.command, args: server.args ?? [], env: pairs(server.env) };
    const parsed = mcpServerSchema.safeParse(config);
    if (!parsed.success) {
      skipped.push(`MCP server ${server.name}: ${parsed.error.issues[0]?.message ?? 'not a valid server'}`);
      continue;
    }
    servers[serverName(server.name, taken)] = parsed.data;
  }
  return { servers, skipped };
}
