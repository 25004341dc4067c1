// `keel doctor` checks what a run needs, one line each with a fix, and exits 1 when a run cannot work: its JSON in
// process (test/support/cli-in-process.ts), its text from the built binary (with no MCP server that starts: each
// start costs a node process).
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';
import { fixture, mcpConfig } from '../support/mcp.js';

const { server, workspace } = useE2E();

interface Check {
  name: string;
  ok: boolean;
  required: boolean;
  detail: string;
  fix?: string;
}

describe('keel doctor', () => {
  it('checks node, sandbox, git, ripgrep, the provider and its model, MCP servers and the dirs, with a fix for each failure', async () => {
    const s = await server([]);
    const ws = await workspace();
    const home = await workspace();
    const state = join(home, 'state');
    await mkdir(join(state, 'keel'), { recursive: true });
    // Keel's state dir readable by others: a run would still work, but it must be fixed.
    await chmod(join(state, 'keel'), 0o755);
    const config = await mcpConfig(ws, {
      // A light stdio server: the SDK's own costs 0.6 s of CPU to start.
      ready: { command: process.execPath, args: [fixture('gated-server.mjs'), '--tools', 'ping,pong'] },
      broken: { command: join(ws, 'no-such-server') },
    });
    const env = { XDG_STATE_HOME: state, XDG_DATA_HOME: join(home, 'data') };
    const args = ['doctor', '--base-url', s.ollamaUrl, '--model', 'qwen3', '--config', config, '--cwd', ws];
    const json = await runCli([...args, '--output', 'json'], { env });
    expect(json.code).toBe(1);
    const { ok, checks } = JSON.parse(json.stdout) as { ok: boolean; checks: Check[] };
    expect(ok).toBe(false);
    const by = (name: string) => checks.find((c) => c.name === name);
    expect(by('node')).toMatchObject({ ok: true, required: true });
    for (const name of ['sandbox', 'git', 'ripgrep']) expect(by(name)).toBeDefined();
    expect(by('model qwen3')).toMatchObject({ ok: true, detail: 'ollama answers and lists it' });
    expect(by('mcp ready')).toMatchObject({ ok: true, detail: 'started, 2 tools' });
    expect(by('mcp broken')).toMatchObject({ ok: false, required: false });
    expect(by('state dir')).toMatchObject({
      ok: false,
      required: true,
      fix: `chmod 700 ${join(state, 'keel')}`,
    });
    expect(by('data dir')).toMatchObject({ ok: true });

    // The binary's text needs no server that starts: only the broken one (the started one is checked above).
    const brokenOnly = await mcpConfig(home, { broken: { command: join(ws, 'no-such-server') } });
    const textArgs = args.map((arg) => (arg === config ? brokenOnly : arg));
    const text = await runKeel(textArgs, { env: { ...env, XDG_STATE_HOME: join(home, 'fresh') } });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^✓ node: Node\.js \d+/m);
    expect(text.stdout).toMatch(/^! mcp broken: .*\n {4}fix: keel mcp list shows it/m);
    expect(text.stdout.trim().split('\n').at(-1)).toBe('ready to run');
  });

  it("checks web_search's endpoint key apart from the model providers', with the command that stores one", async () => {
    const s = await server([]);
    const ws = await workspace();
    const config = join(ws, 'keel.yaml');
    await writeFile(config, 'web:\n  search:\n    provider: brave\n');
    const args = ['doctor', '--base-url', s.ollamaUrl, '--model', 'qwen3', '--config', config, '--cwd', ws];
    const checksOf = async (env: Record<string, string>) => {
      const r = await runCli([...args, '--output', 'json'], { env });
      return (JSON.parse(r.stdout) as { checks: Check[] }).checks;
    };
    const without = await checksOf({});
    expect(without.find((c) => c.name === 'web search brave')).toEqual({
      name: 'web search brave',
      ok: false,
      required: false,
      detail: 'no API key found: web_search fails',
      fix: 'keel auth login brave (or set BRAVE_API_KEY)',
    });
    const withKey = await checksOf({ BRAVE_API_KEY: 'bk-1' });
    expect(withKey.find((c) => c.name === 'web search brave')).toMatchObject({
      ok: true,
      detail: 'key found (BRAVE_API_KEY)',
    });
    // Never listed as a model provider that is "not selected".
    expect(withKey.map((c) => c.name)).not.toContain('provider brave');
  });
});
