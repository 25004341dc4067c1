// A run's commands and file changes in the audit log, secrets redacted, and `keel audit`: the command line in
// process (test/support/cli-in-process.ts), and the built binary once, for keel audit with no log yet.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });
const apiKey = 'sk-live-9f8e7d6c5b4a39281706';
const envSecret = 'tok3n-from-the-environment';

describe('audit trail', () => {
  it('logs a command, a file write and a refused command, one line each, and not the read-only read', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const state = await workspace({});
    const s = await server([
      call('execute_command', { command: 'ls' }),
      call('read_file', { path: 'a.txt' }),
      call('write_file', { path: 'src/b.txt', content: 'B\n' }),
      call('execute_command', { command: 'touch canary.txt' }),
      { text: 'done' },
    ]);
    const r = await runCli(
      ['run', '--base-url', s.ollamaUrl, '--cwd', ws, '--mode', 'restricted', '-p', 'go'],
      {
        env: { XDG_STATE_HOME: state },
      },
    );
    expect(r.code).toBe(0);
    const log = await readFile(join(state, 'keel', 'audit.log'), 'utf8');
    const lines = log.split('\n').slice(0, -1);
    expect(lines).toHaveLength(3);
    const line = (action: string, outcome: string) =>
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\| ${ws} \\| ${action} \\| ${outcome} \\| \\d+\\.\\d\\ds$`,
      );
    expect(lines[0]).toMatch(line('ls', 'exit:0'));
    expect(lines[1]).toMatch(line('write_file src/b\\.txt', 'exit:0'));
    expect(lines[2]).toMatch(line('touch canary\\.txt', 'refused: .*'));

    const shown = await runCli(['audit', '--json', '--tail', '2'], { env: { XDG_STATE_HOME: state } });
    expect(shown.code).toBe(0);
    const entries = JSON.parse(shown.stdout);
    expect(entries).toEqual([
      {
        time: expect.any(String),
        cwd: ws,
        action: 'write_file src/b.txt',
        exit: 0,
        duration_ms: expect.any(Number),
      },
      {
        time: expect.any(String),
        cwd: ws,
        action: 'touch canary.txt',
        exit: null,
        duration_ms: expect.any(Number),
        refused: expect.stringContaining('touch'),
      },
    ]);
    const text = await runCli(['audit'], { env: { XDG_STATE_HOME: state } });
    expect(text.stdout).toBe(log);
  });

  it('redacts an API key and the value of a secret variable in the log and in keel audit --json', async () => {
    const ws = await workspace({});
    const state = await workspace({});
    const s = await server([
      call('execute_command', { command: `echo ${apiKey} ${envSecret}` }),
      { text: 'done' },
    ]);
    const env = { XDG_STATE_HOME: state, DEPLOY_TOKEN: envSecret };
    const r = await runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws, '--prompt', 'go'], { env });
    expect(r.code).toBe(0);
    const log = await readFile(join(state, 'keel', 'audit.log'), 'utf8');
    expect(log).toContain(' | echo sk-[REDACTED] [REDACTED] | exit:0 | ');
    expect(log).not.toContain(apiKey.slice(3));
    expect(log).not.toContain(envSecret);
    const shown = await runCli(['audit', '--json'], { env });
    expect(JSON.parse(shown.stdout)).toEqual([
      expect.objectContaining({ action: 'echo sk-[REDACTED] [REDACTED]', exit: 0 }),
    ]);
  });

  it('says where the log would be when there is none yet', async () => {
    const state = await workspace({});
    const r = await runKeel(['audit'], { env: { XDG_STATE_HOME: state } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`no audit log yet at ${join(state, 'keel', 'audit.log')}\n`);
    expect(r.stdout).toBe('');
  });
});
