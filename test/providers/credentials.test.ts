// Credential lookup order, the 0600 credentials file, the keyring path, --no-store and status, on real temp files.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CredentialStore,
  credentialEnvVar,
  credentialsPath,
  resolveCredential,
} from '../../src/providers/credentials.js';
import type { Keyring } from '../../src/providers/keyring.js';
import { systemKeyring } from '../../src/providers/keyring.js';

let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'keel-cred-'));
  env = { HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
});
afterEach(() => rm(home, { recursive: true, force: true }));

/** An in-memory stand-in for the OS keyring (the real one needs a desktop session this machine lacks). */
function memoryKeyring(options: { failSet?: boolean } = {}): Keyring & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    get: (account) => entries.get(account),
    set: (account, secret) => {
      if (options.failSet) throw new Error('keyring locked');
      entries.set(account, secret);
    },
    delete: (account) => entries.delete(account),
  };
}

describe('credentials file', () => {
  it('lives under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(credentialsPath(env)).toBe(join(home, 'xdg', 'keel', 'credentials.yaml'));
    expect(credentialsPath({ HOME: home, XDG_CONFIG_HOME: 'relative' })).toBe(
      join(home, '.config', 'keel', 'credentials.yaml'),
    );
  });

  it('is created with mode 0600 when there is no keyring, and says so once', async () => {
    const store = new CredentialStore({ env, keyring: null });
    const first = await store.store('openai', 'sk-CANARY-1');
    expect(first.source).toBe('file');
    expect(first.notice).toBe(`no OS keyring available; storing credentials in ${store.file} (mode 0600)`);
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    // The file exists now: a later login (another process's too) says nothing more.
    expect(await new CredentialStore({ env, keyring: null }).store('copilot', 'ghu_CANARY')).toEqual({
      source: 'file',
    });
    expect(await readFile(store.file, 'utf8')).toBe('openai: sk-CANARY-1\ncopilot: ghu_CANARY\n');
    // Written by rename: no temp files are left next to it.
    expect(await readdir(dirname(store.file))).toEqual(['credentials.yaml']);
    expect(await resolveCredential('copilot', env, { keyring: null })).toBe('ghu_CANARY');
  });

  it('keeps its mode 0600 when rewritten even if someone widened it', async () => {
    const store = new CredentialStore({ env, keyring: null });
    await store.store('openai', 'a');
    const { chmod } = await import('node:fs/promises');
    await chmod(store.file, 0o644);
    await store.store('gemini', 'b');
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
  });

  it('a malformed file is an error naming the file but not its content', async () => {
    const file = credentialsPath(env);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, 'openai: [sk-CANARY-SECRET\n');
    const error = await resolveCredential('openai', env, { keyring: null }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(file);
    expect(JSON.stringify(error)).not.toContain('CANARY');
    expect(String((error as Error).message)).not.toContain('CANARY');
  });
});

describe('lookup order', () => {
  it('env var beats keyring beats file', async () => {
    const keyring = memoryKeyring();
    const fileOnly = new CredentialStore({ env, keyring: null });
    await fileOnly.store('gemini', 'from-file');
    expect(await resolveCredential('gemini', env, { keyring })).toBe('from-file');
    keyring.entries.set('gemini', 'from-keyring');
    expect(await resolveCredential('gemini', env, { keyring })).toBe('from-keyring');
    expect(await resolveCredential('gemini', { ...env, GEMINI_API_KEY: ' from-env ' }, { keyring })).toBe(
      'from-env',
    );
  });

  it('an empty env var counts as unset', async () => {
    expect(await resolveCredential('openai', { ...env, OPENAI_API_KEY: '  ' }, { keyring: null })).toBe(
      undefined,
    );
  });

  it('providers without credentials resolve to nothing', async () => {
    expect(await resolveCredential('ollama', { ...env, OLLAMA_API_KEY: 'x' })).toBe(undefined);
  });

  it('the env var table names each provider variable', () => {
    expect(credentialEnvVar).toEqual({
      copilot: 'GITHUB_TOKEN',
      gemini: 'GEMINI_API_KEY',
      openrouter: 'OPENROUTER_API_KEY',
      anthropic: 'ANTHROPIC_API_KEY',
      openai: 'OPENAI_API_KEY',
      brave: 'BRAVE_API_KEY',
      tavily: 'TAVILY_API_KEY',
    });
  });
});

describe('store, remove and status', () => {
  it('stores in the keyring when it works, and drops an older copy from the file', async () => {
    const keyring = memoryKeyring();
    await new CredentialStore({ env, keyring: null }).store('anthropic', 'old');
    const store = new CredentialStore({ env, keyring });
    const result = await store.store('anthropic', 'new');
    expect(result).toEqual({ source: 'keyring' });
    expect(keyring.entries.get('anthropic')).toBe('new');
    await expect(stat(store.file)).rejects.toThrow(/ENOENT/);
  });

  it('falls back to the file when the keyring refuses', async () => {
    const store = new CredentialStore({ env, keyring: memoryKeyring({ failSet: true }) });
    const result = await store.store('openrouter', 'sk-or');
    expect(result.source).toBe('file');
    expect(result.notice).toContain(store.file);
  });

  it('--no-store keeps the credential in memory for the session only', async () => {
    const store = new CredentialStore({ env, keyring: null });
    expect(await store.store('copilot', 'ghu_session', { noStore: true })).toEqual({ source: 'session' });
    expect(await resolveCredential('copilot', env, { store })).toBe('ghu_session');
    await expect(stat(store.file)).rejects.toThrow(/ENOENT/);
    expect(await resolveCredential('copilot', env, { keyring: null })).toBe(undefined);
  });

  it('remove deletes it everywhere it was stored', async () => {
    const keyring = memoryKeyring();
    keyring.entries.set('openai', 'k');
    const store = new CredentialStore({ env, keyring });
    await new CredentialStore({ env, keyring: null }).store('openai', 'f');
    await new CredentialStore({ env, keyring: null }).store('gemini', 'g');
    expect(await store.remove('openai')).toEqual(['keyring', 'file']);
    expect(await resolveCredential('openai', env, { keyring })).toBe(undefined);
    expect(await resolveCredential('gemini', env, { keyring })).toBe('g');
    expect(await store.remove('openai')).toEqual([]);
  });

  it('status says where each credential comes from, never the value', async () => {
    const keyring = memoryKeyring();
    keyring.entries.set('anthropic', 'sk-ant-CANARY');
    const store = new CredentialStore({ env: { ...env, GITHUB_TOKEN: 'ghu_CANARY' }, keyring });
    await new CredentialStore({ env, keyring: null }).store('gemini', 'gem-CANARY');
    const status = await store.status();
    expect(status).toEqual([
      { provider: 'copilot', source: 'env', detail: 'GITHUB_TOKEN' },
      { provider: 'gemini', source: 'file', detail: store.file },
      { provider: 'openrouter', source: 'none' },
      { provider: 'anthropic', source: 'keyring' },
      { provider: 'openai', source: 'none' },
      { provider: 'brave', source: 'none' },
      { provider: 'tavily', source: 'none' },
    ]);
    expect(JSON.stringify(status)).not.toContain('CANARY');
  });
});

describe('system keyring', () => {
  it('is off with KEEL_KEYRING=off, and on Linux without a session bus', () => {
    expect(systemKeyring({ KEEL_KEYRING: 'off', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x' })).toBe(undefined);
    if (process.platform === 'linux') expect(systemKeyring({})).toBe(undefined);
  });
});

describe('credentials the redactors were not made with', () => {
  it('are redacted once read from the keyring or the file, by redactors made before they were read', async () => {
    const { createRedactor } = await import('../../src/safety/redact.js');
    const redact = createRedactor({});
    const keyringSecret = 'plainkeyringvalue-7c1d9e';
    const fileSecret = 'plainfilevalue-3b8a2f';
    const keyring = memoryKeyring();
    keyring.entries.set('gemini', keyringSecret);
    await new CredentialStore({ env, keyring: null }).store('openrouter', fileSecret);
    const line = `key ${keyringSecret} and ${fileSecret}`;
    // Neither has a token's shape: only knowing the value catches it.
    expect(redact(line)).toBe(line);
    const store = new CredentialStore({ env, keyring });
    expect((await store.lookup('gemini'))?.source).toBe('keyring');
    expect((await store.lookup('openrouter'))?.source).toBe('file');
    expect(redact(line)).toBe('key [REDACTED] and [REDACTED]');
  });
});
