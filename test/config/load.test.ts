// Config loading: precedence of the layers, the sources they report, env normalisation and errors with file + line.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { setPath } from '../../src/config/defaults.js';
import { computeConfigDefaults, configLeaves } from '../../src/config/keys.js';
import { loadConfig } from '../../src/config/load.js';
import { normaliseOllamaHost } from '../../src/config/overrides.js';
import { projectConfigPath, userConfigPath } from '../../src/config/paths.js';
import { configSchema } from '../../src/config/schema.js';
import { ConfigError } from '../../src/core/errors.js';

let root: string;
let home: string;
let workspace: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'keel-config-'));
  home = join(root, 'home');
  workspace = join(root, 'work');
  await mkdir(workspace, { recursive: true });
  env = { HOME: home };
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeUser(text: string): Promise<string> {
  const file = userConfigPath(env);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
  return file;
}

async function writeProject(text: string): Promise<string> {
  const file = projectConfigPath(workspace);
  await writeFile(file, text);
  return file;
}

async function loadError(options: Partial<Parameters<typeof loadConfig>[0]> = {}): Promise<ConfigError> {
  const error = await loadConfig({ workspace, env, flags: {}, ...options }).catch(
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('paths', () => {
  test('user config lives under XDG_CONFIG_HOME when set, else ~/.config', () => {
    expect(userConfigPath({ XDG_CONFIG_HOME: '/xdg', HOME: '/h' })).toBe('/xdg/keel/config.yaml');
    expect(userConfigPath({ HOME: '/h' })).toBe('/h/.config/keel/config.yaml');
    expect(userConfigPath({ XDG_CONFIG_HOME: 'relative', HOME: '/h' })).toBe('/h/.config/keel/config.yaml');
    expect(projectConfigPath('/w')).toBe('/w/.keel.yaml');
  });
});

describe('precedence', () => {
  test('with no files every key is its default and says so', async () => {
    const loaded = await loadConfig({ workspace, env, flags: {} });
    expect(loaded.config.provider.type).toBe('ollama');
    expect(loaded.config.agent.max_turns).toBe(100);
    expect(loaded.files).toEqual([]);
    expect(Object.values(loaded.sources).every((source) => source === 'default')).toBe(true);
    expect(loaded.sources['provider.openai-compatible.api_key']).toBe('default');
    expect(Object.keys(loaded.sources)).toContain('agent.terminal.max_stderr_bytes');
  });

  test('the defaults survive the JSON the build writes them into the bundle as', () => {
    const defaults = computeConfigDefaults();
    expect(JSON.parse(JSON.stringify(defaults))).toStrictEqual(defaults);
  });

  test('with no files, variables and flags make the config the whole schema parses', async () => {
    env.OLLAMA_HOST = 'box:1234';
    env.KEEL_MODEL = 'env-model';
    env.OPENAI_API_KEY = 'sk-x';
    const loaded = await loadConfig({
      workspace,
      env,
      flags: { provider: 'ollama', baseUrl: 'http://flag:1/v1', maxTurns: 7 },
    });
    const raw: Record<string, unknown> = {};
    for (const leaf of configLeaves())
      if (leaf.defaultValue !== undefined) setPath(raw, leaf.path, leaf.defaultValue);
    setPath(raw, ['provider', 'ollama', 'model'], 'env-model');
    setPath(raw, ['provider', 'ollama', 'base_url'], 'http://flag:1/v1');
    setPath(raw, ['provider', 'openai-compatible', 'api_key'], 'sk-x');
    setPath(raw, ['agent', 'max_turns'], 7);
    expect(loaded.config).toStrictEqual(configSchema.parse(raw));
  });

  test('each layer overrides the one below and reports itself as the source', async () => {
    const userFile = await writeUser(
      'agent:\n  max_turns: 10\n  timeout_seconds: 11\n  conversation:\n    max_tokens: 12\n',
    );
    const projectFile = await writeProject('agent:\n  max_turns: 20\n  timeout_seconds: 21\n');
    env.KEEL_MODEL = 'env-model';
    env.OLLAMA_MODEL = 'ollama-env-model';

    const fromFiles = await loadConfig({ workspace, env: { HOME: home }, flags: {} });
    expect(fromFiles.config.agent.max_turns).toBe(20);
    expect(fromFiles.sources['agent.max_turns']).toBe(`project file ${projectFile}:2`);
    expect(fromFiles.config.agent.conversation.max_tokens).toBe(12);
    expect(fromFiles.sources['agent.conversation.max_tokens']).toBe(`user file ${userFile}:5`);
    expect(fromFiles.files).toEqual([userFile, projectFile]);

    const withFlags = await loadConfig({ workspace, env, flags: { maxTurns: 30, model: 'flag-model' } });
    expect(withFlags.config.agent.max_turns).toBe(30);
    expect(withFlags.sources['agent.max_turns']).toBe('flag --max-turns');
    expect(withFlags.config.agent.timeout_seconds).toBe(21);
    expect(withFlags.config.provider.ollama.model).toBe('flag-model');
    expect(withFlags.sources['provider.ollama.model']).toBe('flag --model');

    const withEnv = await loadConfig({ workspace, env, flags: {} });
    expect(withEnv.config.provider.ollama.model).toBe('env-model');
    expect(withEnv.sources['provider.ollama.model']).toBe('env KEEL_MODEL');
  });

  test('env overrides the project file; flags override env', async () => {
    await writeProject('provider:\n  type: ollama\n');
    env.KEEL_PROVIDER = 'openai-compatible';
    const fromEnv = await loadConfig({ workspace, env, flags: {} });
    expect(fromEnv.config.provider.type).toBe('openai-compatible');
    expect(fromEnv.sources['provider.type']).toBe('env KEEL_PROVIDER');

    const fromFlag = await loadConfig({ workspace, env, flags: { provider: 'replay', cassette: 'c.json' } });
    expect(fromFlag.config.provider.type).toBe('replay');
    expect(fromFlag.sources['provider.type']).toBe('flag --provider');
    expect(fromFlag.config.provider.replay.cassette).toBe('c.json');
    expect(fromFlag.sources['provider.replay.cassette']).toBe('flag --cassette');
  });

  test('--cassette alone chooses replay; with another --provider it is a config error naming the fix', async () => {
    env.KEEL_PROVIDER = 'ollama';
    const loaded = await loadConfig({ workspace, env, flags: { cassette: 'c.json' } });
    expect(loaded.config.provider.type).toBe('replay');
    expect(loaded.sources['provider.type']).toBe('flag --cassette');
    expect(loaded.config.provider.replay.cassette).toBe('c.json');
    const error = await loadError({ flags: { provider: 'ollama', cassette: 'c.json' } });
    expect(error.message).toBe('--cassette is for --provider replay, not ollama');
    expect(error.hint).toBe(
      'drop --provider ollama to replay the cassette, or drop --cassette (--record <file> records a run)',
    );
  });

  test('--config replaces the user file', async () => {
    await writeUser('agent:\n  max_turns: 10\n  timeout_seconds: 11\n');
    const custom = join(root, 'custom.yaml');
    await writeFile(custom, '# custom\nagent:\n  max_turns: 42\n');
    const loaded = await loadConfig({ workspace, env, flags: {}, configFile: custom });
    expect(loaded.config.agent.max_turns).toBe(42);
    expect(loaded.sources['agent.max_turns']).toBe(`config file ${custom}:3`);
    expect(loaded.config.agent.timeout_seconds).toBe(600);
    expect(loaded.files).toEqual([custom]);
  });

  test('a missing --config file is an error naming it', async () => {
    const missing = join(root, 'nope.yaml');
    const error = await loadError({ configFile: missing });
    expect(error.message).toBe(`config file not found: ${missing}`);
    expect(error.exitCode).toBe(2);
  });

  test('empty and comment-only files count as empty config', async () => {
    const userFile = await writeUser('');
    const projectFile = await writeProject('# nothing yet\n');
    const loaded = await loadConfig({ workspace, env, flags: {} });
    expect(loaded.files).toEqual([userFile, projectFile]);
    expect(loaded.config.agent.max_turns).toBe(100);
  });
});

describe('environment', () => {
  test.each([
    ['localhost:11434', 'http://localhost:11434'],
    ['gpu-box', 'http://gpu-box:11434'],
    ['0.0.0.0:8080', 'http://0.0.0.0:8080'],
    ['https://ollama.example.com/', 'https://ollama.example.com'],
  ])('OLLAMA_HOST=%s becomes %s', (value, expected) => {
    expect(normaliseOllamaHost(value)).toBe(expected);
  });

  test('OLLAMA_HOST sets the ollama base_url', async () => {
    env.OLLAMA_HOST = 'localhost:9999';
    const loaded = await loadConfig({ workspace, env, flags: {} });
    expect(loaded.config.provider.ollama.base_url).toBe('http://localhost:9999');
    expect(loaded.sources['provider.ollama.base_url']).toBe('env OLLAMA_HOST');
  });

  test('KEEL_MODEL and --base-url apply to the provider finally selected', async () => {
    await writeProject('provider:\n  type: ollama\n');
    env.KEEL_MODEL = 'gpt-4.1';
    const loaded = await loadConfig({
      workspace,
      env,
      flags: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:8000/v1' },
    });
    expect(loaded.config.provider['openai-compatible'].model).toBe('gpt-4.1');
    expect(loaded.config.provider['openai-compatible'].base_url).toBe('http://127.0.0.1:8000/v1');
    expect(loaded.sources['provider.openai-compatible.base_url']).toBe('flag --base-url');
    expect(loaded.config.provider.ollama.model).toBe('qwen3');
  });

  test('OPENAI_* variables set the openai-compatible provider', async () => {
    env.OPENAI_BASE_URL = 'http://127.0.0.1:1/v1';
    env.OPENAI_API_KEY = 'sk-secret';
    const loaded = await loadConfig({ workspace, env, flags: {} });
    expect(loaded.config.provider['openai-compatible']).toMatchObject({
      base_url: 'http://127.0.0.1:1/v1',
      api_key: 'sk-secret',
    });
    expect(loaded.sources['provider.openai-compatible.api_key']).toBe('env OPENAI_API_KEY');
  });

  test('an unknown provider in KEEL_PROVIDER names the variable and lists the valid ones', async () => {
    env.KEEL_PROVIDER = 'foo';
    const error = await loadError();
    expect(error.message).toContain('KEEL_PROVIDER');
    expect(error.message).toContain('"foo"');
    expect(error.hint).toBe(
      'valid providers: ollama, openai-compatible, copilot, gemini, openrouter, anthropic, openai, replay',
    );
  });

  test('an unknown provider from --provider or a file lists the valid ones', async () => {
    const fromFlag = await loadError({ flags: { provider: 'gemeni' } });
    expect(fromFlag.message).toBe('unknown provider "gemeni" in --provider');
    expect(fromFlag.hint).toContain('openai-compatible');

    const file = await writeProject('provider:\n  type: gemeni\n');
    const fromFile = await loadError();
    expect(fromFile.message).toBe(
      `\`provider.type\` in ${file} line 2 must be one of: ollama, openai-compatible, copilot, gemini, openrouter, anthropic, openai, replay, got "gemeni"`,
    );
  });

  test('KEEL_MODEL is ignored when the selected provider has no model (replay)', async () => {
    env.KEEL_MODEL = 'qwen3';
    const loaded = await loadConfig({ workspace, env, flags: { provider: 'replay' } });
    expect(loaded.config.provider.type).toBe('replay');
    expect(loaded.sources['provider.ollama.model']).toBe('default');
  });

  test('an unusable OLLAMA_HOST names the variable', async () => {
    env.OLLAMA_HOST = 'http://bad host';
    const error = await loadError();
    expect(error.message).toBe('OLLAMA_HOST is not a valid address: "http://bad host"');
  });

  test('a bad --max-turns names the flag', async () => {
    const error = await loadError({ flags: { maxTurns: 0 } });
    expect(error.message).toBe('`--max-turns` must be a positive integer, got 0');
  });

  test('a --base-url that is not an http(s) URL names the flag, for every provider', async () => {
    for (const provider of ['ollama', 'openai-compatible', 'copilot', 'gemini', 'anthropic', 'openai']) {
      const error = await loadError({ flags: { provider, baseUrl: 'localhost:8080' } });
      expect(error.exitCode).toBe(2);
      expect(error.message).toBe('`--base-url` must be an http(s) URL, got "localhost:8080"');
    }
    const ftp = await loadError({ flags: { provider: 'openrouter', baseUrl: 'ftp://example.com' } });
    expect(ftp.message).toContain('`--base-url` must be an http(s) URL');
  });

  test('--model with the replay provider is refused', async () => {
    const error = await loadError({ flags: { provider: 'replay', model: 'x' } });
    expect(error.message).toBe('--model does not apply to the replay provider');
  });
});

describe('file errors name the file and line', () => {
  test('unknown key, with the valid keys at that level as the hint', async () => {
    const file = await writeProject('# project\nagent:\n  max_turns: 5\n  foo: 1\n');
    const error = await loadError();
    expect(error.message).toBe(`unknown key \`agent.foo\` in ${file} line 4`);
    expect(error.hint).toBe(
      'valid keys under `agent`: max_turns, max_parallel_tasks, timeout_seconds, max_tool_argument_kb, conversation, tools, terminal',
    );
  });

  test('unknown top-level key', async () => {
    const file = await writeUser('agnet:\n  max_turns: 5\n');
    const error = await loadError();
    expect(error.message).toBe(`unknown key \`agnet\` in ${file} line 1`);
    expect(error.hint).toBe(
      'valid top-level keys: provider, agent, safety, checkpoints, git, code, mcp, web, tools, hooks',
    );
  });

  test('wrong type', async () => {
    const file = await writeProject('agent:\n  max_turns: ten\n');
    const error = await loadError();
    expect(error.message).toBe(`\`agent.max_turns\` in ${file} line 2 must be a positive integer, got "ten"`);
    expect(error.hint).toContain('default (100)');
  });

  test('a base URL in a file must be an http(s) URL, named by key and line', async () => {
    const file = await writeUser('provider:\n  gemini:\n    base_url: generativelanguage\n');
    const error = await loadError();
    expect(error.message).toBe(
      `\`provider.gemini.base_url\` in ${file} line 3 must be an http(s) URL, got "generativelanguage"`,
    );
  });

  test('a group given a scalar must be a mapping', async () => {
    const file = await writeProject('agent:\n  conversation: 5\n');
    const error = await loadError();
    expect(error.message).toBe(`\`agent.conversation\` in ${file} line 2 must be a mapping, got 5`);
  });

  test("a key in an item of a list (a hook) is named with what it must be, and its list item's valid keys", async () => {
    const file = await writeUser('hooks:\n  pre_tool:\n    - command: echo hi\n      timeout_seconds: -1\n');
    const error = await loadError();
    expect(error.message).toBe(
      `\`hooks.pre_tool.0.timeout_seconds\` in ${file} line 4 must be a positive integer, got -1`,
    );
    expect(error.hint).toBe('set `hooks.pre_tool.0.timeout_seconds` to a positive integer');
    await writeUser('hooks:\n  stop:\n    - match: x\n');
    expect((await loadError()).message).toContain('`hooks.stop.0.command` in');
    expect((await loadError()).message).toMatch(/must be a non-empty string, got nothing$/);
    await writeUser('hooks:\n  stop:\n    - command: x\n      timeout: 5\n');
    expect((await loadError()).hint).toBe('valid keys under `hooks.stop.0`: match, command, timeout_seconds');
  });

  test('a wrong-typed secret is not echoed', async () => {
    await writeProject('provider:\n  openai-compatible:\n    api_key: 123456789\n');
    const error = await loadError();
    expect(error.message).toContain('got a number');
    expect(error.message).not.toContain('123456789');
  });

  test('the earliest problem in the file is reported', async () => {
    const file = await writeProject('agent:\n  timeout_seconds: -1\n  max_turns: ten\n');
    const error = await loadError();
    expect(error.message).toBe(
      `\`agent.timeout_seconds\` in ${file} line 2 must be a positive integer, got -1`,
    );
  });

  test('YAML syntax error', async () => {
    const file = await writeUser('agent:\n  max_turns: 5\n\ttimeout_seconds: 1\n');
    const error = await loadError();
    expect(error.message).toBe(
      `YAML syntax error in ${file} line 3, column 1: Tabs are not allowed as indentation`,
    );
    expect(error.hint).toBeTruthy();
  });

  test('duplicate keys are a syntax error', async () => {
    const file = await writeProject('agent:\n  max_turns: 5\n  max_turns: 6\n');
    const error = await loadError();
    expect(error.message).toMatch(new RegExp(`^YAML syntax error in ${file} line 3`));
  });

  test('a top level that is not a mapping', async () => {
    const file = await writeProject('- agent\n- provider\n');
    const error = await loadError();
    expect(error.message).toBe(`${file} line 1: a config file must be a mapping of keys, like \`agent:\``);
  });
});
