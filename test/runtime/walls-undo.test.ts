// Issue 17, items 3 and 7: the tripwire putting back protected files a command planted, and `keel undo` bringing
// back git-ignored files, naming what it cannot restore, keeping hand edits, and working on a checkpoint store
// damaged on purpose. Runs and undo in process (the code the CLI calls) against the scripted model server, in a
// temp home; test/e2e/undo.test.ts starts the built binary for `keel run` and `keel undo`.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointDir } from '../../src/checkpoint/checkpoints.js';
import type { RunOptions } from '../../src/runtime/assemble.js';
import { toolMessages, useE2E } from '../support/e2e.js';
import type { ScriptStep } from '../support/model-server.js';
import { exec } from '../support/small-shell.js';
import { useUndoRuns } from '../support/undo-runs.js';

const { server, workspace } = useE2E();
const keel = useUndoRuns();

const command = (cmd: string): ScriptStep => ({
  toolCalls: [{ name: 'execute_command', args: { command: cmd } }],
});

/** A run of `steps` in full mode (without the sandbox unless `extra` says so), and its server. */
async function run(steps: ScriptStep[], ws: string, extra: Partial<RunOptions> = {}) {
  const s = await server(steps);
  return { s, r: await keel.run(s, ws, 'go', extra) };
}

const git = (cwd: string, ...args: string[]) =>
  exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });

const exists = (path: string) =>
  fs.lstat(path).then(
    () => true,
    () => false,
  );

/** What a repository's own build script might do, here planting code for the next run. */
const plant = [
  "printf 'hooks:\\n  session_start:\\n    - command: touch pwned\\n' > .keel.yaml",
  "git config core.fsmonitor 'cat ~/.ssh/id_rsa'",
  "printf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit",
  'chmod +x .git/hooks/pre-commit',
  'echo built',
].join('\n');

describe('the tripwire', () => {
  it('puts back .keel.yaml, .git/config and a new hook a command planted, and says so', async () => {
    const ws = await workspace({ 'build.sh': `${plant}\n`, 'a.txt': 'A\n' });
    await git(ws, 'init', '-q');
    const config = await fs.readFile(join(ws, '.git/config'), 'utf8');
    const { s, r } = await run([command('sh build.sh'), { text: 'built' }], ws);
    expect(r.reasons).toEqual(['done']);
    expect(await exists(join(ws, '.keel.yaml'))).toBe(false);
    expect(await exists(join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(await fs.readFile(join(ws, '.git/config'), 'utf8')).toBe(config);

    const [result] = toolMessages(s.requests[1]?.body);
    expect(result).toContain('built');
    expect(result).toContain('[tripwire]');
    expect(result).toContain('.keel.yaml (created; removed again)');
    expect(result).toContain('.git/config (changed; restored)');
    expect(result).toContain('.git/hooks/pre-commit (created; removed again)');

    const warning = r.events.find((e) => e.type === 'warning' && e.message.startsWith('tripwire:'));
    expect(warning?.type === 'warning' && warning.message).toContain(
      'execute_command changed protected files: ',
    );

    const audit = await fs.readFile(join(keel.stateHome(), 'keel', 'audit.log'), 'utf8');
    expect(audit).toMatch(
      / \| tripwire after execute_command: .*\.keel\.yaml \(created; removed again\).* \| restored \| /,
    );
  });

  it('removes a .git/config made by git init plus core.fsmonitor in a folder that had no repository', async () => {
    // The sandbox (the default in full mode where bubblewrap works) can only keep existing files read-only.
    const ws = await workspace({
      'a.txt': 'A\n',
      'init.sh': "git init -q && git config core.fsmonitor 'touch pwned'\n",
    });
    // Full mode's default: the sandbox where bubblewrap works.
    const { s, r } = await run([command('sh init.sh'), { text: 'done' }], ws, { sandbox: undefined });
    expect(r.reasons).toEqual(['done']);
    expect(await exists(join(ws, '.git/config'))).toBe(false);
    expect(toolMessages(s.requests[1]?.body)[0]).toContain('.git/config (created; removed again)');
    expect(r.events).toContainEqual({
      type: 'warning',
      message: expect.stringContaining('tripwire: execute_command changed protected files'),
    });
  });
});

describe('keel undo', () => {
  it('brings back git-ignored files a command deleted, after naming what it cannot restore', async () => {
    const ws = await workspace({
      '.gitignore': '.env\n*.log\nnode_modules/\n',
      '.env': 'API_TOKEN=local-dev\n',
      'debug.log': 'trace\n',
      'big.log': 'x'.repeat(1100 * 1024),
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      'clean.sh': 'rm -f .env debug.log big.log\nrm -rf node_modules\n',
      'a.txt': 'A\n',
    });
    await git(ws, 'init', '-q');
    const { r } = await run([command('sh clean.sh'), { text: 'cleaned' }], ws);
    expect(r.reasons).toEqual(['done']);
    expect(await exists(join(ws, '.env'))).toBe(false);

    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(await fs.readFile(join(ws, '.env'), 'utf8')).toBe('API_TOKEN=local-dev\n');
    expect(await fs.readFile(join(ws, 'debug.log'), 'utf8')).toBe('trace\n');
    expect(u.stdout).toMatch(/brought back +\.env/);
    const lines = u.stdout.split('\n');
    expect(lines[0]).toBe('keel undo cannot restore these (they are not in the checkpoint):');
    expect(lines).toContain('  big.log (git-ignored, 1100 KB, over checkpoints.max_ignored_file_kb = 1024)');
    expect(lines).toContain('  node_modules/ (generated tree: rebuild it)');
    // git's HEAD did not move, so .git (never in a checkpoint) is not named.
    expect(u.stdout).not.toContain('.git (');
    expect(u.stdout.indexOf('cannot restore')).toBeLessThan(u.stdout.indexOf('restored '));
    expect(await exists(join(ws, 'big.log'))).toBe(false);
  });

  it('names a generated tree only when it changed: an install into node_modules, not a run that left it alone', async () => {
    const files = {
      '.gitignore': 'node_modules/\n',
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      'a.txt': 'A\n',
    };
    const quiet = await workspace(files);
    await git(quiet, 'init', '-q');
    expect((await run([command('echo B > a.txt'), { text: 'done' }], quiet)).r.reasons).toEqual(['done']);
    const left = await keel.undo(quiet);
    expect(left.code).toBe(0);
    expect(await fs.readFile(join(quiet, 'a.txt'), 'utf8')).toBe('A\n');
    expect(left.stdout).not.toContain('cannot restore');

    const installed = await workspace(files);
    await git(installed, 'init', '-q');
    const install = 'mkdir node_modules/left-pad && echo B > a.txt';
    expect((await run([command(install), { text: 'done' }], installed)).r.reasons).toEqual(['done']);
    const changed = await keel.undo(installed);
    expect(changed.stdout.split('\n')).toContain('  node_modules/ (generated tree: rebuild it)');
  });

  it('names .git when the run moved its HEAD: the files come back, the commit stays', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    await git(ws, 'init', '-q', '-b', 'main');
    await git(ws, 'add', 'a.txt');
    await git(ws, 'commit', '-qm', 'one');
    const before = (await git(ws, 'rev-parse', 'HEAD')).trim();
    const commit = 'echo B > a.txt && git -c user.name=t -c user.email=t@t commit -qam two';
    const { r } = await run([command(commit), { text: 'committed' }], ws);
    expect(r.reasons).toEqual(['done']);
    const after = (await git(ws, 'rev-parse', 'HEAD')).trim();
    expect(after).not.toBe(before);

    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('A\n');
    expect(u.stdout.split('\n')).toContain(
      `  .git (git's history moved since: HEAD was main at ${before.slice(0, 7)}, now main at ${after.slice(0, 7)}; commits and branches stay as they are)`,
    );
    expect((await git(ws, 'rev-parse', 'HEAD')).trim()).toBe(after);
  });

  it('keeps edits made by hand after the run: names them, and a second undo brings them back', async () => {
    const ws = await workspace({ 'a.txt': 'one\n', 'notes.txt': 'mine\n' });
    const { r } = await run(
      [{ toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'two\n' } }] }, { text: 'done' }],
      ws,
    );
    expect(r.reasons).toEqual(['done']);
    await fs.writeFile(join(ws, 'notes.txt'), 'mine, edited by hand\n');
    await fs.writeFile(join(ws, 'fresh.txt'), 'new by hand\n');

    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
    const id = /now overwritten; kept in checkpoint ([0-9a-f]{10}):/.exec(u.stdout)?.[1];
    expect(id).toBeDefined();
    expect(u.stdout).toMatch(/\n {2}modified +notes\.txt\n/);
    expect(u.stdout).toMatch(/\n {2}created +fresh\.txt\n/);
    expect(u.stdout).not.toMatch(/\n {2}modified +a\.txt\n/);

    const back = await keel.undo(ws, id ?? '');
    expect(back.code).toBe(0);
    expect(await fs.readFile(join(ws, 'notes.txt'), 'utf8')).toBe('mine, edited by hand\n');
    expect(await fs.readFile(join(ws, 'fresh.txt'), 'utf8')).toBe('new by hand\n');
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('works on a checkpoint store damaged on purpose: the next write succeeds and undo restores', async () => {
    const ws = await workspace({ 'a.txt': 'one\n' });
    const write = (content: string): ScriptStep[] => [
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content } }] },
      { text: 'done' },
    ];
    expect((await run(write('two\n'), ws)).r.reasons).toEqual(['done']);
    const gitDir = join(checkpointDir(join(keel.stateHome(), 'keel'), await fs.realpath(ws)), 'git');
    await fs.rm(join(gitDir, 'info', 'exclude'));
    await fs.writeFile(join(gitDir, 'HEAD'), '');

    const { s, r } = await run(write('three\n'), ws);
    expect(r.reasons).toEqual(['done']);
    expect(toolMessages(s.requests[1]?.body)[0]).not.toContain('refused');
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('three\n');

    const u = await keel.undo(ws);
    expect(u.code).toBe(0);
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
  });
});
