// The starter file round-trips through the loader and is never clobbered; `config show` masks secrets.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { configLeaves } from '../../src/config/keys.js';
import { loadConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { configJson, formatConfig } from '../../src/config/show.js';
import { starterConfig, writeStarterConfig } from '../../src/config/starter.js';
import { ConfigError } from '../../src/core/errors.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'keel-starter-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('starter config', () => {
  test('lists every key with a comment', () => {
    const text = starterConfig();
    for (const leaf of configLeaves()) {
      const name = leaf.path.at(-1)!;
      expect(text, leaf.key).toMatch(new RegExp(`^ *(# )?${name}:.*  # \\S`, 'm'));
    }
  });

  test('loads cleanly and yields exactly the defaults, each sourced from the file', async () => {
    const file = join(root, 'xdg', 'keel', 'config.yaml');
    await writeStarterConfig(file, {});
    const loaded = await loadConfig({
      workspace: root,
      env: { XDG_CONFIG_HOME: join(root, 'xdg') },
      flags: {},
    });
    expect(loaded.files).toEqual([file]);
    expect(loaded.config).toEqual(configSchema.parse({}));
    expect(loaded.sources['agent.max_turns']).toMatch(new RegExp(`^user file ${file}:\\d+$`));
    // Keys without defaults stay commented out, so they remain unset.
    expect(loaded.sources['provider.openai-compatible.api_key']).toBe('default');
  });

  test('refuses to overwrite an existing file unless forced', async () => {
    const file = join(root, 'config.yaml');
    await writeFile(file, 'agent:\n  max_turns: 7\n');
    const error = await writeStarterConfig(file, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(`config file already exists: ${file}`);
    expect((error as ConfigError).hint).toContain('--force');
    expect(await readFile(file, 'utf8')).toBe('agent:\n  max_turns: 7\n');

    await writeStarterConfig(file, { force: true });
    expect(await readFile(file, 'utf8')).toBe(starterConfig());
  });
});

describe('formatConfig', () => {
  test('prints each value with its source and masks secrets', async () => {
    const secret = 'sk-do-not-print-me';
    await writeFile(join(root, '.keel.yaml'), 'agent:\n  max_turns: 9\n');
    const loaded = await loadConfig({
      workspace: root,
      env: { HOME: join(root, 'home'), OPENAI_API_KEY: secret },
      flags: { model: 'llama3' },
    });
    const text = formatConfig(loaded);
    expect(text).not.toContain(secret);
    expect(text).toMatch(/^ {4}api_key: \*{8} +# env OPENAI_API_KEY$/m);
    expect(text).toMatch(/^ {4}model: llama3 +# flag --model$/m);
    expect(text).toMatch(new RegExp(`^  max_turns: 9 +# project file ${join(root, '.keel.yaml')}:2$`, 'm'));
    expect(text).toMatch(/^ {4}cassette: \(not set\) +# default$/m);
    expect(text).toMatch(/^agent:$/m);
  });

  test('a mapping or a list is a YAML block under its key, the source on the key, other comments not pushed out', async () => {
    await mkdir(join(root, 'home', '.config', 'keel'), { recursive: true });
    await writeFile(
      join(root, 'home', '.config', 'keel', 'config.yaml'),
      'mcp:\n  servers:\n    slow:\n      command: node\n      args: [server.mjs]\n',
    );
    const loaded = await loadConfig({ workspace: root, env: { HOME: join(root, 'home') }, flags: {} });
    const text = formatConfig(loaded, 'mcp');
    const source = `# user file ${join(root, 'home', '.config', 'keel', 'config.yaml')}:2`;
    expect(text).toMatch(
      /^servers: + # user file .*:2\n {2}slow:\n {4}command: node\n {4}args:\n {6}- server\.mjs\n/m,
    );
    expect(text).toContain(source);
    expect(text).toMatch(/^startup_timeout_seconds: 10 {2}# default$/m);
    // What it shows reads back as the config it came from.
    const shown = parse(
      text
        .split('\n')
        .slice(1)
        .join('\n')
        .replace(/ {2}# .*$/gm, ''),
    );
    expect(shown.servers).toEqual(JSON.parse(JSON.stringify(loaded.config.mcp.servers)));
  });

  test('as JSON: every key with its value and source, secrets masked, unset keys null', async () => {
    const secret = 'sk-do-not-print-me';
    await writeFile(join(root, '.keel.yaml'), 'agent:\n  max_turns: 9\n');
    const loaded = await loadConfig({
      workspace: root,
      env: { HOME: join(root, 'home'), OPENAI_API_KEY: secret },
      flags: { model: 'llama3' },
    });
    const data = configJson(loaded);
    expect(JSON.stringify(data)).not.toContain(secret);
    expect(data.files).toEqual([join(root, '.keel.yaml')]);
    expect(data.values['agent.max_turns']).toEqual({
      value: 9,
      source: `project file ${join(root, '.keel.yaml')}:2`,
    });
    expect(data.values['provider.openai-compatible.api_key']).toEqual({
      value: '********',
      source: 'env OPENAI_API_KEY',
    });
    expect(data.values['provider.replay.cassette']).toEqual({ value: null, source: 'default' });
    expect(Object.keys(data.values)).toHaveLength(configLeaves().length);
  });

  test('a secret from a file is masked too', async () => {
    // The user file: a project file may set an API key only in a trusted folder (test/config/trust.test.ts).
    await mkdir(join(root, 'home', '.config', 'keel'), { recursive: true });
    await writeFile(
      join(root, 'home', '.config', 'keel', 'config.yaml'),
      'provider:\n  openai-compatible:\n    api_key: file-secret\n',
    );
    const loaded = await loadConfig({ workspace: root, env: { HOME: join(root, 'home') }, flags: {} });
    expect(loaded.config.provider['openai-compatible'].api_key).toBe('file-secret');
    expect(formatConfig(loaded)).not.toContain('file-secret');
  });

  test("an MCP server's token in env and Authorization header are masked, as text and as JSON; a variable's reference stays", async () => {
    const reference = `\${MY_KEY}`;
    await mkdir(join(root, 'home', '.config', 'keel'), { recursive: true });
    await writeFile(
      join(root, 'home', '.config', 'keel', 'config.yaml'),
      [
        'mcp:',
        '  servers:',
        '    gh:',
        '      command: npx',
        '      env:',
        '        GITHUB_TOKEN: ghp_abcdefghijklmnopqrstuvwxyz0123',
        `        API_KEY: ${reference}`,
        '        LOG_LEVEL: debug',
        '    web:',
        '      url: https://x.example/mcp',
        '      headers:',
        '        Authorization: Bearer sk-abcdefghijklmnopqrstuv',
        '',
      ].join('\n'),
    );
    const loaded = await loadConfig({ workspace: root, env: { HOME: join(root, 'home') }, flags: {} });
    for (const shown of [
      formatConfig(loaded),
      formatConfig(loaded, 'mcp'),
      JSON.stringify(configJson(loaded)),
    ]) {
      expect(shown).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123');
      expect(shown).not.toContain('sk-abcdefghijklmnopqrstuv');
      expect(shown).toContain(reference);
      expect(shown).toContain('debug');
    }
    expect(formatConfig(loaded, 'mcp')).toMatch(/GITHUB_TOKEN: "?\*{8}"?/);
  });
});
