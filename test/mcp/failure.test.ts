// Why an MCP server failed, as a user reads it: the mechanism's error (ENOENT, -32000, fetch failed, an HTTP status)
// turned into what happened and which config key to check.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { mcpServerSchema } from '../../src/config/mcp-schema.js';
import {
  callFailure,
  type FailureFacts,
  startFailure,
  stoppedReason,
  toolGone,
} from '../../src/mcp/failure.js';
import { mcpTool } from '../../src/mcp/tool-adapter.js';
import type { ToolContext } from '../../src/tools/tool.js';

const stdio = mcpServerSchema.parse({ command: 'mcp-thing', args: ['--x'], timeout_seconds: 5 });
const http = mcpServerSchema.parse({ url: 'https://mcp.example.com/mcp' });

const coded = (message: string, code: unknown, cause?: unknown): Error =>
  Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });

describe('startFailure', () => {
  const cases: { name: string; error: unknown; facts: FailureFacts; says: string }[] = [
    {
      name: 'a command that is not installed',
      error: coded('spawn mcp-thing ENOENT', 'ENOENT'),
      facts: { name: 'x', config: stdio },
      says: 'did not start: command not found: mcp-thing (install it, or give its full path in mcp.servers.x.command)',
    },
    {
      name: 'a working directory that does not exist (spawn says ENOENT for it too)',
      error: coded('spawn mcp-thing ENOENT', 'ENOENT'),
      facts: { name: 'x', config: stdio, missingCwd: '/w/tools' },
      says: 'did not start: its cwd /w/tools does not exist (check mcp.servers.x.cwd)',
    },
    {
      name: 'a file that is not executable',
      error: coded('spawn mcp-thing EACCES', 'EACCES'),
      facts: { name: 'x', config: stdio },
      says: 'did not start: mcp-thing is not executable (check mcp.servers.x.command)',
    },
    {
      name: 'a server that exits at once, with its last stderr line',
      error: coded('MCP error -32000: Connection closed', -32000),
      facts: { name: 'x', config: stdio, stderr: 'Error: API_KEY is not set' },
      says: 'did not start: it exited before answering (stderr: Error: API_KEY is not set)',
    },
    {
      name: 'a server that never answers',
      error: coded('MCP error -32001: Request timed out', -32001),
      facts: { name: 'x', config: stdio },
      says: 'did not answer within 5 s (raise mcp.servers.x.timeout_seconds if it needs longer)',
    },
    {
      name: 'an endpoint refusing the credentials',
      error: coded('Streamable HTTP error: Error POSTing to endpoint: {"error":"unauthorized"}', 401),
      facts: { name: 'api', config: http },
      says: 'did not start: https://mcp.example.com/mcp answered HTTP 401: {"error":"unauthorized"} (check mcp.servers.api.headers)',
    },
    {
      name: 'a URL that is no MCP endpoint',
      error: coded('Streamable HTTP error: Error POSTing to endpoint: Not Found', 404),
      facts: { name: 'api', config: http },
      says: 'did not start: https://mcp.example.com/mcp answered HTTP 404: Not Found (check mcp.servers.api.url)',
    },
    {
      name: 'nothing listening',
      error: new TypeError('fetch failed', {
        cause: coded('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'),
      }),
      facts: { name: 'api', config: http },
      says: 'did not start: could not connect to https://mcp.example.com/mcp (ECONNREFUSED; check mcp.servers.api.url)',
    },
    {
      name: 'anything else, with the stderr line it did not already name',
      error: new Error('something odd'),
      facts: { name: 'x', config: stdio, stderr: 'last words' },
      says: 'did not start: something odd (stderr: last words)',
    },
  ];
  it.each(cases)('$name', ({ error, facts, says }) => {
    expect(startFailure(error, facts)).toBe(says);
  });
});

describe('why a server stopped, and a call it broke off', () => {
  it("names Keel's own reason before the server's stderr", () => {
    expect(stoppedReason({ name: 'x', config: stdio, stderr: 'bye' })).toBe('stopped (stderr: bye)');
    expect(stoppedReason({ name: 'x', config: stdio, stderr: 'bye', stopReason: 'sent too much' })).toBe(
      'stopped (sent too much)',
    );
    expect(stoppedReason({ name: 'x', config: stdio })).toBe('stopped');
  });

  it('says a stdio server exited, with its exit code or signal and last stderr line', () => {
    expect(stoppedReason({ name: 'x', config: stdio, stderr: 'bye', exit: 'exit code 3' })).toBe(
      'exited (exit code 3; stderr: bye)',
    );
    expect(stoppedReason({ name: 'x', config: stdio, exit: 'signal SIGKILL' })).toBe(
      'exited (signal SIGKILL)',
    );
  });

  it("tells a call to a gone server's tool which server, why, and the config key to fix it", () => {
    const said = toolGone('db', 'db__query', 'exited (exit code 1)');
    expect(said).toMatch(/^db__query is unavailable: MCP server db exited \(exit code 1\)/);
    expect(said).toContain('not restarted during a run');
    expect(said).toContain('mcp.servers.db');
  });

  it('says a call timed out after timeout_seconds, that a closed connection took the tools with it, and that an HTTP server is gone', () => {
    expect(callFailure(coded('MCP error -32001: Request timed out', -32001), 'x', stdio, undefined)).toBe(
      'MCP server x did not answer within 5 s (mcp.servers.x.timeout_seconds); the call may still be running there',
    );
    const closed = coded('MCP error -32000: Connection closed', -32000);
    expect(callFailure(closed, 'x', stdio, 'stopped (stderr: out of memory)')).toBe(
      'MCP server x stopped (stderr: out of memory) during the call; its tools are gone for the rest of this run (its config is mcp.servers.x)',
    );
    const refused = new TypeError('fetch failed', { cause: coded('connect ECONNREFUSED', 'ECONNREFUSED') });
    expect(callFailure(refused, 'api', http, undefined)).toBe(
      'MCP server api could not be reached at https://mcp.example.com/mcp (ECONNREFUSED); is it still running?',
    );
    expect(callFailure(new Error('not available: failed'), 'x', stdio, undefined)).toBe(
      'MCP server x: not available: failed',
    );
  });
});

describe('an MCP tool call cancelled by the run', () => {
  it('is not reported as a timeout: the abort goes to the executor, which says the call was aborted', async () => {
    const controller = new AbortController();
    const client = {
      // What the SDK does on abort: the reason wrapped as a RequestTimeout McpError.
      callTool: () => {
        controller.abort();
        return Promise.reject(coded('MCP error -32001: AbortError: This operation was aborted', -32001));
      },
    } as unknown as Client;
    const tool = mcpTool({
      server: 'ev',
      config: stdio,
      connect: async () => client,
      info: { name: 'slow', inputSchema: { type: 'object' } },
    });
    const ctx = { signal: controller.signal } as ToolContext;
    await expect(tool.execute({}, ctx)).rejects.toThrow(/AbortError/);
  });
});
