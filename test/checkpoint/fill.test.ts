// Many paths taken into the shadow index by Keel itself (fill.ts: one pack, the index with stat data), checked with
// real git: the same entries `git add -A` stages (ids, modes, stat data), a store git fsck finds clean, later
// changes through git on top, and undo restoring from such a checkpoint.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckpointer, openCheckpointStore } from '../../src/checkpoint/checkpointer.js';
import { checkpointDir } from '../../src/checkpoint/checkpoints.js';
import { fillIndex } from '../../src/checkpoint/fill.js';
import { packIndex, packWriter } from '../../src/checkpoint/pack-writer.js';
import { type GitSpawn, shadowGit, spawnGit } from '../../src/checkpoint/shadow-git.js';
import { FILL_AT } from '../../src/checkpoint/stage.js';
import { exec, shellCheckpointer, shellGit } from '../support/small-shell.js';
import { treeSnapshot } from '../support/tree-snapshot.js';

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
// Both stores name paths alike: the shadow's config does not quote them.
const gitIn = (gitDir: string, root: string, args: string[], input?: string) =>
  exec('git', ['-c', 'core.quotePath=false', ...args], {
    cwd: root,
    env: { ...gitEnv, GIT_DIR: gitDir, GIT_WORK_TREE: root },
    ...(input !== undefined ? { input } : {}),
  });

const dirs: string[] = [];
async function tempDir(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/**
 * git as the store starts it, but each command `held` picks waits for its preparation to be given up and only then
 * starts (with the aborted signal): `started` once `count` of them are waiting; each one's outcome, `finished` or
 * the error's name, in `outcomes`.
 */
function heldUntilGivenUp(held: (args: readonly string[]) => boolean, count: number) {
  let waiting = 0;
  let allWaiting: () => void = () => {};
  const started = new Promise<void>((resolve) => (allWaiting = resolve));
  const outcomes: Promise<unknown>[] = [];
  const startGit: GitSpawn = (env, cwd, args, input, signal) => {
    if (!held(args)) return shellGit(env, cwd, args, input);
    if (++waiting === count) allWaiting();
    // Started once given up, so it meets the aborted signal as a git under way would, and settles as spawnGit does
    // (rejected with the AbortError once git has exited): the caller's clean-up after an abort runs as in a real run.
    const run = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve())).then(() =>
      spawnGit(env, cwd, args, input, signal),
    );
    outcomes.push(
      run.then(
        () => 'finished',
        (error: Error) => error.name,
      ),
    );
    return run;
  };
  return { startGit, started, outcomes };
}

/** A run of one write_file call: its checkpoint taken, the run ended as a run ends. */
async function oneWriteRun(root: string, stateDir: string, run: string) {
  const checkpointer = shellCheckpointer(root, stateDir);
  checkpointer.startRun(run);
  await checkpointer.take({
    callId: 'c0',
    tool: 'write_file',
    preview: { reads: [], writes: [], summary: 'w' },
  });
  await checkpointer.drained();
  checkpointer.close();
}

const MAX = 64 * 1024;

/** A tree of every kind git stores: folders, names git sorts specially, executables, symlinks, duplicates, empty. */
async function makeTree(root: string) {
  const files: Record<string, string | Buffer> = {
    'a.b': 'dot\n',
    'a-b/x.txt': 'dash\n',
    'a/x.txt': 'x\n',
    'a/y/z/deep.txt': 'deep\n',
    'café/ñ.txt': 'unicode\n',
    'with space.txt': 'space\n',
    'empty.txt': '',
    'same1.txt': 'same content\n',
    'same2.txt': 'same content\n',
    'bin.dat': Buffer.from([0, 1, 2, 255, 0, 10]),
    'big.bin': Buffer.alloc(MAX + 1, 7),
  };
  for (let i = 0; i < FILL_AT + 40; i++) files[`m${i % 9}/f${i}.ts`] = `export const v${i} = ${i};\n`;
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(join(root, path, '..'), { recursive: true });
    await fs.writeFile(join(root, path), content);
  }
  await fs.writeFile(join(root, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  await fs.symlink('a/x.txt', join(root, 'link'));
  await fs.symlink('nowhere/at/all', join(root, 'dangling'));
  await fs.mkdir(join(root, 'empty-dir'));
}

describe('a fill of many paths', () => {
  let root = '';
  let gitDir = '';
  let refDir = '';
  let listed: string[] = [];
  beforeAll(async () => {
    root = await tempDir('keel-fill-ws-');
    const state = await tempDir('keel-fill-state-');
    await makeTree(root);
    gitDir = join(state, 'shadow.git');
    const shadow = shadowGit(gitDir, root, process.env, shellGit);
    await shadow.ensure();
    listed = (await shadow.run(['ls-files', '-z', '-o', '--exclude-standard'])).split('\0').filter(Boolean);
    const filled = await fillIndex(gitDir, root, { paths: listed, maxFileBytes: MAX });
    expect(filled.large).toEqual(['big.bin']);
    // What git itself stages for the same tree, big.bin left out as the fill leaves it.
    refDir = join(state, 'ref.git');
    await exec('git', ['init', '-q', '--bare', refDir], { env: gitEnv });
    await gitIn(refDir, root, ['add', '-A', '--', '.', ':(exclude)big.bin']);
  });

  it('stages what git add -A stages: the same paths, modes and blob ids', async () => {
    const ours = await gitIn(gitDir, root, ['ls-files', '-s']);
    expect(ours).toBe(await gitIn(refDir, root, ['ls-files', '-s']));
    expect(ours).toMatch(/^100755 \S+ 0\trun\.sh$/m);
    expect(ours).toMatch(/^120000 \S+ 0\tdangling$/m);
    expect(ours).not.toContain('empty-dir');
  });

  it('stages the same entries and a pack git verifies when the files are read on worker threads', async () => {
    const threaded = join(gitDir, '..', 'threaded.git');
    await shadowGit(threaded, root, process.env, shellGit).ensure();
    const filled = await fillIndex(
      threaded,
      root,
      { paths: listed, maxFileBytes: MAX },
      { workers: 2, workerAt: 0 },
    );
    expect(filled.large).toEqual(['big.bin']);
    expect(filled.threaded).toBeGreaterThan(0);
    expect(await gitIn(threaded, root, ['ls-files', '--debug'])).toBe(
      await gitIn(gitDir, root, ['ls-files', '--debug']),
    );
    const pack = (await fs.readdir(join(threaded, 'objects', 'pack'))).find((n) => n.endsWith('.pack'));
    await gitIn(threaded, root, ['verify-pack', join(threaded, 'objects', 'pack', pack as string)]);
    const tree = (await gitIn(threaded, root, ['write-tree'])).trim();
    expect(await gitIn(threaded, root, ['fsck', '--strict', '--no-dangling', tree])).toBe('');
  });

  it('records the stat data git records, so a later look finds nothing changed without reading a file', async () => {
    expect(await gitIn(gitDir, root, ['ls-files', '--debug'])).toBe(
      await gitIn(refDir, root, ['ls-files', '--debug']),
    );
    expect(await gitIn(gitDir, root, ['diff-files', '--name-only'])).toBe('');
  });

  it('writes one pack git verifies, and no loose object', async () => {
    const objects = join(gitDir, 'objects');
    const loose = (await fs.readdir(objects)).filter((d) => /^[0-9a-f]{2}$/.test(d));
    expect(loose).toEqual([]);
    const packs = (await fs.readdir(join(objects, 'pack'))).sort();
    expect(packs).toHaveLength(2);
    expect(packs[0]).toMatch(/^pack-[0-9a-f]{40}\.idx$/);
    await gitIn(gitDir, root, ['verify-pack', join(objects, 'pack', packs[1] as string)]);
    const tree = (await gitIn(gitDir, root, ['write-tree'])).trim();
    expect(await gitIn(gitDir, root, ['fsck', '--strict', '--no-dangling', tree])).toBe('');
    expect(await gitIn(gitDir, root, ['cat-file', '-p', `${tree}:link`])).toBe('a/x.txt');
    expect(await gitIn(gitDir, root, ['cat-file', '-p', `${tree}:bin.dat`])).toBe(
      Buffer.from([0, 1, 2, 255, 0, 10]).toString(),
    );
  });

  it('lets git update-index take later changes on top', async () => {
    await fs.writeFile(join(root, 'a/x.txt'), 'x changed\n');
    await fs.rm(join(root, 'a.b'));
    await gitIn(gitDir, root, ['update-index', '--add', '--remove', '-z', '--stdin'], 'a/x.txt\0a.b\0');
    await gitIn(refDir, root, ['add', '-A', '--', '.', ':(exclude)big.bin']);
    expect(await gitIn(gitDir, root, ['ls-files', '-s'])).toBe(await gitIn(refDir, root, ['ls-files', '-s']));
    expect(await gitIn(gitDir, root, ['fsck', '--strict', '--no-dangling'])).toBe('');
  });
});

describe('a fill into an index that has entries', () => {
  it('keeps the entries it was not given (racily clean ones still compared by content), replaces those it was, drops the ones gone', async () => {
    const root = await tempDir('keel-fill-merge-');
    const state = await tempDir('keel-fill-merge-state-');
    for (const name of ['keep.txt', 'edit.txt', 'gone.txt', 'untrack.log'])
      await fs.writeFile(join(root, name), `${name}\n`);
    const gitDir = join(state, 'shadow.git');
    const shadow = shadowGit(gitDir, root, process.env, shellGit);
    await shadow.ensure();
    // keep.txt is racily clean: its mtime is not older than the index that records it.
    const later = Date.now() / 1000 + 100;
    await fs.utimes(join(root, 'keep.txt'), later, later);
    await shadow.run(
      ['update-index', '--add', '-z', '--stdin'],
      'keep.txt\0edit.txt\0gone.txt\0untrack.log\0',
    );
    await fs.writeFile(join(root, 'edit.txt'), 'edited\n');
    await fs.rm(join(root, 'gone.txt'));
    await fs.writeFile(join(root, 'new.txt'), 'new\n');
    await fillIndex(gitDir, root, {
      paths: ['edit.txt', 'gone.txt', 'new.txt'],
      remove: ['untrack.log'],
      maxFileBytes: MAX,
    });
    const staged = (await shadow.run(['ls-files', '-s']))
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[1]);
    expect(staged).toEqual(['edit.txt', 'keep.txt', 'new.txt']);
    expect(await shadow.run(['ls-files', '-m'])).toBe('');
    expect(await shadow.run(['cat-file', '-p', ':edit.txt'])).toBe('edited\n');
    // Still compared by content after the rewrite, as git's own index writes keep it: its size is zeroed.
    expect(await shadow.run(['ls-files', '--debug', 'keep.txt'])).toMatch(/size: 0\t/);
  });
});

describe('the pack idx', () => {
  it('puts offsets past 2 GiB in its 64-bit table, as git reads them', async () => {
    const ids = Buffer.concat([Buffer.alloc(20, 0xbb), Buffer.alloc(20, 0xaa)]);
    const idx = packIndex({ count: 2, ids, offsets: [3 * 2 ** 31, 12], crcs: [1, 2] }, Buffer.alloc(20, 9));
    const shown = await exec('git', ['show-index'], { input: idx, env: gitEnv });
    expect(shown).toBe(`12 ${'aa'.repeat(20)} (00000002)\n${3 * 2 ** 31} ${'bb'.repeat(20)} (00000001)\n`);
  });

  it('orders ids that share their first four bytes by the rest, as git looks them up', async () => {
    const id = (last: number) => Buffer.concat([Buffer.alloc(19, 0xcc), Buffer.from([last])]);
    const idx = packIndex(
      { count: 3, ids: Buffer.concat([id(3), id(1), id(2)]), offsets: [30, 10, 20], crcs: [3, 1, 2] },
      Buffer.alloc(20, 9),
    );
    const shown = await exec('git', ['show-index'], { input: idx, env: gitEnv });
    const hex = (last: number) => `${'cc'.repeat(19)}0${last}`;
    expect(shown).toBe(`10 ${hex(1)} (00000001)\n20 ${hex(2)} (00000002)\n30 ${hex(3)} (00000003)\n`);
  });

  it('writes nothing for a pack with no object', async () => {
    const gitDir = await tempDir('keel-fill-empty-');
    await fs.mkdir(join(gitDir, 'objects', 'pack'), { recursive: true });
    expect(await packWriter(gitDir).finish()).toBeUndefined();
    expect(await fs.readdir(join(gitDir, 'objects', 'pack'))).toEqual([]);
  });
});

describe('a fill given up', () => {
  it('stops before its next job once its signal aborts: it rejects, and leaves no pack and no index', async () => {
    const root = await tempDir('keel-fill-stop-');
    for (let i = 0; i < 500; i++) await fs.writeFile(join(root, `f${i}.txt`), `${i}\n`);
    const gitDir = join(await tempDir('keel-fill-stop-state-'), 'shadow.git');
    await shadowGit(gitDir, root, process.env, shellGit).ensure();
    const controller = new AbortController();
    // Jobs of 100 paths in process, the event loop given back between them: the abort lands after the first.
    setImmediate(() => controller.abort());
    const paths = Array.from({ length: 500 }, (_, i) => `f${i}.txt`);
    await expect(
      fillIndex(gitDir, root, { paths, maxFileBytes: MAX }, { workers: 1, signal: controller.signal }),
    ).rejects.toThrow(/abort/i);
    expect(await fs.readdir(join(gitDir, 'objects', 'pack'))).toEqual([]);
    await expect(fs.stat(join(gitDir, 'index'))).rejects.toThrow();
  });

  it('a preparation given up stops its index refresh (git ended, its lock removed) and the next run refreshes', async () => {
    const root = await tempDir('keel-prepare-refresh-');
    const stateDir = await tempDir('keel-prepare-refresh-state-');
    for (let i = 0; i < 50; i++) await fs.writeFile(join(root, `f${i}.txt`), `${i}\n`);
    // A first run leaves a shadow index behind, so the next run's preparation refreshes it.
    await oneWriteRun(root, stateDir, 'run-1');
    // The refresh is held until the run has ended (drained), so it is surely under way when given up.
    const {
      startGit,
      started: refreshing,
      outcomes,
    } = heldUntilGivenUp((args) => args[0] === 'update-index' && args.includes('--refresh'), 1);
    const second = createCheckpointer({ root, stateDir, env: process.env, startGit, warn: () => {} });
    second.startRun('run-2');
    void second.prepare();
    await refreshing;
    await second.drained();
    second.close();
    expect(await Promise.all(outcomes)).toEqual(['AbortError']);
    const gitDir = join(checkpointDir(stateDir, root), 'git');
    await expect(fs.stat(join(gitDir, 'index.lock'))).rejects.toThrow();
    // The next run refreshes and checkpoints as usual.
    await fs.writeFile(join(root, 'f3.txt'), 'changed\n');
    await oneWriteRun(root, stateDir, 'run-3');
    const store = await openCheckpointStore({ root, stateDir, env: process.env, startGit: shellGit });
    expect((await store.list()).length).toBe(2);
  });

  it('a preparation given up ends its scan (both git ls-files walks) and the next run checkpoints', async () => {
    const root = await tempDir('keel-prepare-scan-');
    const stateDir = await tempDir('keel-prepare-scan-state-');
    for (let i = 0; i < 50; i++) await fs.writeFile(join(root, `f${i}.txt`), `${i}\n`);
    // Each walk is held until the run has ended (drained), so both are surely under way when given up.
    const { startGit, started, outcomes } = heldUntilGivenUp((args) => args[0] === 'ls-files', 2);
    const checkpointer = createCheckpointer({ root, stateDir, env: process.env, startGit, warn: () => {} });
    checkpointer.startRun('run-1');
    void checkpointer.prepare();
    await started;
    await checkpointer.drained();
    checkpointer.close();
    expect(await Promise.all(outcomes)).toEqual(['AbortError', 'AbortError']);
    await oneWriteRun(root, stateDir, 'run-2');
    const store = await openCheckpointStore({ root, stateDir, env: process.env, startGit: shellGit });
    expect((await store.list()).length).toBe(1);
  });

  it('as a preparation no checkpoint waited for, when the run ends: the next checkpoint does it whole', async () => {
    const root = await tempDir('keel-prepare-stop-');
    const stateDir = await tempDir('keel-prepare-stop-state-');
    for (let i = 0; i < 300; i++) await fs.writeFile(join(root, `f${i}.txt`), `${i}\n`);
    const checkpointer = shellCheckpointer(root, stateDir);
    checkpointer.startRun('run-1');
    void checkpointer.prepare();
    await checkpointer.drained();
    const gitDir = join(checkpointDir(stateDir, root), 'git');
    await expect(fs.stat(join(gitDir, 'index'))).rejects.toThrow();

    const again = shellCheckpointer(root, stateDir);
    again.startRun('run-2');
    void again.prepare();
    await again.take({
      callId: 'c0',
      tool: 'execute_command',
      preview: { reads: [], writes: [], summary: 'rm' },
    });
    await again.drained();
    await fs.rm(join(root, 'f7.txt'));
    const store = await openCheckpointStore({ root, stateDir, env: process.env, startGit: shellGit });
    const [first] = await store.list();
    if (!first) throw new Error('no checkpoint');
    await store.restore(first, 'undo-1');
    expect(await fs.readFile(join(root, 'f7.txt'), 'utf8')).toBe('7\n');
  });
});

describe('a first checkpoint of a tree without git', () => {
  it('is packed by Keel, and undo restores the tree from it after more checkpoints', async () => {
    const root = await tempDir('keel-fill-undo-');
    const stateDir = await tempDir('keel-fill-undo-state-');
    await makeTree(root);
    await fs.rm(join(root, 'big.bin'));
    const before = await treeSnapshot(root);
    const checkpointer = shellCheckpointer(root, stateDir);
    checkpointer.startRun('run-1');
    let n = 0;
    const take = () =>
      checkpointer.take({
        callId: `c${n++}`,
        tool: 'execute_command',
        preview: { reads: [], writes: [], summary: 'cmd' },
      });
    await take();
    await fs.writeFile(join(root, 'a/x.txt'), 'agent\n');
    await fs.rm(join(root, 'm0'), { recursive: true });
    await fs.writeFile(join(root, 'made.txt'), 'made\n');
    await take();
    await fs.writeFile(join(root, 'a.b'), 'agent again\n');
    const store = await openCheckpointStore({ root, stateDir, env: process.env, startGit: shellGit });
    const list = await store.list();
    const first = list[list.length - 1];
    if (!first) throw new Error('no checkpoint');
    await store.restore(first, 'undo-1');
    expect(await treeSnapshot(root)).toEqual(before);
    const gitDir = join(checkpointDir(stateDir, root), 'git');
    expect(await gitIn(gitDir, root, ['fsck', '--strict', '--no-dangling'])).toBe('');
  });

  it('writes the trees of many folders as one pack too: the commit is the one loose object', async () => {
    const root = await tempDir('keel-fill-trees-');
    const stateDir = await tempDir('keel-fill-trees-state-');
    for (let i = 0; i < 300; i++) {
      await fs.mkdir(join(root, `d${i}`));
      await fs.writeFile(join(root, `d${i}`, 'f.txt'), `${i}\n`);
    }
    const checkpointer = shellCheckpointer(root, stateDir);
    checkpointer.startRun('run-1');
    await checkpointer.take({
      callId: 'c0',
      tool: 'execute_command',
      preview: { reads: [], writes: [], summary: 'cmd' },
    });
    const gitDir = join(checkpointDir(stateDir, root), 'git');
    const objects = join(gitDir, 'objects');
    const loose: string[] = [];
    for (const dir of (await fs.readdir(objects)).filter((d) => /^[0-9a-f]{2}$/.test(d)))
      for (const f of await fs.readdir(join(objects, dir))) loose.push(dir + f);
    expect(loose).toHaveLength(1);
    expect((await gitIn(gitDir, root, ['cat-file', '-t', loose[0] as string])).trim()).toBe('commit');
    expect(await gitIn(gitDir, root, ['fsck', '--strict', '--no-dangling'])).toBe('');
    expect(await gitIn(gitDir, root, ['ls-tree', '-r', '--name-only', 'refs/keel/checkpoints'])).toContain(
      'd299/f.txt',
    );
  });
});
