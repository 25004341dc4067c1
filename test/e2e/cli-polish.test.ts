// What a new user meets first — help listing the global options, bad flags refused before any request — in-process:
// commander's parse as the binary does it, and runCommand for the flags' values (cli-basics spawns the binary).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E, wireProviders } from '../support/e2e.js';
import { keelRun, parseHere, providerRun } from '../support/run-in-process.js';

const { server, workspace } = useE2E();

describe('keel cli polish', () => {
  it.each([['run'], ['chat']])('`keel %s --help` lists its own and the global options', async (command) => {
    const r = await parseHere([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--dry-run');
    expect(r.stdout).toContain('Global Options:');
    for (const flag of ['--provider', '--model', '--base-url', '--cwd', '--output', '--config', '--debug']) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('--cwd naming a file says it is not a directory (exit 2)', async () => {
    const ws = await workspace({ 'notes.txt': 'x\n' });
    const file = join(ws, 'notes.txt');
    const r = await keelRun({ cwd: file, prompt: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--cwd is not a directory: ${file}`);
  });

  it.each(wireProviders)(
    'a --base-url without http(s):// is a usage error naming the flag, before any request ($provider)',
    async (p) => {
      const s = await server([{ text: 'never asked' }]);
      const ws = await workspace();
      const bare = { ...s, [p.url]: s[p.url].replace(/^http:\/\//, '') };
      const r = await providerRun(p, bare, ws, { prompt: 'hi' });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('`--base-url` must be an http(s) URL');
      expect(s.requests).toHaveLength(0);
    },
  );

  it('copilot: a malformed --base-url is refused the same way', async () => {
    const r = await keelRun({ provider: 'copilot', baseUrl: 'api.githubcopilot', prompt: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('`--base-url` must be an http(s) URL, got "api.githubcopilot"');
  });

  it('a malformed base URL in the user config names the key and line', async () => {
    const ws = await workspace();
    const config = join(ws, 'config.yaml');
    await writeFile(config, 'provider:\n  ollama:\n    base_url: "ftp://host"\n');
    const r = await keelRun({ config, cwd: ws, prompt: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('`provider.ollama.base_url`');
    expect(r.stderr).toContain('line 3 must be an http(s) URL');
  });
});
