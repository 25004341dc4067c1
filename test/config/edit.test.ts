// Config edits keep the file's comments and other keys, and refuse unknown keys and bad values before writing.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setConfigValues } from '../../src/config/edit.js';
import { nearKeys } from '../../src/config/keys.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keel-config-edit-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('setConfigValues', () => {
  it('sets nested keys, keeping comments and the other keys', async () => {
    const file = join(dir, 'kept.yaml');
    await writeFile(file, '# my settings\nagent:\n  max_turns: 50 # enough\n');
    await setConfigValues(file, { 'provider.type': 'ollama', 'provider.ollama.model': 'llama3.1:8b' });
    const text = await readFile(file, 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('max_turns: 50 # enough');
    expect(text).toMatch(/provider:\n {2}type: ollama\n {2}ollama:\n {4}model: llama3.1:8b/);
  });

  it('creates a missing file', async () => {
    const file = join(dir, 'new', 'config.yaml');
    await setConfigValues(file, { 'provider.type': 'openai' });
    expect(await readFile(file, 'utf8')).toBe('provider:\n  type: openai\n');
  });

  it.each([
    ['an unknown key', { 'provider.kind': 'openai' }, /unknown config key `provider.kind`/],
    ['a value of the wrong kind', { 'provider.type': 'nosuch' }, /`provider.type` must be/],
  ])('refuses %s without writing', async (_name, values, message) => {
    const file = join(dir, 'refused.yaml');
    await expect(setConfigValues(file, values)).rejects.toThrow(message);
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('setConfigValues inside a named entry (mcp.servers.<name>)', () => {
  const server = 'mcp:\n  servers:\n    fs:\n      command: npx # mine\n';

  it("sets a server's own keys, a list too, where the file has the server", async () => {
    const file = join(dir, 'server.yaml');
    await writeFile(file, server);
    await setConfigValues(file, {
      'mcp.servers.fs.startup_timeout_seconds': 20,
      'mcp.servers.fs.enabled': false,
      'mcp.servers.fs.tools.allow': ['read_*'],
    });
    expect(await readFile(file, 'utf8')).toBe(
      'mcp:\n  servers:\n    fs:\n      command: npx # mine\n      startup_timeout_seconds: 20\n' +
        '      enabled: false\n      tools:\n        allow:\n          - read_*\n',
    );
  });

  it.each([
    [
      'a server the file does not have',
      { 'mcp.servers.api.enabled': false },
      /has no `mcp.servers.api` to set `enabled` in/,
    ],
    [
      'a value of the wrong kind',
      { 'mcp.servers.fs.timeout_seconds': 0 },
      /`mcp.servers.fs.timeout_seconds` must be a positive integer/,
    ],
    [
      'a key servers do not have',
      { 'mcp.servers.fs.timeout': 5 },
      /unknown config key `mcp.servers.fs.timeout`/,
    ],
    ['a mapping (env) given as text', { 'mcp.servers.fs.env': 'X=1' }, /cannot set `mcp.servers.fs.env`/],
    [
      'a whole server without command or url',
      { 'mcp.servers.api': { args: ['x'] } },
      /cannot set `mcp.servers.api`: give either `command` \(stdio\) or `url`/,
    ],
    [
      'a whole server with a bad value inside',
      { 'mcp.servers.api': { command: 'x', timeout_seconds: 0 } },
      /`mcp.servers.api.timeout_seconds` must be a positive integer, got 0/,
    ],
  ])('refuses %s without writing', async (_name, values, message) => {
    const file = join(dir, 'server-refused.yaml');
    await writeFile(file, server);
    await expect(setConfigValues(file, values)).rejects.toThrow(message);
    expect(await readFile(file, 'utf8')).toBe(server);
  });
});

describe('setConfigValues under a named entry: its mappings and the entry itself', () => {
  it("sets a key of a server's env, and a whole new server", async () => {
    const file = join(dir, 'deeper.yaml');
    await writeFile(file, 'mcp:\n  servers:\n    fs:\n      command: npx # mine\n');
    await setConfigValues(file, {
      'mcp.servers.fs.env.ROOT': '/data',
      'mcp.servers.api': { url: 'https://mcp.example.com/mcp' },
    });
    expect(await readFile(file, 'utf8')).toBe(
      'mcp:\n  servers:\n    fs:\n      command: npx # mine\n      env:\n        ROOT: /data\n' +
        '    api:\n      url: https://mcp.example.com/mcp\n',
    );
  });

  it('names the keys a server has when one is unknown', async () => {
    const file = join(dir, 'deeper-refused.yaml');
    await writeFile(file, 'mcp:\n  servers:\n    fs:\n      command: npx\n');
    const refused = setConfigValues(file, { 'mcp.servers.fs.colour': 'red' });
    await expect(refused).rejects.toMatchObject({
      message: 'unknown config key `mcp.servers.fs.colour`',
      hint: expect.stringMatching(/^the keys of mcp\.servers\.fs are command, args, env, /),
    });
  });
});

describe('nearKeys', () => {
  it.each([
    ['checkpoint.max_file_mb', ['checkpoints.max_file_mb']], // a letter short
    ['mcp.startup_timout_seconds', ['mcp.startup_timeout_seconds']],
    ['chekpoints', ['checkpoints']], // a group
    ['max_file_mb', ['checkpoints.max_file_mb']], // the end of a key
    ['provider.ollama', ['provider.ollama.model', 'provider.ollama.base_url', 'provider.ollama.api_key']],
    ['nothing.like.it', []],
  ])('%s → %j', (key, expected) => {
    const near = nearKeys(key);
    for (const k of expected) expect(near).toContain(k);
    if (expected.length === 0) expect(near).toEqual([]);
  });
});
