// `keel config get <key>` through the command line: a leaf's value alone, a group's keys with their sources, a
// secret masked, an unknown key refused (exit 2) naming the key meant.
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
});
