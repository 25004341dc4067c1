// Version, help and argument errors: the built binary for what only it shows (the version it was built with, help
// and a parse error's exit code from main.ts, stdin read by auth login), the parse and the rest of the command line
// in-process otherwise.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { type KeelRun, runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { keelRun, parseHere } from '../support/run-in-process.js';

/** `keel --help` from the binary, run once for the tests that read it. */
let rootHelp: Promise<KeelRun> | undefined;
const help = () => {
  rootHelp ??= runKeel(['--help']);
  return rootHelp;
};

describe('keel cli basics', () => {
  it('prints the package version with --version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    const r = await runKeel(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('prints help on stdout with exit 0 for --help', async () => {
    const r = await help();
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: keel/);
  });

  it.each([
    [['run', '--help'], 'keel run'],
    [['chat', '--help'], 'keel chat'],
    [['config', 'show', '--help'], 'keel config show'],
    [['help'], 'keel'],
    [['help', 'run'], 'keel run'],
  ])('prints help for %j', async (args, usage) => {
    const r = await parseHere(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Usage: ${usage} \\[options\\]`));
  });

  it('lists the global options in the help', async () => {
    const r = await help();
    for (const flag of [
      '--provider',
      '--model',
      '--base-url',
      '--cwd',
      '--max-turns',
      '--output',
      '--config',
      '--debug',
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('exits 2 on an unknown option or a bad value', async () => {
    expect((await parseHere(['run', '--no-such-flag'])).code).toBe(2);
    expect((await parseHere(['run', '--max-turns', 'abc', '--prompt', 'x'])).code).toBe(2);
    expect((await parseHere(['run', '--output', 'xml', '--prompt', 'x'])).code).toBe(2);
    // One letter from a command is a typo, not a message for the agent: main.ts's exit code and message (the whole
    // command line, in process).
    const typo = await runCli(['rnu']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(Did you mean run?)');
  });

  it('keel config show --output json prints the merged config as one JSON object', async () => {
    const r = await runCli(['config', 'show', '--output', 'json'], { env: { KEEL_MODEL: 'from-env' } });
    expect(r.code, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as { values: Record<string, { value: unknown; source: string }> };
    expect(shown.values['provider.ollama.model']).toEqual({ value: 'from-env', source: 'env KEEL_MODEL' });
  });

  it('exits 2 when the workspace does not exist', async () => {
    const r = await keelRun({ cwd: '/nonexistent/keel-ws', prompt: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/nonexistent/keel-ws');
  });

  it('keel auth login without a provider logs in to the configured one', async () => {
    const r = await runKeel(['auth', 'login', '--no-store'], {
      env: { KEEL_PROVIDER: 'anthropic' },
      input: 'sk-ant-CANARY-1\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('logged in to anthropic');
    expect(r.stdout + r.stderr).not.toContain('CANARY');
    // No stdin read here: the command line in process.
    const none = await runCli(['auth', 'login']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/ollama needs no login/);
  });
});
