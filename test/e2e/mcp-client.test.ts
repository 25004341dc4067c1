// End to end: MCP servers' tools in keel run — the reference servers over stdio and streamable HTTP, a server
// that crashes mid-run, one that never answers, tools.allow / tools.deny — through the built CLI.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';
import {
  everythingEntry,
  filesystemEntry,
  fixture,
  freePort,
  mcpConfig,
  offeredTools,
  whenOffered,
} from '../support/mcp.js';

const { server, workspace, track } = useE2E();
const node = process.execPath;

describe('MCP servers in keel run', () => {
  it('offers server-everything tools over stdio as <server>__<tool> and runs echo', async () => {
    const ws = await workspace({ 'a.txt': 'a\n' });
    const config = await mcpConfig(ws, { everything: { command: node, args: [everythingEntry, 'stdio'] } });
    const s = await server(
      whenOffered('everything__echo', [
        { toolCalls: [{ name: 'everything__echo', args: { message: 'hello mcp' } }] },
        { text: 'echoed' },
      ]),
    );
    const r = await runOllama(s, ws, ['--config', config, '--prompt', 'echo it']);
    expect(r.stderr).not.toMatch(/warning/);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('echoed');
    // The first request went out before the server was ready: it offered only the built-in tools.
    expect(offeredTools(s.requests[0]!)).not.toContain('everything__echo');
    const last = s.requests.at(-1)!;
    expect(toolMessages(last.body).at(-1)).toBe('Echo: hello mcp');
    const echo = (last.body.tools as { function: { name: string; parameters: unknown } }[]).find(
      (tool) => tool.function.name === 'everything__echo',
    );
    expect(echo?.function.parameters).toMatchObject({ properties: { message: { type: 'string' } } });
  });
});
