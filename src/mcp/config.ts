// Filling an MCP server's config when it starts: `${VAR}` in env values and headers comes from Keel's environment,
// so secrets stay in the environment and never in a config file, a log or a session. The schema is config/mcp-schema.ts.
import type { McpServerConfig } from '../config/mcp-schema.js';

/** Fills `${VAR}` from `env`; a variable that is not set is an error naming it (never the value). */
export function expandEnv(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    const value = env[name];
    if (value === undefined) throw new Error(`${where} uses \${${name}}, which is not set`);
    return value;
  });
}

export function expandAll(
  values: Record<string, string>,
  env: NodeJS.ProcessEnv,
  where: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, expandEnv(value, env, `${where} ${key}`)]),
  );
}

/** How `keel mcp list` names a server's transport: the command line or the URL (never expanded values). */
export function describeTransport(server: McpServerConfig): string {
  return server.url !== undefined
    ? `http ${server.url}`
    : `stdio ${[server.command, ...server.args].join(' ')}`;
}
