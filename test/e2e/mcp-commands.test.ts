// `keel mcp list|add|remove` in-process on real config files and real servers (the whole command line in process
// for `mcp add … -- <command>`), and the built `keel mcp serve` driven by the MCP SDK's own client over stdio: one
// serve in the default restricted mode and one in full mode with the user's hooks (the policy, the audit log,
// checkpoints).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpAddCommand, mcpListCommand, mcpRemoveCommand } from '../../src/cli/mcp-command.js';
import { loadConfigFor } from '../../src/cli/run-options.js';
import { undoCommand } from '../../src/cli/undo-command.js';
import { captureOutput, useTempHome } from '../support/assemble-in-process.js';
import { keelBin, makeWorkspace } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';
import { everythingEntry, fixture, mcpConfig } from '../support/mcp.js';

const { workspace } = useE2E();
useTempHome();
const node = process.execPath;

/** `keel mcp list [--output json]` in-process: its exit code, stdout and stderr. */
async function list(ws: string, config?: string, output: 'text' | 'json' = 'text') {
  const out = captureOutput();
  const code = await mcpListCommand({ cwd: ws, output, ...(config ? { config } : {}) }, out);
  return { code, stdout: out.out, stderr: out.err };
}

describe('keel mcp list', () => {
  it('shows each server with its status, tools, resources and prompts', async () => {
    const ws = await workspace();
    const config = await mcpConfig(ws, {
      everything: { command: node, args: [everythingEntry, 'stdio'], tools: { deny: ['get-env'] } },
      silent: { command: node, args: [fixture('silent-server.mjs')], timeout_seconds: 1 },
      off: { command: 'never-started', enabled: false },
    });
    const r = await list(ws, config);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^everything {2}ready {2}\(stdio /m);
    expect(r.stdout).toContain('    everything__echo  Echoes back the input string');
    expect(r.stdout).toContain('    get-env (not offered: tools.allow / tools.deny)');
    expect(r.stdout).toMatch(/resources \(\d+\): demo:\/\//);
    expect(r.stdout).toContain('/everything__args-prompt <city> [state]');
    expect(r.stdout).toContain(
      'silent  failed: did not answer within 1 s (raise mcp.servers.silent.timeout_seconds if it needs longer)',
    );
    expect(r.stdout).toMatch(/^off {2}disabled/m);
  });

  it('prints each server as it answers, not after the slowest: a silent server comes last, after its timeout', async () => {
    const ws = await workspace();
    const config = await mcpConfig(ws, {
      silent: { command: node, args: [fixture('silent-server.mjs')], timeout_seconds: 1 },
      tools: { command: node, args: [fixture('gated-server.mjs'), '--tools', 'echo'] },
    });
    const out = captureOutput();
    const printed: string[] = [];
    const print = out.print.bind(out);
    out.print = (text: string) => {
      printed.push(text);
      print(text);
    };
    expect(await mcpListCommand({ cwd: ws, output: 'text', config }, out)).toBe(0);
    expect(printed.map((text) => text.trimStart().split(' ', 1)[0])).toEqual(['tools', 'silent']);
    expect(printed[1]).toMatch(
      /^\nsilent {2}failed: did not answer within 1 s \(raise mcp\.servers\.silent\.timeout_seconds/,
    );
  });

  it('prints JSON with --output json', async () => {
    const ws = await workspace();
    // A light server (the SDK's costs 0.6 s of CPU to start); the text listing above shows a real one.
    const config = await mcpConfig(ws, {
      tools: { command: node, args: [fixture('gated-server.mjs'), '--tools', 'echo,add'], read_only: true },
    });
    const r = await list(ws, config, 'json');
    expect(r.code).toBe(0);
    const { servers } = JSON.parse(r.stdout) as {
      servers: {
        name: string;
        status: string;
        tools: { name: string; exposed_as: string; read_only: boolean }[];
      }[];
    };
    expect(servers[0]).toMatchObject({ name: 'tools', status: 'ready' });
    expect(servers[0]!.tools).toEqual([
      expect.objectContaining({ name: 'echo', exposed_as: 'tools__echo', read_only: true }),
      expect.objectContaining({ name: 'add', exposed_as: 'tools__add', read_only: true }),
    ]);
  });

  it('says how to add a server when none is configured', async () => {
    const ws = await workspace();
    const r = await list(ws);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no MCP servers configured');
  });
});

describe('keel mcp add / remove', () => {
  const addOptions = (ws: string, config: string | undefined) => ({
    cwd: ws,
    output: 'text' as const,
    env: [],
    header: [],
    ...(config ? { config } : {}),
  });

  it('takes the stdio command after -- whole, its own options included (the command line parses it)', async () => {
    const ws = await workspace();
    const file = join(ws, 'user.yaml');
    const r = await runCli([
      'mcp',
      'add',
      '--config',
      file,
      '--cwd',
      ws,
      'fs',
      '--env',
      'A=1',
      '--',
      'npx',
      '-y',
      'server-x',
      '.',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`added MCP server fs to ${file}\n`);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('command: npx');
    expect(text).toMatch(/args:\n\s+- -y\n\s+- server-x\n\s+- \./);
    expect(text).toContain('A: "1"');
  });

  it('adds stdio and HTTP servers to the user config keeping its comments, then removes them', async () => {
    const ws = await workspace();
    const file = join(ws, 'user.yaml');
    await writeFile(file, '# my settings\nagent:\n  max_turns: 7 # keep this\n');
    const out = captureOutput();
    const options = addOptions(ws, file);
    expect(await mcpAddCommand('fs', ['npx', '-y', 'server-x', '.'], { ...options, env: ['A=1'] }, out)).toBe(
      0,
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
    const header = 'Authorization=Bearer ${TOKEN}';
    expect(
      await mcpAddCommand('api', [], { ...options, url: 'https://example.com/mcp', header: [header] }, out),
    ).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('max_turns: 7 # keep this');
    expect(text).toContain('command: npx');
    expect(text).toMatch(/args:\n\s+- -y\n\s+- server-x\n\s+- \./);
    expect(text).toContain('A: "1"');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
    expect(text).toContain('Authorization: Bearer ${TOKEN}');
    const again = captureOutput();
    expect(await mcpAddCommand('fs', ['other'], options, again)).toBe(2);
    expect(again.err).toContain('MCP server fs is already in');
    // The file still loads.
    await expect(loadConfigFor({ config: file, cwd: ws, output: 'text' })).resolves.toBeDefined();

    const removed = captureOutput();
    expect(await mcpRemoveCommand('fs', options, removed)).toBe(0);
    expect(removed.out).toContain(`removed MCP server fs from ${file}`);
    expect(await mcpRemoveCommand('api', options, removed)).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('# my settings\nagent:\n  max_turns: 7 # keep this\n');
    const missing = captureOutput();
    expect(await mcpRemoveCommand('api', options, missing)).toBe(2);
    expect(missing.err).toContain('no MCP server named api');
  });

  it('refuses an add with neither or both of --url and a command, or a --url that is no URL', async () => {
    const ws = await workspace();
    const file = join(ws, 'user.yaml');
    const neither = captureOutput();
    expect(await mcpAddCommand('x', [], addOptions(ws, file), neither)).toBe(2);
    expect(neither.err).toContain('give either --url <url> or a command after --');
    const both = captureOutput();
    expect(await mcpAddCommand('x', ['cmd'], { ...addOptions(ws, file), url: 'http://h/mcp' }, both)).toBe(2);
    // A URL that is none says what --url takes, with an example.
    const bad = captureOutput();
    expect(await mcpAddCommand('x', [], { ...addOptions(ws, file), url: 'localhost:3000' }, bad)).toBe(2);
    expect(bad.err).toContain('error: MCP server x: --url must be an http(s) URL, got "localhost:3000"');
    expect(bad.err).toContain(
      "hint: the server's streamable HTTP endpoint, e.g. keel mcp add x --url https://host/mcp",
    );
    await expect(readFile(file)).rejects.toThrow();
  });

  it('writes --project to the workspace .keel.yaml and says it needs a trusted folder', async () => {
    const ws = await workspace();
    const out = captureOutput();
    const code = await mcpAddCommand(
      'local',
      ['node', 'server.js'],
      { ...addOptions(ws, undefined), project: true },
      out,
    );
    expect(code).toBe(0);
    expect(await readFile(join(ws, '.keel.yaml'), 'utf8')).toContain('local:\n      command: node');
    expect(out.err).toContain('keel trust');
  });
});

interface Served {
  client: Client;
  ws: string;
  state: string;
  close: () => Promise<void>;
}

/** The SDK's client on `keel mcp serve` in a workspace of `files`, with its own HOME and state dir. */
async function serve(files: Record<string, string>, args: string[] = []): Promise<Served> {
  const ws = await makeWorkspace(files);
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
  await client.connect(transport);
  return {
    client,
    ws,
    state,
    // The server ends before its dirs go.
    async close() {
      await client.close();
      await rm(home, { recursive: true, force: true });
      await rm(ws, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((block) => block.text).join('');

const audit = (state: string) => readFile(join(state, 'keel', 'audit.log'), 'utf8');

describe('keel mcp serve in the default restricted mode', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve({ 'hello.txt': 'hello from keel\n' });
  });
  afterAll(() => served?.close());

  it("lists Keel's tools and runs read_file inside the workspace jail", async () => {
    const { client } = served;
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

  it('refuses a command that writes, with the reason, and audits the refusal', async () => {
    const { client, ws, state } = served;
    const result = await client.callTool({
      name: 'execute_command',
      arguments: { command: 'touch made.txt' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/refused/);
    await expect(readFile(join(ws, 'made.txt'))).rejects.toThrow();
    // Each call's events are flushed before its answer goes out.
    expect(await audit(state)).toMatch(/touch made\.txt.*refused/);
  });
});

describe('keel mcp serve --mode full with the user hooks', () => {
  let served: Served;
  beforeAll(async () => {
    const config = join(await makeWorkspace(), 'config.yaml');
    const log = `${config}.d`;
    await writeFile(
      config,
      [
        'hooks:',
        '  pre_tool:',
        '    - match: "write_*"',
        `      command: mkdir -p "${log}"; cat > "${log}/pre.json"; echo "writes are frozen today" >&2; exit 2`,
        '  post_tool:',
        '    - match: read_file',
        `      command: mkdir -p "${log}"; cat > "${log}/post.json"`,
        '',
      ].join('\n'),
    );
    served = await serve({ 'hello.txt': 'hello from keel\n', 'keep.txt': 'keep\n' }, [
      '--config',
      config,
      '--mode',
      'full',
      '--no-sandbox',
    ]);
    hookLog = log;
    configDir = join(config, '..');
  });
  let hookLog = '';
  let configDir = '';
  afterAll(async () => {
    await served?.close();
    await rm(configDir, { recursive: true, force: true });
  });

  it('runs a command that writes, checkpointed and audited', async () => {
    const { client, ws, state } = served;
    const result = await client.callTool({
      name: 'execute_command',
      arguments: { command: 'touch made.txt' },
    });
    expect(text(result)).not.toMatch(/refused/);
    expect(result.isError).toBe(false);
    await readFile(join(ws, 'made.txt'));
    expect(await audit(state)).toMatch(/touch made\.txt.*exit:0/);
    process.env.XDG_STATE_HOME = state;
    const undo = captureOutput();
    expect(await undoCommand(undefined, { list: true, cwd: ws, output: 'text' }, undo)).toBe(0);
    expect(undo.out).toContain('execute_command');
  });

  it("runs the user's hooks: a pre_tool hook exiting 2 blocks the call, a post_tool hook gets the result", async () => {
    const { client, ws } = served;
    // Full mode: the policy lets the write through, so only the hook stands in its way.
    const blocked = await client.callTool({
      name: 'write_file',
      arguments: { path: 'new.txt', content: 'x' },
    });
    expect(blocked.isError).toBe(true);
    expect(text(blocked)).toBe('Error: blocked by a pre_tool hook: writes are frozen today');
    await expect(readFile(join(ws, 'new.txt'))).rejects.toThrow();
    const pre = JSON.parse(await readFile(join(hookLog, 'pre.json'), 'utf8')) as Record<string, unknown>;
    expect(pre).toMatchObject({ event: 'pre_tool', tool: 'write_file', args: { path: 'new.txt' } });

    const read = await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } });
    expect(read.isError).toBe(false);
    const post = JSON.parse(await readFile(join(hookLog, 'post.json'), 'utf8')) as Record<string, unknown>;
    expect(post).toMatchObject({ event: 'post_tool', tool: 'read_file' });
    expect(JSON.stringify(post)).toContain('hello from keel');
  });
});
