// The tool list each MCP server gave last time, kept in Keel's cache dir under a hash of the server's config, so a
// slow server's tools can be offered before it is ready. A list that cannot be read is no list: the server is
// waited for as if it were new. The file holds names, descriptions and schemas only, never the config's values.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { McpServerConfig } from '../config/mcp-schema.js';
import { replaceFile } from '../core/replace-file.js';
import type { McpToolInfo } from './tool-adapter.js';

export interface ToolCache {
  read(config: McpServerConfig): Promise<McpToolInfo[] | undefined>;
  write(config: McpServerConfig, tools: McpToolInfo[]): Promise<void>;
}

/** The cache file's name: the config as given (variables unexpanded), hashed. */
export function cacheKey(config: McpServerConfig): string {
  return createHash('sha256').update(JSON.stringify(config)).digest('hex').slice(0, 32);
}

function isToolList(value: unknown): value is McpToolInfo[] {
  return (
    Array.isArray(value) &&
    value.every(
      (tool) =>
        typeof tool === 'object' &&
        tool !== null &&
        typeof tool.name === 'string' &&
        (tool.description === undefined || typeof tool.description === 'string') &&
        typeof tool.inputSchema === 'object' &&
        tool.inputSchema !== null,
    )
  );
}

export function toolCache(dir: string): ToolCache {
  const file = (config: McpServerConfig) => join(dir, `${cacheKey(config)}.json`);
  return {
    async read(config) {
      try {
        const parsed: unknown = JSON.parse(await readFile(file(config), 'utf8'));
        return isToolList(parsed) ? parsed : undefined;
      } catch {
        return undefined;
      }
    },
    async write(config, tools) {
      // A cache that cannot be written only costs the next run a wait.
      await replaceFile(file(config), JSON.stringify(tools), { dirMode: 0o700 }).catch(() => {});
    },
  };
}
