// `keel mcp list|add|remove`: the configured MCP servers with their status, tools, resources and prompts, and
// the config edits that add or remove one (comments in the file are kept).
import { resolve } from 'node:path';
import { type McpServerConfig, serverNamePattern } from '../config/mcp-schema.js';
import { projectConfigPath, userConfigPath } from '../config/paths.js';
import { trustedBy } from '../config/trusted-folders.js';
import { ExitCode, UsageError } from '../core/errors.js';
import { clipLine } from '../core/text.js';
import type { ServerState } from '../mcp/connection.js';
import { argumentHint } from '../mcp/prompts.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure, reportWarnings } from './report.js';
import { loadConfigFor } from './run-options.js';

declare const KEEL_VERSION: string;
const version = typeof KEEL_VERSION === 'string' ? KEEL_VERSION : '0.0.0-dev';

export async function mcpListCommand(
  options: GlobalOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    const loaded = await loadConfigFor(options);
    reportWarnings(loaded.warnings, out);
    const servers = loaded.config.mcp.servers;
    const workspace = await resolveWorkspaceDir(options.cwd);
    if (options.output !== 'text') {
      const states = await listServers(servers, workspace);
      out.print(`${JSON.stringify({ servers: states.map(jsonState) }, null, 2)}\n`);
    } else if (Object.keys(servers).length === 0) {
      out.print('no MCP servers configured; add one with `keel mcp add <name> -- <command> [args...]`\n');
    } else {
      // Each server as it answers: one that never does holds only its own line, up to its timeout_seconds.
      let first = true;
      await listServers(servers, workspace, (state) => {
        out.print(`${first ? '' : '\n'}${formatState(state)}`);
        first = false;
      });
    }
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, out });
  }
}

/**
 * Connects to every enabled server (in parallel, each within its timeout_seconds), lists it, and closes them all
 * again; `each` is told every server's state as soon as it is ready or has failed. The states come in config order.
 */
export async function listServers(
  servers: Record<string, McpServerConfig>,
  workspace: string,
  each: (state: ServerState) => void = () => {},
): Promise<ServerState[]> {
  if (Object.keys(servers).length === 0) return [];
  const { McpManager } = await import('../mcp/manager.js');
  // A failure shows as the server's status, not as a warning besides.
  const manager = new McpManager({ servers, env: process.env, workspace, version, warn: () => {} });
  manager.start();
  try {
    await manager.eachSettled(each);
  } finally {
    await manager.close();
  }
  return manager.states();
}

function formatState(state: ServerState): string {
  const status = state.error ? `${state.status}: ${state.error}` : state.status;
  const lines = [`${state.name}  ${sanitize(status)}  (${sanitize(state.transport)})`];
  if (state.status === 'ready') {
    lines.push(`  tools (${state.tools.length}):`);
    for (const tool of state.tools) {
      const name = tool.exposedAs ?? `${tool.name} (not offered: tools.allow / tools.deny)`;
      const readOnly = tool.readOnly ? ' [read-only]' : '';
      lines.push(`    ${sanitize(name)}${readOnly}  ${sanitize(clipLine(tool.description ?? '', 80))}`);
    }
    if (state.resources.length > 0) {
      const shown = state.resources.slice(0, 10).map((resource) => resource.uri);
      const more = state.resources.length > 10 ? `, … ${state.resources.length - 10} more` : '';
      lines.push(`  resources (${state.resources.length}): ${sanitize(shown.join(', '))}${more}`);
    }
    if (state.prompts.length > 0) {
      lines.push(`  prompts (${state.prompts.length}, slash commands in chat):`);
      for (const prompt of state.prompts) {
        const usage = `/${state.name}__${prompt.name} ${argumentHint(prompt)}`.trimEnd();
        lines.push(`    ${sanitize(usage)}  ${sanitize(clipLine(prompt.description ?? '', 80))}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

function jsonState(state: ServerState) {
  return {
    name: state.name,
    transport: state.transport,
    status: state.status,
    ...(state.error ? { error: state.error } : {}),
    tools: state.tools.map((tool) => ({
      name: tool.name,
      exposed_as: tool.exposedAs ?? null,
      read_only: tool.readOnly,
      description: tool.description ?? '',
      input_schema: tool.inputSchema,
    })),
    resources: state.resources,
    prompts: state.prompts,
  };
}

export interface McpAddOptions extends GlobalOptions {
  url?: string;
  env: string[];
  header: string[];
  project?: boolean;
  user?: boolean;
}

/** `K=V` pairs of --env / --header. */
function pairs(values: readonly string[], flag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} takes KEY=VALUE, got "${value}"`);
    result[value.slice(0, at)] = value.slice(at + 1);
  }
  return result;
}

/** The file an edit goes to: the project's .keel.yaml with --project, else the user file (or --config). */
async function targetFile(options: GlobalOptions & { project?: boolean; user?: boolean }): Promise<string> {
  if (options.project && options.user) throw new UsageError('give either --project or --user, not both');
  if (options.project) return projectConfigPath(await resolveWorkspaceDir(options.cwd));
  return options.config !== undefined ? resolve(options.config) : userConfigPath(process.env);
}

export async function mcpAddCommand(
  name: string,
  command: string[],
  options: McpAddOptions,
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    if ((options.url === undefined) === (command.length === 0)) {
      throw new UsageError('give either --url <url> or a command after --', {
        hint: 'keel mcp add fs -- npx -y @modelcontextprotocol/server-filesystem . | keel mcp add api --url https://host/mcp',
      });
    }
    const env = pairs(options.env, '--env');
    const headers = pairs(options.header, '--header');
    if (options.url !== undefined && Object.keys(env).length > 0)
      throw new UsageError('--env is for stdio servers');
    if (options.url === undefined && Object.keys(headers).length > 0)
      throw new UsageError('--header is for --url servers');
    const server: Record<string, unknown> =
      options.url !== undefined
        ? { url: options.url, ...(Object.keys(headers).length > 0 ? { headers } : {}) }
        : { command: command[0], args: command.slice(1), ...(Object.keys(env).length > 0 ? { env } : {}) };
    const file = await targetFile(options);
    const { addServer } = await import('../mcp/config-file.js');
    if (!serverNamePattern.test(name)) {
      throw new UsageError(`MCP server name "${name}" must use letters, digits and "-"`, {
        hint: 'its tools are named <name>__<tool>',
      });
    }
    await addServer(file, name, server);
    out.print(`added MCP server ${name} to ${file}\n`);
    if (options.project) {
      const workspace = await resolveWorkspaceDir(options.cwd);
      if ((await trustedBy(process.env, workspace)) === undefined) {
        reportWarnings(
          [`${file} sets mcp.servers only in a trusted folder: run \`keel trust\` there to use it`],
          out,
        );
      }
    }
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, out });
  }
}

export async function mcpRemoveCommand(
  name: string,
  options: GlobalOptions & { project?: boolean; user?: boolean },
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    const { hasServer, removeServer } = await import('../mcp/config-file.js');
    // Without --project or --user: wherever it is, the project file first.
    const explicit = options.project || options.user;
    const candidates = explicit
      ? [await targetFile(options)]
      : [projectConfigPath(await resolveWorkspaceDir(options.cwd)), await targetFile(options)];
    for (const file of candidates) {
      if (!(await hasServer(file, name))) continue;
      await removeServer(file, name);
      out.print(`removed MCP server ${name} from ${file}\n`);
      return ExitCode.ok;
    }
    throw new UsageError(`no MCP server named ${name} in ${candidates.join(' or ')}`, {
      hint: 'keel mcp list shows the configured servers',
    });
  } catch (error) {
    return reportFailure(error, { debug: options.debug, out });
  }
}
