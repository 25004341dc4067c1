// The MCP servers an editor gives a session, as Keel's server config: stdio and HTTP kept, SSE and broken ones
// left out saying why, names made usable as tool prefixes.
import type { McpServer } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { editorServers } from '../../src/acp/mcp-servers.js';

describe('editorServers', () => {
  it('takes stdio servers with their env and HTTP servers with their headers', () => {
    const { servers, skipped } = editorServers([
      { name: 'fs', command: '/usr/bin/node', args: ['server.js'], env: [{ name: 'TOKEN', value: 't' }] },
      {
        type: 'http',
        name: 'api',
        url: 'https://mcp.example.com/mcp',
        headers: [{ name: 'Authorization', value: 'Bearer x' }],
      },
    ]);
    expect(skipped).toEqual([]);
    expect(servers.fs).toMatchObject({ command: '/usr/bin/node', args: ['server.js'], env: { TOKEN: 't' } });
    expect(servers.api).toMatchObject({
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer x' },
    });
  });

  it.each<[string, string, string[]]>([
    ['My Server', 'My-Server', []],
    ['_tools', 'tools', []],
    ['✓✓', 'editor', []],
  ])('names server %j %j', (name, expected) => {
    const { servers } = editorServers([{ name, command: 'x', args: [], env: [] }]);
    expect(Object.keys(servers)).toEqual([expected]);
  });

  it('gives two servers of one name two names', () => {
    const one = { name: 'a', command: 'x', args: [], env: [] };
    expect(Object.keys(editorServers([one, one]).servers)).toEqual(['a', 'a-2']);
  });

  it('leaves out an SSE server and one it cannot use, saying why', () => {
    const list = [
      { type: 'sse', name: 'old', url: 'https://x/sse', headers: [] },
      { type: 'http', name: 'bad', url: 'ftp://x', headers: [] },
    ] as McpServer[];
    const { servers, skipped } = editorServers(list);
    expect(servers).toEqual({});
    expect(skipped[0]).toContain('MCP server old: SSE is not supported');
    expect(skipped[1]).toMatch(/^MCP server bad: /);
  });
});
