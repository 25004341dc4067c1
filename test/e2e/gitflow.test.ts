// The built binary's git commands, one start each, against the scripted model server in a temp git repository:
// after a run (in process, checkpoints on), `keel commit --yes` (only the run's file), `keel review --fail-on`
// (findings, exit 1) and `keel sessions fork --at` (a new id; the original untouched).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';
import { exec } from '../support/small-shell.js';
import { useUndoRuns } from '../support/undo-runs.js';

const { server, workspace } = useE2E();
const keel = useUndoRuns();

const git = (cwd: string, ...args: string[]) =>
  exec('git', args, { cwd, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });

describe('keel commit, review and sessions fork (built binary)', () => {
  it("commits the run's file, reviews the diff with --fail-on, and forks the run's session", {
    timeout: 240_000,
  }, async () => {
    const ws = await workspace({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
    // The in-process run's state and sessions, where the binary's commands find them.
    const env = { XDG_STATE_HOME: keel.stateHome(), XDG_DATA_HOME: keel.dataHome() };
    // Three starts of the binary on a shared machine: each well under this.
    const timeoutMs = 60_000;
    const init = [
      'git init -q -b main',
      'git config user.name Tester',
      'git config user.email tester@example.com',
      'git add .',
      "git commit -qm 'Initial files'",
    ];
    await exec('sh', ['-c', init.join(' && ')], {
      cwd: ws,
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    const s = await server([
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'A2\n' } }] },
      { text: 'Changed a.' },
      { text: 'Update a' },
      {
        toolCalls: [
          {
            name: 'report_finding',
            args: { path: 'b.txt', line: 1, severity: 'medium', message: 'b drifts' },
          },
        ],
      },
      { text: 'One problem.' },
    ]);

    // keel commit takes what the run changed from its checkpoints.
    expect((await keel.run(s, ws, 'change a')).reasons).toEqual(['done']);
    await writeFile(join(ws, 'b.txt'), 'B by hand\n');

    const commit = await runKeel(['commit', '--yes', '--base-url', s.ollamaUrl, '--cwd', ws], {
      env,
      timeoutMs,
    });
    expect(commit.code, commit.stderr).toBe(0);
    expect(commit.stdout).toMatch(/^committed [0-9a-f]+: Update a\n$/);
    expect((await git(ws, 'log', '-1', '--format=%B')).trim()).toBe(
      'Update a\n\nAssisted-by: Keel (ollama/qwen3)',
    );
    expect((await git(ws, 'show', '--name-only', '--format=', 'HEAD')).trim()).toBe('a.txt');
    expect(await git(ws, 'status', '--porcelain')).toBe(' M b.txt\n');

    const review = await runKeel(['review', '--fail-on', 'medium', '--base-url', s.ollamaUrl, '--cwd', ws], {
      env,
      timeoutMs,
    });
    expect(review.code, review.stderr).toBe(1);
    expect(review.stdout).toBe('b.txt:1 medium b drifts\n');

    const [key] = await readdir(join(keel.dataHome(), 'keel', 'sessions'));
    const sessions = join(keel.dataHome(), 'keel', 'sessions', key!);
    const [file] = (await readdir(sessions)).filter((f) => f.endsWith('.jsonl'));
    const original = await readFile(join(sessions, file!), 'utf8');
    const fork = await runKeel(
      ['sessions', 'fork', file!.slice(0, -'.jsonl'.length), '--at', '1', '--cwd', ws],
      {
        env,
      },
    );
    expect(fork.code, fork.stderr).toBe(0);
    const id = fork.stdout.trim();
    expect(fork.stderr).toContain(`keel chat --resume ${id}`);
    expect(await readFile(join(sessions, file!), 'utf8')).toBe(original);
    expect(await readFile(join(sessions, `${id}.jsonl`), 'utf8')).toContain('Changed a.');
  });
});
