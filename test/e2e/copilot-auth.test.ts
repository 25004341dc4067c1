// `keel auth` and `keel run --provider copilot` against a scripted GitHub and model server: the command line in
// process (test/support/cli-in-process.ts), and the built binary once, for the device-flow login.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type KeelRun, runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';
import { type GitHubServerOptions, startGitHubServer } from '../support/github-server.js';
import type { ScriptStep } from '../support/model-server.js';

const canary = 'ghu_CANARY123';
const apiCanary = 'sk-CANARY-API-456';
const { server, workspace, track } = useE2E();

/** A home that survives between keel runs (runKeel's own is deleted after each), plus a config naming the fakes. */
async function setup(github: GitHubServerOptions, script: ScriptStep[] = []) {
  const chat = await server(script);
  const gh = await startGitHubServer({ apiUrl: chat.openaiUrl, ...github });
  track(gh.close);
  const home = await workspace();
  const ws = await workspace({ 'notes.txt': 'alpha\nbeta\n' });
  const config = join(home, 'keel.yaml');
  await writeFile(
    config,
    `provider:\n  copilot:\n    github_url: ${gh.url}\n    github_api_url: ${gh.url}\n`,
  );
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    KEEL_KEYRING: 'off',
    DBUS_SESSION_BUS_ADDRESS: undefined,
    GITHUB_TOKEN: undefined,
    COPILOT_MODEL: undefined,
  };
  type Extra = { input?: string; env?: Record<string, string | undefined> };
  const keel = (args: string[], extra: Extra = {}) =>
    runCli(['--config', config, ...args], { env: { ...env, ...extra.env }, input: extra.input, cwd: ws });
  /** The same through the built binary. */
  const keelBinary = (args: string[], extra: Extra = {}) =>
    runKeel(['--config', config, ...args], { env: { ...env, ...extra.env }, input: extra.input, cwd: ws });
  return {
    chat,
    gh,
    home,
    ws,
    keel,
    keelBinary,
    credentials: join(home, '.config', 'keel', 'credentials.yaml'),
  };
}

/** Every file under dir whose content holds the secret (skipping the one file meant to hold it). */
async function filesContaining(dir: string, secret: string, except: string): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || path === except) continue;
    if ((await readFile(path, 'utf8')).includes(secret)) hits.push(path);
  }
  return hits;
}

const noLeak = (run: KeelRun, secret: string) => {
  expect(run.stdout).not.toContain(secret);
  expect(run.stderr).not.toContain(secret);
};

const task: ScriptStep[] = [
  { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
  { toolCalls: [{ name: 'write_file', args: { path: 'out.txt', content: 'ALPHA\nBETA\n' } }] },
  { text: 'Wrote out.txt in upper case.' },
];

describe('keel auth login copilot', () => {
  it('runs the device flow, stores the token 0600, then a copilot run completes a multi-step task', async () => {
    const t = await setup({ polls: ['pending', 'pending', 'granted'], githubToken: canary }, task);
    const login = await t.keelBinary(['auth', 'login', 'copilot']);
    expect(login.stderr).toContain(
      `no OS keyring available; storing credentials in ${t.credentials} (mode 0600)`,
    );
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`open ${t.gh.url}/login/device and enter the code WDJB-MJHT`);
    expect(login.stdout).toContain('logged in to copilot; credential kept in the credentials file');
    noLeak(login, canary);
    expect((await stat(t.credentials)).mode & 0o777).toBe(0o600);
    expect(await readFile(t.credentials, 'utf8')).toBe(`copilot: ${canary}\n`);

    const status = await t.keel(['auth', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^copilot +file ${t.credentials}$`, 'm'));
    expect(status.stdout).toMatch(/^gemini +none \(set GEMINI_API_KEY/m);
    noLeak(status, canary);

    const cassette = join(t.home, 'run.cassette.json');
    const run = await t.keel([
      'run',
      '--provider',
      'copilot',
      '--cwd',
      t.ws,
      '--record',
      cassette,
      '--prompt',
      'upper-case notes.txt',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Wrote out.txt in upper case.');
    expect(await readFile(join(t.ws, 'out.txt'), 'utf8')).toBe('ALPHA\nBETA\n');
    noLeak(run, canary);
    expect(t.chat.requests.map((r) => r.headers['x-initiator'])).toEqual(['user', 'agent', 'agent']);
    expect(t.chat.requests.every((r) => r.headers.authorization === 'Bearer copilot-token-1')).toBe(true);
    expect(await filesContaining(t.home, canary, t.credentials)).toEqual([]);
    expect(await filesContaining(t.ws, canary, '')).toEqual([]);

    const logout = await t.keel(['auth', 'logout', 'copilot']);
    expect(logout.stdout).toContain('removed the copilot credential from the credentials file');
    await expect(stat(t.credentials)).rejects.toThrow(/ENOENT/);
    const after = await t.keel(['auth', 'status', 'copilot']);
    expect(after.stdout).toMatch(/^copilot +none/);
  });

  it('slow_down then granted still logs in', async () => {
    const t = await setup({ polls: ['slow_down', 'granted'], slowDownInterval: 0.05 });
    const login = await t.keel(['auth', 'login', 'copilot']);
    expect(login.code, login.stderr).toBe(0);
  });

  it.each([
    ['denied', 'the GitHub login was denied'],
    ['expired', 'the GitHub login code expired'],
  ] as const)('a %s login exits 3 and stores nothing', async (answer, message) => {
    const t = await setup({ polls: ['pending', answer] });
    const login = await t.keel(['auth', 'login', 'copilot']);
    expect(login.code).toBe(3);
    expect(login.stderr).toContain(message);
    await expect(stat(t.credentials)).rejects.toThrow(/ENOENT/);
  });

  it('--no-store stores nothing', async () => {
    const t = await setup({ githubToken: canary });
    const login = await t.keel(['auth', 'login', 'copilot', '--no-store']);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('for this session only (nothing was stored)');
    await expect(stat(t.credentials)).rejects.toThrow(/ENOENT/);
    noLeak(login, canary);
  });
});

describe('keel run --provider copilot', () => {
  it('without a login exits 3 with the hint', async () => {
    const t = await setup({});
    const run = await t.keel(['run', '--provider', 'copilot', '--prompt', 'hi']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('error: not logged in to GitHub Copilot');
    expect(run.stderr).toContain('hint: run `keel auth login copilot` or set GITHUB_TOKEN');
  });

  it('GITHUB_TOKEN is used; an expiring Copilot token is exchanged again before each request', async () => {
    const t = await setup({ githubToken: canary, tokenTtlSeconds: 30 }, task);
    const run = await t.keel(['run', '--provider', 'copilot', '--prompt', 'upper-case notes.txt'], {
      env: { GITHUB_TOKEN: canary, COPILOT_MODEL: 'claude-sonnet-4' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(t.gh.issued).toEqual(['copilot-token-1', 'copilot-token-2', 'copilot-token-3']);
    expect(t.chat.requests.map((r) => r.headers.authorization)).toEqual(
      t.gh.issued.map((x) => `Bearer ${x}`),
    );
    expect(t.chat.requests[0]!.body.model).toBe('claude-sonnet-4');
    noLeak(run, canary);
  });

  it('a 401 from chat refreshes the token once and the run goes on', async () => {
    const t = await setup({ githubToken: canary }, [{ status: 401 }, ...task]);
    const run = await t.keel(['run', '--provider', 'copilot', '--prompt', 'upper-case notes.txt'], {
      env: { GITHUB_TOKEN: canary },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(t.gh.issued).toEqual(['copilot-token-1', 'copilot-token-2']);
  });

  it('a revoked GitHub token exits 3 without echoing it', async () => {
    const t = await setup({ exchangeStatus: 401 });
    const run = await t.keel(['run', '--provider', 'copilot', '--prompt', 'hi'], {
      env: { GITHUB_TOKEN: canary },
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('no Copilot access or the token was revoked');
    noLeak(run, canary);
  });
});

describe('keel auth for API-key providers', () => {
  it('reads the key from piped stdin, shows where it is, never the value, and logs out', async () => {
    const t = await setup({});
    const login = await t.keel(['auth', 'login', 'openai'], { input: `${apiCanary}\n` });
    expect(login.code, login.stderr).toBe(0);
    noLeak(login, apiCanary);
    expect(await readFile(t.credentials, 'utf8')).toBe(`openai: ${apiCanary}\n`);
    const status = await t.keel(['auth', 'status', 'openai']);
    expect(status.stdout).toBe(`openai  file ${t.credentials}\n`);
    const fromEnv = await t.keel(['auth', 'status', 'openai'], { env: { OPENAI_API_KEY: 'x' } });
    expect(fromEnv.stdout).toBe('openai  env OPENAI_API_KEY\n');
    expect(await filesContaining(t.home, apiCanary, t.credentials)).toEqual([]);
  });

  it('an empty key is a usage error; an unknown provider exits 2', async () => {
    const t = await setup({});
    const empty = await t.keel(['auth', 'login', 'gemini'], { input: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no API key given for gemini');
    const unknown = await t.keel(['auth', 'login', 'ollama']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown provider "ollama" for keel auth');
  });
});
