// Why an MCP server failed, in words a user (or the model) can act on: the SDK's and Node's errors name their
// mechanism (`spawn x ENOENT`, `MCP error -32000: Connection closed`, `fetch failed`), not what happened or the fix.
import type { McpServerConfig } from '../config/mcp-schema.js';
import { clip } from '../core/text.js';

/** The MCP SDK's error codes (ErrorCode in its types) that Keel words itself. */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

export interface FailureFacts {
  /** The server's name in `mcp.servers`. */
  name: string;
  config: McpServerConfig;
  /** The last line the server wrote to stderr. */
  stderr?: string;
  /** Why Keel itself stopped the server (a message too large to read). */
  stopReason?: string;
  /** A stdio server's working directory, when it does not exist (spawn says ENOENT for that too). */
  missingCwd?: string;
  /** How a stdio server's process ended, once it has: `exit code 3`, `signal SIGKILL`. */
  exit?: string;
}

const codeOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A connection failure's own code (ECONNREFUSED, ENOTFOUND, …), from fetch's `cause` (an AggregateError's first). */
function networkCode(error: unknown): string | undefined {
  let cause: unknown = error instanceof Error ? error.cause : undefined;
  if (cause instanceof AggregateError) cause = cause.errors[0];
  const code = codeOf(cause);
  return typeof code === 'string' ? code : undefined;
}

const isTimeout = (error: unknown): boolean =>
  codeOf(error) === REQUEST_TIMEOUT || /timed out|RequestTimeout/i.test(messageOf(error));

const isClosed = (error: unknown): boolean =>
  codeOf(error) === CONNECTION_CLOSED || /Connection closed/.test(messageOf(error));

/** What the server said on its way out: Keel's own reason for stopping it, else its last stderr line. */
const last = (facts: FailureFacts): string =>
  facts.stopReason ? ` (${facts.stopReason})` : facts.stderr ? ` (stderr: ${facts.stderr})` : '';

/** Why the server did not start, after `MCP server <name> `: "did not start: …" or "did not answer …". */
export function startFailure(error: unknown, facts: FailureFacts): string {
  const { name, config } = facts;
  const key = `mcp.servers.${name}`;
  if (isTimeout(error))
    return `did not answer within ${config.timeout_seconds} s (raise ${key}.timeout_seconds if it needs longer)`;
  if (config.url === undefined) {
    if (codeOf(error) === 'ENOENT' && facts.missingCwd) {
      return `did not start: its cwd ${facts.missingCwd} does not exist (check ${key}.cwd)`;
    }
    if (codeOf(error) === 'ENOENT') {
      return `did not start: command not found: ${config.command ?? ''} (install it, or give its full path in ${key}.command)`;
    }
    if (codeOf(error) === 'EACCES') {
      return `did not start: ${config.command ?? ''} is not executable (check ${key}.command)`;
    }
    if (isClosed(error)) return `did not start: it exited before answering${last(facts)}`;
  } else {
    const code = codeOf(error);
    if (typeof code === 'number' && code >= 400 && code < 600) {
      const body = messageOf(error).replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, '');
      const check = code === 401 || code === 403 ? ` (check ${key}.headers)` : ` (check ${key}.url)`;
      return `did not start: ${config.url} answered HTTP ${code}${body ? `: ${clip(body, 200)}` : ''}${check}`;
    }
    const network = networkCode(error);
    if (network) return `did not start: could not connect to ${config.url} (${network}; check ${key}.url)`;
  }
  const message = messageOf(error);
  const stderr = facts.stderr && !message.includes(facts.stderr) ? ` (stderr: ${facts.stderr})` : '';
  return `did not start: ${message}${stderr}`;
}

/** Why the server stopped while it ran, after `MCP server <name> `: "exited (exit code 3; stderr: …)". */
export function stoppedReason(facts: FailureFacts): string {
  if (facts.stopReason || !facts.exit) return `stopped${last(facts)}`;
  return `exited (${facts.exit}${facts.stderr ? `; stderr: ${facts.stderr}` : ''})`;
}

/**
 * What a call to a tool of a server that is gone reads instead of "unknown tool": which server, why, that no call
 * to it will work again in this run, and what the user can do (`why`: after `MCP server <name> `).
 */
export function toolGone(server: string, tool: string, why: string): string {
  return (
    `${tool} is unavailable: MCP server ${server} ${why}, and it is not restarted during a run. ` +
    `Don't call its tools again: do the task another way, or tell the user that the server needs fixing ` +
    `(its config is mcp.servers.${server}; \`keel mcp list\` checks it) and a new run or chat starts it again.`
  );
}

/**
 * A tool call's failure below the tool (the server's own errors are results): a timeout names the limit, a closed
 * connection says the server stopped and why (`stopped`: the connection's reason, once it knows).
 */
export function callFailure(
  error: unknown,
  server: string,
  config: McpServerConfig,
  stopped: string | undefined,
): string {
  if (isTimeout(error)) {
    return `MCP server ${server} did not answer within ${config.timeout_seconds} s (mcp.servers.${server}.timeout_seconds); the call may still be running there`;
  }
  if (isClosed(error))
    return `MCP server ${server} ${stopped ?? 'stopped'} during the call; its tools are gone for the rest of this run (its config is mcp.servers.${server})`;
  const network = config.url === undefined ? undefined : networkCode(error);
  if (network)
    return `MCP server ${server} could not be reached at ${config.url} (${network}); is it still running?`;
  return `MCP server ${server}: ${messageOf(error)}`;
}
