// The chat's /model checks before it switches: a model name the provider's list lacks is refused with the closest
// ones, a list that cannot be had leaves the name unchecked and says so, and a provider with no API key asks for
// one at the terminal (hidden, stored as keel auth login stores it) or, piped, names the command. Piped chats run
// in process; the key's prompt needs the built binary in a real terminal (tmux).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';
import type { ModelServer } from '../support/model-server.js';
import { hasTmux, startTerminal } from '../support/tmux.js';

const { server, workspace, track } = useE2E();

const ollamaModels = [{ name: 'qwen3:latest' }, { name: 'gemma3:4b' }];

/** A port nothing listens on: a server's, closed. */
async function deadUrl(): Promise<string> {
  const s = await server([]);
  await s.close();
  return s.ollamaUrl;
}

describe('/model in a piped chat', () => {
  it('refuses a name Ollama does not list, offering the closest, and switches to one it lists', async () => {
    const s = await server({ script: [{ text: 'from qwen3' }, { text: 'from gemma3' }], ollamaModels });
    const ws = await workspace();
    const r = await runCli(['chat', '--base-url', s.ollamaUrl, '--model', 'qwen3', '--cwd', ws], {
      input: '/model gemma3:2b\nfirst\n/model gemma3:4b\nsecond\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'ollama has no model gemma3:2b; did you mean gemma3:4b? (/model lists them); the chat stays on ollama/qwen3',
    );
    expect(r.stderr).toContain('model: ollama/gemma3:4b\n');
    const chats = s.requests.filter((request) => request.path === '/api/chat');
    expect(chats.map((request) => request.body.model)).toEqual(['qwen3', 'gemma3:4b']);
  });

  it('switches to a name an OpenAI-compatible server does not list, saying so: some servers answer any name', async () => {
    const s = await server({ script: [{ text: 'from the server' }] });
    const ws = await workspace();
    const r = await runCli(
      [
        'chat',
        '--provider',
        'openai-compatible',
        '--base-url',
        s.openaiUrl,
        '--model',
        'gpt-4o-mini',
        '--cwd',
        ws,
      ],
      { input: '/model gpt-4o-mimi\nhello\n' },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'model: openai-compatible/gpt-4o-mimi (openai-compatible does not list gpt-4o-mimi; did you mean gpt-4o-mini? — switched anyway)',
    );
    expect(s.requests.filter((q) => q.path === '/v1/chat/completions').map((q) => q.body.model)).toEqual([
      'gpt-4o-mimi',
    ]);
  });

  it('switches unchecked when the list cannot be had, and says why', async () => {
    const s = await server([]);
    const ws = await workspace();
    const r = await runCli(
      [
        'chat',
        '--provider',
        'openai-compatible',
        '--base-url',
        s.openaiUrl,
        '--model',
        'gpt-4o-mini',
        '--cwd',
        ws,
      ],
      { input: '/model ollama/qwen3\n', env: { OLLAMA_HOST: await deadUrl() } },
    );
    expect(r.stderr).toMatch(
      /model: ollama\/qwen3 \(the name is not checked: cannot reach Ollama at http:\/\/127\.0\.0\.1:\d+/,
    );
  });

  it('without an API key for the provider, names keel auth login and stays on the current model', async () => {
    const s = await server({ script: [{ text: 'still ollama' }], ollamaModels });
    const ws = await workspace();
    const r = await runCli(['chat', '--base-url', s.ollamaUrl, '--model', 'qwen3', '--cwd', ws], {
      input: '/model openai/gpt-4o\nhello\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'no API key for openai: run keel auth login openai (or set OPENAI_API_KEY), then /model openai/gpt-4o again; the chat stays on ollama/qwen3',
    );
    expect(r.stderr).not.toMatch(/^error:/m);
    expect(r.stdout).toContain('still ollama');
  });
});

/** A user config choosing Ollama at `s`, with OpenAI's API at `s` too; its directory is XDG_CONFIG_HOME. */
async function userConfig(s: ModelServer): Promise<string> {
  const config = await mkdtemp(join(tmpdir(), 'keel-model-config-'));
  track(() => rm(config, { recursive: true, force: true }));
  await mkdir(join(config, 'keel'));
  await writeFile(
    join(config, 'keel', 'config.yaml'),
    `provider:\n  type: ollama\n  ollama:\n    base_url: ${s.ollamaUrl}\n    model: qwen3\n  openai:\n    base_url: ${s.openaiUrl}\n`,
  );
  return config;
}

describe.skipIf(!hasTmux())('/model at a terminal', () => {
  it('asks for a missing API key unseen, stores it as keel auth login does, and switches; the key is never a message', async () => {
    const s = await server({ script: [{ text: 'hello from openai' }], ollamaModels });
    const ws = await workspace();
    const config = await userConfig(s);
    const term = await startTerminal(['--cwd', ws], { cwd: ws, env: { XDG_CONFIG_HOME: config } });
    track(term.close);
    await term.waitFor('› ');
    await term.type('/model openai/gpt-4o');
    await term.keys('Enter');
    await term.waitFor('API key for openai (OPENAI_API_KEY):');
    await term.type('sk-typed-at-model');
    await term.keys('Enter');
    await term.waitFor('model: openai/gpt-4o');
    await term.type('hi');
    await term.keys('Enter');
    const shown = await term.waitFor('hello from openai');
    expect(shown).toContain(
      'No API key for openai yet: paste one to store it as keel auth login openai does',
    );
    expect(shown).not.toContain('sk-typed-at-model');
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.headers.authorization).toBe('Bearer sk-typed-at-model');
    expect(s.requests[0]!.rawBody).not.toContain('sk-typed-at-model');
    expect(await readFile(join(config, 'keel', 'credentials.yaml'), 'utf8')).toContain('sk-typed-at-model');
  });

  it('stays on the current model when the key prompt is left with Ctrl-C', async () => {
    const s = await server({ script: [{ text: 'still ollama' }], ollamaModels });
    const ws = await workspace();
    const term = await startTerminal(['--cwd', ws], {
      cwd: ws,
      env: { XDG_CONFIG_HOME: await userConfig(s) },
    });
    track(term.close);
    await term.waitFor('› ');
    await term.type('/model openai/gpt-4o');
    await term.keys('Enter');
    await term.waitFor('API key for openai (OPENAI_API_KEY):');
    await term.keys('C-c');
    await term.waitFor('no key stored; the chat stays on ollama/qwen3');
    await term.type('hi');
    await term.keys('Enter');
    await term.waitFor('still ollama');
    expect(s.requests.map((request) => request.path)).toContain('/api/chat');
  });
});
