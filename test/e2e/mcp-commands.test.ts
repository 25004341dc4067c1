// End to end: `keel mcp list|add|remove` on real config files and real servers, and `keel mcp serve` driven by
// the MCP SDK's own client over stdio (the policy, the audit log, checkpoints and the user's hooks).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { keelBin, makeWorkspace, runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';
import { everythingEntry, fixture, mcpConfig } from '../support/mcp.js';

const { workspace, track } = useE2E();
const node = process.execPath;

describe('keel mcp list', () => {
  it('shows each server with its status, tools, resources and prompts', async () => {
    const ws = await workspace();
    const config = await mcpConfig(ws, {
      everything: { command: node, args: [everythingEntry, 'stdio'], tools: { deny: ['get-env'] } },
      silent: { command: node, args: [fixture('silent-server.mjs')], timeout_seconds: 1 },
      off: { command: 'never-started', enabled: false },
    });
    const r = await runKeel(['mcp', 'list', '--config', config, '--cwd', ws]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^everything {2}ready {2}\(stdio /m);
    expect(r.stdout).toContain('    everything__echo  Echoes back the input string');
    expect(r.stdout).toContain('    get-env (not offered: tools.allow / tools.deny)');
    expect(r.stdout).toMatch(/resources \(\d+\): demo:\/\//);
    expect(r.stdout).toContain('/everything__args-prompt <city> [state]');
    expect(r.stdout).toContain('silent  failed: did not answer within 1s (timeout_seconds)');
    expect(r.stdout).toMatch(/^off {2}disabled/m);
  });

  it('prints JSON with --output json', async () => {
    const ws = await workspace();
    const config = await mcpConfig(ws, {
      everything: { command: node, args: [everythingEntry, 'stdio'], read_only: true },
    });
    const r = await runKeel(['mcp', 'list', '--config', config, '--cwd', ws, '--output', 'json']);
    expect(r.code).toBe(0);
    const { servers } = JSON.parse(r.stdout) as {
      servers: {
        name: string;
        status: string;
        tools: { name: string; exposed_as: string; read_only: boolean }[];
      }[];
    };
    expect(servers[0]).toMatchObject({ name: 'everything', status: 'ready' });
    expect(servers[0]!.tools).toContainEqual(
      expect.objectContaining({ name: 'echo', exposed_as: 'everything__echo', read_only: true }),
    );
  });

  it('says how to add a server when none is configured', async () => {
    const ws = await workspace();
    const r = await runKeel(['mcp', 'list', '--cwd', ws]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no MCP servers configured');
  });
});

describe('keel mcp add / remove', () => {
  it('adds stdio and HTTP servers to the user config keeping its comments, then removes them', async () => {
    const ws = await workspace();
    const file = join(ws, 'user.yaml');
    await writeFile(file, '# my settings\nagent:\n  max_turns: 7 # keep this\n');
    const add = (...args: string[]) => runKeel(['mcp', 'add', '--config', file, '--cwd', ws, ...args]);
    expect((await add('fs', '--env', 'A=1', '--', 'npx', '-y', 'server-x', '.')).code).toBe(0);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
    const header = 'Authorization=Bearer ${TOKEN}';
    expect((await add('api', '--url', 'https://example.com/mcp', '--header', header)).code).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('max_turns: 7 # keep this');
    expect(text).toContain('command: npx');
    expect(text).toMatch(/args:\n\s+- -y\n\s+- server-x\n\s+- \./);
    expect(text).toContain('A: "1"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
    expect(text).toContain('Authorization: Bearer ${TOKEN}');
    const again = await add('fs', '--', 'other');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('MCP server fs is already in');
    // The file still loads.
    const show = await runKeel(['config', 'show', '--config', file, '--cwd', ws]);
    expect(show.code).toBe(0);

    const remove = (name: string) => runKeel(['mcp', 'remove', name, '--config', file, '--cwd', ws]);
    expect((await remove('fs')).stdout).toContain(`removed MCP server fs from ${file}`);
    expect((await remove('api')).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('# my settings\nagent:\n  max_turns: 7 # keep this\n');
    const missing = await remove('api');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no MCP server named api');
  });

  it('refuses an add with neither or both of --url and a command', async () => {
    const ws = await workspace();
    const file = join(ws, 'user.yaml');
    const neither = await runKeel(['mcp', 'add', 'x', '--config', file, '--cwd', ws]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('give either --url <url> or a command after --');
    const both = await runKeel([
      'mcp',
      'add',
      'x',
      '--url',
      'http://h/mcp',
      '--config',
      file,
      '--cwd',
      ws,
      '--',
      'cmd',
    ]);
    expect(both.code).toBe(2);
  });

  it('writes --project to the workspace .keel.yaml and says it needs a trusted folder', async () => {
    const ws = await workspace();
    const r = await runKeel(['mcp', 'add', 'local', '--project', '--cwd', ws, '--', 'node', 'server.js']);
    expect(r.code).toBe(0);
    expect(await readFile(join(ws, '.keel.yaml'), 'utf8')).toContain('local:\n      command: node');
    expect(r.stderr).toContain('keel trust');
  });
});

describe('keel mcp serve', () => {
  /** The SDK's client on `keel mcp serve` in `ws` with its own HOME and state dir, all gone after the test. */
  async function serve(ws: string, args: string[] = []): Promise<{ client: Client; state: string }> {
    const home = await makeWorkspace();
    const state = join(home, 'state');
    const transport = new StdioClientTransport({
      command: node,
      args: [keelBin, 'mcp', 'serve', '--cwd', ws, ...args],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_STATE_HOME: state,
        KEEL_KEYRING: 'off',
        NO_COLOR: '1',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    // The server ends before its state dir goes.
    track(async () => {
      await client.close();
      await rm(home, { recursive: true, force: true });
    });
    await client.connect(transport);
    return { client, state };
  }

  const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
    (result.content as { type: string; text: string }[]).map((block) => block.text).join('');

  it("lists Keel's tools and runs read_file inside the workspace jail", async () => {
    const ws = await workspace({ 'hello.txt': 'hello from keel\n' });
    const { client } = await serve(ws);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'execute_command', 'list_files']),
    );
    expect(tools.find((tool) => tool.name === 'read_file')?.inputSchema).toMatchObject({ type: 'object' });
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } });
    expect(read.isError).toBe(false);
    expect(text(read)).toContain('hello from keel');
    const outside = await client.callTool({ name: 'read_file', arguments: { path: '/etc/passwd' } });
    expect(outside.isError).toBe(true);
  });

  it('refuses a command that writes in the default restricted mode, with the reason', async () => {
    const ws = await workspace();
    const { client, state } = await serve(ws);
    const result = await client.callTool({
      name: 'execute_command',
      arguments: { command: 'touch made.txt' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/refused/);
    await expect(readFile(join(ws, 'made.txt'))).rejects.toThrow();
    await client.close();
    expect(await readFile(join(state, 'keel', 'audit.log'), 'utf8')).toMatch(/touch made\.txt.*refused/);
  });

  it('runs it with --mode full, checkpointed and audited', async () => {
    const ws = await workspace({ 'keep.txt': 'keep\n' });
    const { client, state } = await serve(ws, ['--mode', 'full', '--no-sandbox']);
    const result = await client.callTool({
      name: 'execute_command',
      arguments: { command: 'touch made.txt' },
    });
    expect(text(result)).not.toMatch(/refused/);
    expect(result.isError).toBe(false);
    await readFile(join(ws, 'made.txt'));
    await client.close();
    expect(await readFile(join(state, 'keel', 'audit.log'), 'utf8')).toMatch(/touch made\.txt.*exit:0/);
    const undo = await runKeel(['undo', '--list', '--cwd', ws], { env: { XDG_STATE_HOME: state } });
    expect(undo.stdout).toContain('execute_command');
  });

  it("runs the user's hooks: a pre_tool hook exiting 2 blocks the call, a post_tool hook gets the result", async () => {
    const ws = await workspace({ 'hello.txt': 'hello from keel\n' });
    const log = await workspace();
    const config = join(log, 'config.yaml');
    await writeFile(
      config,
      [
        'hooks:',
        '  pre_tool:',
        '    - match: "write_*"',
        `      command: cat > "${log}/pre.json"; echo "writes are frozen today" >&2; exit 2`,
        '  post_tool:',
        '    - match: read_file',
        `      command: cat > "${log}/post.json"`,
        '',
      ].join('\n'),
    );
    // Full mode: the policy lets the write through, so only the hook stands in its way.
    const { client } = await serve(ws, ['--config', config, '--mode', 'full', '--no-sandbox']);
    const blocked = await client.callTool({
      name: 'write_file',
      arguments: { path: 'new.txt', content: 'x' },
    });
    expect(blocked.isError).toBe(true);
    expect(text(blocked)).toBe('Error: blocked by a pre_tool hook: writes are frozen today');
    await expect(readFile(join(ws, 'new.txt'))).rejects.toThrow();
    const pre = JSON.parse(await readFile(join(log, 'pre.json'), 'utf8')) as Record<string, unknown>;
    expect(pre).toMatchObject({ event: 'pre_tool', tool: 'write_file', args: { path: 'new.txt' } });

    const read = await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } });
    expect(read.isError).toBe(false);
    const post = JSON.parse(await readFile(join(log, 'post.json'), 'utf8')) as Record<string, unknown>;
    expect(post).toMatchObject({ event: 'post_tool', tool: 'read_file' });
    expect(JSON.stringify(post)).toContain('hello from keel');
  });
});
