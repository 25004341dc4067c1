// The config of one MCP server (`mcp.servers.<name>`): a stdio command or a streamable HTTP URL, its limits and
// which of its tools Keel offers. `${VAR}` in env values and headers is filled when the server starts (mcp/config.ts).
import * as z from 'zod';

const names = z.array(z.string().min(1)).default([]);

/** Server names become the prefix of tool names (`<server>__<tool>`), which providers restrict to [A-Za-z0-9_-]. */
export const serverNamePattern = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

export const mcpServerSchema = z
  .object({
    command: z.string().min(1).optional().describe('program to start (stdio)'),
    args: z.array(z.string()).default([]).describe('its arguments'),
    env: z
      .record(z.string(), z.string())
      .default({})
      .describe('extra environment (values may name variables)'),
    cwd: z.string().min(1).optional().describe('working directory (relative to the workspace)'),
    url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe('streamable HTTP endpoint'),
    headers: z
      .record(z.string(), z.string())
      .default({})
      .describe('HTTP headers (values may name variables)'),
    enabled: z.boolean().default(true),
    timeout_seconds: z.number().int().positive().default(60).describe('start-up and per-request limit'),
    startup_timeout_seconds: z
      .number()
      .min(0)
      .optional()
      .describe('how long the first request waits for it (default mcp.startup_timeout_seconds)'),
    read_only: z.boolean().default(false).describe('every tool only reads (safety level safe)'),
    tools: z
      .object({
        allow: names.describe('only these tools (names or globs); empty: all'),
        deny: names.describe('never these tools (names or globs)'),
        read_only: names.describe('these tools only read (safety level safe)'),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .refine((server) => (server.command === undefined) !== (server.url === undefined), {
    message: 'give either `command` (stdio) or `url` (streamable HTTP)',
  });

export type McpServerConfig = z.infer<typeof mcpServerSchema>;

export const mcpServersSchema = z
  .record(z.string().regex(serverNamePattern, 'server names use letters, digits and "-"'), mcpServerSchema)
  .default({});
