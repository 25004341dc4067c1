// Undo that loses nothing, on real files with real git: git-ignored files up to the size limit, what is left out
// named, hand edits made after a run told apart and kept, and a damaged shadow repository repaired on use.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckpointer, openCheckpointStore } from '../../src/checkpoint/checkpointer.js';
import { checkpointDir, undoTarget } from '../../src/checkpoint/checkpoints.js';
import { useCleanup } from '../support/cleanup.js';
import { exec, shellCheckpointer, shellGit } from '../support/small-shell.js';
import { treeSnapshot } from '../support/tree-snapshot.js';

const track = useCleanup();

/** A temp dir removed by `cleanup` (default: after the current test). */
async function tempDir(prefix: string, cleanup = track): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function setup(files: Record<string, string>, maxIgnoredKb = 1, cleanup = track) {
  const root = await tempDir('keel-keep-ws-', cleanup);
  const stateDir = await tempDir('keel-keep-state-', cleanup);
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(join(root, path, '..'), { recursive: true });
    await fs.writeFile(join(root, path), content);
  }
  const options = { root, stateDir, env: process.env, startGit: shellGit, maxIgnoredKb };
  const checkpointer = createCheckpointer({ ...options, warn: () => {} });
  const take = (tool: string, callId = 'c1') =>
    checkpointer.take({ callId, tool, turn: 1, preview: { reads: [], writes: [], summary: tool } });
  const gitDir = join(checkpointDir(stateDir, root), 'git');
  return { root, stateDir, gitDir, checkpointer, take, store: () => openCheckpointStore(options) };
}

const big = 'x'.repeat(2048);

describe('git-ignored files in checkpoints', () => {
  it('brings back a deleted .env and *.log, and names what it left out', async () => {
    const t = await setup({
      '.gitignore': '.env\n*.log\nnode_modules/\nlogs/\n',
      '.env': 'TOKEN=abc\n',
      'app.log': 'small log\n',
      'logs/deep/run.log': 'nested ignored\n',
      'huge.log': big,
      'node_modules/pkg/index.js': 'module\n',
      'src/a.ts': 'a\n',
    });
    await fs.mkdir(join(t.root, '.git'));
    t.checkpointer.startRun('run-1');
    await t.take('execute_command');
    await fs.rm(join(t.root, '.env'));
    await fs.rm(join(t.root, 'app.log'));
    await fs.rm(join(t.root, 'logs'), { recursive: true });
    await fs.writeFile(join(t.root, 'huge.log'), 'rewritten\n');
    await fs.writeFile(join(t.root, 'node_modules/pkg/index.js'), 'rebuilt\n');

    const store = await t.store();
    const target = undoTarget(await store.list({ newestChanged: false }));
    expect(target.skipped).toEqual([
      { path: 'huge.log', reason: 'size', size: 2048 },
      { path: 'node_modules/', reason: 'generated', stamp: expect.any(String) },
      { path: '.git', reason: 'history' },
    ]);
    const result = await store.restore(target, 'undo-1');
    expect(result.changes).toContainEqual({ status: 'A', path: '.env' });
    expect(await fs.readFile(join(t.root, '.env'), 'utf8')).toBe('TOKEN=abc\n');
    expect(await fs.readFile(join(t.root, 'app.log'), 'utf8')).toBe('small log\n');
    expect(await fs.readFile(join(t.root, 'logs/deep/run.log'), 'utf8')).toBe('nested ignored\n');
    // Left out, so left alone: the big log and the generated tree keep what they hold now.
    expect(await fs.readFile(join(t.root, 'huge.log'), 'utf8')).toBe('rewritten\n');
    expect(await fs.readFile(join(t.root, 'node_modules/pkg/index.js'), 'utf8')).toBe('rebuilt\n');
  });

  it('drops an ignored file from later checkpoints once it grows past the limit', async () => {
    const t = await setup({ '.gitignore': '*.log\n', 'grow.log': 'small\n' });
    t.checkpointer.startRun('run-1');
    await t.take('execute_command');
    await fs.writeFile(join(t.root, 'grow.log'), big);
    await t.take('execute_command', 'c2');
    const list = await (await t.store()).list();
    expect(list[0]?.skipped).toEqual([{ path: 'grow.log', reason: 'size', size: 2048 }]);
    // Restoring the first checkpoint still brings back the small version it kept.
    await (await t.store()).restore(undoTarget(list), 'undo-1');
    expect(await fs.readFile(join(t.root, 'grow.log'), 'utf8')).toBe('small\n');
  });
});

describe('undo after edits by hand', () => {
  it('names the files edited after the last call, and a second undo brings them back', async () => {
    const t = await setup({ 'a.txt': 'one\n', 'notes.txt': 'mine\n' });
    t.checkpointer.startRun('run-1');
    const recordAfter = await t.take('write_file');
    await fs.writeFile(join(t.root, 'a.txt'), 'two\n');
    await recordAfter();
    // The run ends: the state it left is recorded once.
    await t.checkpointer.settle();
    // The user, after the run:
    await fs.writeFile(join(t.root, 'notes.txt'), 'mine, edited\n');
    await fs.writeFile(join(t.root, 'fresh.txt'), 'new by hand\n');
    const handState = await treeSnapshot(t.root);

    const store = await t.store();
    const result = await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1');
    expect(result.handEdits).toEqual([
      { status: 'A', path: 'fresh.txt' },
      { status: 'M', path: 'notes.txt' },
    ]);
    expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe('one\n');
    await store.restore(undoTarget(await store.list({ newestChanged: false }), result.undoId), 'undo-2');
    expect(await treeSnapshot(t.root)).toEqual(handState);
  });

  it("names no hand edits for what a background command changed after its call returned: it is the run's", async () => {
    const t = await setup({ 'a.txt': 'one\n' });
    t.checkpointer.startRun('run-1');
    const preview = { reads: [], writes: [], summary: 'start in the background', lingers: true };
    const recordAfter = await t.checkpointer.take({
      callId: 'c1',
      tool: 'execute_command',
      turn: 1,
      preview,
    });
    await recordAfter();
    // The turn ends with the command still running; it writes later, and the run then ends.
    await t.checkpointer.settle();
    await fs.writeFile(join(t.root, 'a.txt'), 'from the background\n');
    await fs.writeFile(join(t.root, 'made.txt'), 'by the command\n');
    await t.checkpointer.settle();
    const store = await t.store();
    const result = await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1');
    expect(result.handEdits).toEqual([]);
    expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe('one\n');
    await expect(fs.stat(join(t.root, 'made.txt'))).rejects.toThrow();
  });

  it('names no hand edits when nothing changed after the last call', async () => {
    const t = await setup({ 'a.txt': 'one\n' });
    t.checkpointer.startRun('run-1');
    const recordAfter = await t.take('write_file');
    await fs.writeFile(join(t.root, 'a.txt'), 'two\n');
    await recordAfter();
    await t.checkpointer.settle();
    const store = await t.store();
    const result = await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1');
    expect(result.handEdits).toEqual([]);
    expect(result.changes).toEqual([{ status: 'M', path: 'a.txt' }]);
  });
});

it('the state a run left is recorded once, at its end, not after each change', async () => {
  const t = await setup({ 'a.txt': 'one\n' });
  t.checkpointer.startRun('run-1');
  for (const text of ['two\n', 'three\n']) {
    const recordAfter = await t.take('write_file');
    await fs.writeFile(join(t.root, 'a.txt'), text);
    await recordAfter();
  }
  const afterRef = () =>
    exec('git', ['--git-dir', t.gitDir, 'rev-parse', '--verify', '--quiet', 'refs/keel/after']).then(
      (id) => id.trim(),
      () => '',
    );
  expect(await afterRef()).toBe('');
  await t.checkpointer.settle();
  const recorded = await afterRef();
  expect(recorded).not.toBe('');
  // Nothing changed since: a second settle records nothing new.
  await t.checkpointer.settle();
  expect(await afterRef()).toBe(recorded);
});

describe('a damaged checkpoint store', () => {
  const damages: [string, (gitDir: string) => Promise<void>][] = [
    ['info/exclude deleted', (d) => fs.rm(join(d, 'info'), { recursive: true })],
    ['HEAD truncated', (d) => fs.writeFile(join(d, 'HEAD'), '')],
    ['HEAD deleted', (d) => fs.rm(join(d, 'HEAD'))],
    ['config emptied', (d) => fs.writeFile(join(d, 'config'), '')],
    ['index garbled', (d) => fs.writeFile(join(d, 'index'), 'not an index')],
    // As if the objects were lost: the chain's newest commit is not in the store.
    [
      'the newest checkpoint gone',
      (d) => fs.writeFile(join(d, 'refs/keel/checkpoints'), `${'1'.repeat(40)}\n`),
    ],
  ];
  describe('one store, damaged in turn', () => {
    // Made once: each damage meets the store the previous test left repaired.
    const later: (() => Promise<unknown>)[] = [];
    let t: Awaited<ReturnType<typeof setup>>;
    beforeAll(async () => {
      t = await setup({ 'a.txt': 'one\n' }, 1, (cleanup) => void later.push(cleanup));
      t.checkpointer.startRun('run-0');
      await t.take('write_file');
    });
    afterAll(() => Promise.all(later.map((cleanup) => cleanup())));

    for (const [n, [damage, apply]] of damages.entries()) {
      it(`is repaired when ${damage}: a later checkpoint succeeds and undo restores`, async () => {
        const before = `before damage ${n}\n`;
        await fs.writeFile(join(t.root, 'a.txt'), before);
        await apply(t.gitDir);
        // A new process (a new checkpointer) meets the damage.
        const next = shellCheckpointer(t.root, t.stateDir);
        next.startRun(`run-${n + 1}`);
        await next.take({
          callId: 'c',
          tool: 'write_file',
          preview: { reads: [], writes: [], summary: 'w' },
        });
        await fs.writeFile(join(t.root, 'a.txt'), 'after\n');
        const store = await t.store();
        await store.restore(undoTarget(await store.list({ newestChanged: false })), `undo-${n}`);
        expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe(before);
      });
    }
  });

  it('is completed when a kill left only an empty directory', async () => {
    const t = await setup({ 'a.txt': 'one\n' });
    await fs.mkdir(t.gitDir, { recursive: true });
    t.checkpointer.startRun('run-1');
    await t.take('write_file');
    await fs.writeFile(join(t.root, 'a.txt'), 'two\n');
    const store = await t.store();
    await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1');
    expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(await exec('git', ['--git-dir', t.gitDir, 'config', 'core.hooksPath'])).toBe('/dev/null\n');
  });
});
