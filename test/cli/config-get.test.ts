// `keel config get <key>` through the command line: a leaf's value alone, a group's keys with their sources, a
// secret masked, an unknown key refused (exit 2) naming the key meant.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';

const { workspace } = useE2E();

describe('keel config get', () => {
  it('prints values, groups and masked secrets, and names the key a typo meant', async () => {
    const ws = await workspace({ '.keel.yaml': 'checkpoints:\n  max_file_mb: 12\n' });
    const get = (...args: string[]) =>
      runCli(['config', 'get', ...args, '--cwd', ws], { env: { OLLAMA_API_KEY: 'sk-secret-value' } });

    const leaf = await get('checkpoints.max_file_mb');
    expect([leaf.code, leaf.stdout]).toEqual([0, '12\n']);
    expect((await get('provider.type')).stdout).toBe('ollama\n');
    const group = await get('checkpoints');
    expect(group.stdout).toMatch(/^max_file_mb: 12 +# project file .*\.keel\.yaml:2$/m);
    expect(group.stdout).not.toMatch(/provider/);
    const secret = await get('provider.ollama.api_key');
    expect(secret.stdout).toBe('********\n');
    expect(secret.stdout + secret.stderr).not.toContain('sk-secret-value');
    const typo = await get('checkpoint.max_file_mb');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown config key `checkpoint.max_file_mb`');
    expect(typo.stderr).toContain('did you mean checkpoints.max_file_mb?');
  });

  it("prints a named MCP server's keys (set, defaulted, unset), and refuses one of a server not configured", async () => {
    const ws = await workspace({
      'user.yaml': 'mcp:\n  servers:\n    fs:\n      command: npx\n      startup_timeout_seconds: 20\n',
    });
    const get = (key: string) => runCli(['config', 'get', key, '--config', `${ws}/user.yaml`, '--cwd', ws]);
    expect((await get('mcp.servers.fs.startup_timeout_seconds')).stdout).toBe('20\n');
    expect((await get('mcp.servers.fs.timeout_seconds')).stdout).toBe('60\n');
    const missing = await get('mcp.servers.api.enabled');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the config has no `mcp.servers.api`');
  });

  it('prints a whole server, its mappings and the keys in them, with credentials masked as config show masks them', async () => {
    const ws = await workspace({
      'user.yaml':
        'mcp:\n  servers:\n    gh:\n      command: npx\n      env:\n        GITHUB_TOKEN: ghp_live_secret_value\n' +
        '        ROOT: /data\n    api:\n      url: https://mcp.example.com/mcp\n' +
        '      headers:\n        Authorization: Bearer live-secret-token\n',
    });
    const get = (key: string) => runCli(['config', 'get', key, '--config', `${ws}/user.yaml`, '--cwd', ws]);
    const server = await get('mcp.servers.gh');
    expect(server.code).toBe(0);
    expect(server.stdout).toMatch(
      /^command: npx\nargs: \[\]\nenv:\n {2}GITHUB_TOKEN: "\*{8}"\n {2}ROOT: \/data\n/,
    );
    expect((await get('mcp.servers.gh.env')).stdout).toBe('GITHUB_TOKEN: "********"\nROOT: /data\n');
    expect((await get('mcp.servers.gh.env.ROOT')).stdout).toBe('/data\n');
    expect((await get('mcp.servers.gh.env.GITHUB_TOKEN')).stdout).toBe('********\n');
    expect((await get('mcp.servers.api.headers.Authorization')).stdout).toBe('********\n');
    expect((await get('mcp.servers.gh.tools')).stdout).toBe('allow: []\ndeny: []\nread_only: []\n');
    for (const key of [
      'mcp.servers.gh',
      'mcp.servers.gh.env',
      'mcp.servers.api',
      'mcp.servers.api.headers',
    ]) {
      const shown = await get(key);
      expect(shown.stdout + shown.stderr).not.toMatch(/live-secret|live_secret/);
    }
    const none = await get('mcp.servers.gh.env.HOME');
    expect([none.code, none.stderr]).toEqual([
      2,
      expect.stringContaining('the config has no `mcp.servers.gh.env.HOME`'),
    ]);
  });
});

describe('keel config set under a named entry', () => {
  it("sets a server's env key, and refuses to write a credential there, taking a reference to a variable instead", async () => {
    const ws = await workspace({ 'user.yaml': 'mcp:\n  servers:\n    gh:\n      command: npx\n' });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax.
    const reference = '${GITHUB_TOKEN}';
    const set = (key: string, value: string) =>
      runCli(['config', 'set', key, value, '--config', `${ws}/user.yaml`, '--cwd', ws]);
    expect((await set('mcp.servers.gh.env.ROOT', '/data')).code).toBe(0);
    const secret = await set('mcp.servers.gh.env.GITHUB_TOKEN', 'ghp_live_secret_value');
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain('`mcp.servers.gh.env.GITHUB_TOKEN` would write a secret');
    expect(secret.stderr).not.toContain('ghp_live_secret_value');
    expect((await set('mcp.servers.gh.env.GITHUB_TOKEN', reference)).code).toBe(0);
    const text = await readFile(`${ws}/user.yaml`, 'utf8');
    expect(text).toContain(`env:\n        ROOT: /data\n        GITHUB_TOKEN: ${reference}\n`);
  });
});
