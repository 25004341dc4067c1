// A first run that sets itself up: no provider chosen, an Ollama on this machine is used and saved; with none, the
// user picks a provider, types its key unseen, and the chat goes on (the built binary in tmux); headless, the error
// names the command (the command line in process, test/support/cli-in-process.ts).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';
import { hasTmux, startTerminal } from '../support/tmux.js';

const { server, workspace, track } = useE2E();

/** A port nothing listens on: a server's, closed. */
async function deadUrl(): Promise<string> {
  const s = await server([]);
  await s.close();
  return s.ollamaUrl;
}

describe('first run without a provider', () => {
  it('headless, it stops with exit 3 and names the commands that set one up', async () => {
    const r = await runCli(['-p', 'hi', '--cwd', await workspace()], {
      env: { OLLAMA_HOST: await deadUrl() },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no provider is configured, and no Ollama answers at http:\/\/127\.0\.0\.1:\d+/);
    expect(r.stderr).toContain('keel auth login openai && keel config set provider.type openai');
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('a session that --resume or --continue cannot find is reported first, as a usage error (exit 2)', async () => {
    const ollama = await deadUrl();
    for (const [args, message] of [
      [['run', '--resume', 'nosuch', '-p', 'hi'], 'no session "nosuch" in this workspace'],
      [['chat', '--resume', 'nosuch'], 'no session "nosuch" in this workspace'],
      [['run', '--continue', '-p', 'hi'], 'no session to continue in this workspace'],
      [['chat', '--continue'], 'no session to continue in this workspace'],
    ] as const) {
      const r = await runCli([...args, '--cwd', await workspace()], { env: { OLLAMA_HOST: ollama } });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(message);
      expect(r.stderr, args.join(' ')).not.toContain('no provider is configured');
    }
  });

  it('headless, a provider only an untrusted .keel.yaml chose is named as ignored, with how to trust the folder', async () => {
    const ws = await workspace({ '.keel.yaml': 'provider:\n  type: anthropic\n' });
    const r = await runCli(['-p', 'hi', '--cwd', ws], { env: { OLLAMA_HOST: await deadUrl() } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      `warning: ignored provider.type from ${join(ws, '.keel.yaml')}: this folder is not trusted`,
    );
    expect(r.stderr).toContain(`keel trust --cwd ${ws}`);
    expect(r.stderr).toMatch(/error: no provider is configured/);
  });
});

describe.skipIf(!hasTmux())('first run in a terminal', () => {
  it('uses the Ollama it finds, with a model it has, saves the choice and goes on into the chat; the meter counts what was sent', async () => {
    const s = await server({
      ollamaModels: [
        { name: 'nomic-embed-text:latest' },
        {
          name: 'llama3.1:8b',
          architecture: 'llama',
          contextLength: 8192,
          capabilities: ['completion', 'tools'],
        },
      ],
      // The provider counted 4,000 tokens sent (system prompt and tools included) of the model's 8k window.
      script: [{ text: 'hello from llama', usage: { input: 4000, output: 5 } }],
    });
    const ws = await workspace();
    const term = await startTerminal(['hi there', '--cwd', ws], {
      cwd: ws,
      env: { OLLAMA_HOST: s.ollamaUrl },
    });
    track(term.close);
    const shown = await term.waitFor((screen) => /context (\S+) of/.test(screen));
    expect(shown).toContain('hello from llama');
    expect(Number(/context (\d+)% of/.exec(shown)?.[1])).toBeGreaterThanOrEqual(40);
    expect(await term.screen()).toContain(`Found Ollama at ${s.ollamaUrl}: using llama3.1:8b`);
    expect((s.requests[0]!.body as { model: string }).model).toBe('llama3.1:8b');
    const saved = await readFile(join(term.home, '.config', 'keel', 'config.yaml'), 'utf8');
    expect(saved).toMatch(/provider:\n {2}type: ollama\n {2}ollama:\n {4}model: llama3.1:8b/);
  });

  it('with no Ollama, lists the providers, takes the key unseen, stores it and goes on with it', async () => {
    const s = await server([{ text: 'hello from openai' }]);
    const ws = await workspace();
    const config = await mkdtemp(join(tmpdir(), 'keel-first-config-'));
    track(() => rm(config, { recursive: true, force: true }));
    const file = join(config, 'keel', 'config.yaml');
    await mkdir(join(config, 'keel'));
    // The API's address is the user's (no network in tests); the provider is not chosen yet.
    await writeFile(file, `# mine\nprovider:\n  openai:\n    base_url: ${s.openaiUrl}\n`);
    const term = await startTerminal(['--cwd', ws], {
      cwd: ws,
      env: { OLLAMA_HOST: await deadUrl(), XDG_CONFIG_HOME: config },
    });
    track(term.close);
    await term.waitFor('choose 1-6');
    expect(await term.screen()).toMatch(/No provider is set up yet \(no Ollama answers at .*\)/);
    await term.type('3');
    await term.keys('Enter');
    await term.waitFor('API key for openai');
    await term.type('sk-typed-unseen');
    await term.keys('Enter');
    await term.waitFor('› ');
    expect(await term.screen()).not.toContain('sk-typed-unseen');
    await term.type('hello');
    await term.keys('Enter');
    const shown = await term.waitFor('hello from openai');
    if (process.env.SHOW_SCREEN) console.log(shown);
    expect(s.requests[0]!.headers.authorization).toBe('Bearer sk-typed-unseen');
    const saved = await readFile(file, 'utf8');
    expect(saved).toContain('# mine');
    expect(saved).toMatch(/type: openai/);
    expect(saved).not.toContain('sk-typed-unseen');
  });

  it('with a provider chosen but no key anywhere, takes the key unseen (not a word typed before it asked, not one with a space) and goes on with it', async () => {
    const s = await server([{ text: 'hello with a key' }]);
    const ws = await workspace();
    const config = await mkdtemp(join(tmpdir(), 'keel-first-config-'));
    track(() => rm(config, { recursive: true, force: true }));
    await mkdir(join(config, 'keel'));
    await writeFile(
      join(config, 'keel', 'config.yaml'),
      `provider:\n  type: openai\n  openai:\n    base_url: ${s.openaiUrl}\n`,
    );
    const term = await startTerminal(['--cwd', ws], {
      cwd: ws,
      env: { XDG_CONFIG_HOME: config },
      held: true,
    });
    track(term.close);
    // A word typed before Keel asks (here before it starts, waiting in the terminal): not the key, though it could be one.
    await term.type('typed-ahead');
    await term.keys('Enter');
    await term.release();
    // The hidden prompt itself (the notice before it names the provider too).
    await term.waitFor('API key for openai (OPENAI_API_KEY):');
    // Wider than the terminal's 100 columns, the notice wraps at a space (the screen is read with wrapped rows joined).
    expect(await term.screen()).toMatch(/^No API key for openai yet: .{40,99}\n\S.* Ctrl-C stops\)$/m);
    await term.type('sk later unseen');
    await term.keys('Enter');
    await term.waitFor('that is not an API key: it has spaces in it; paste the openai key alone');
    await term.type('sk-later-unseen');
    await term.keys('Enter');
    await term.waitFor('› ');
    await term.type('hello');
    await term.keys('Enter');
    await term.waitFor('hello with a key');
    expect(await term.screen()).not.toContain('sk-later-unseen');
    expect(s.requests[0]!.headers.authorization).toBe('Bearer sk-later-unseen');
  });
});
