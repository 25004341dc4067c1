// Checkpoints that cost little on big trees, on small real trees with real git: the shadow index seeded from the
// user's and their objects shared (never copied), undo from such a checkpoint, objects packed, files over
// checkpoints.max_file_mb named by size and hash, and the first checkpoint's work started ahead of the first call.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCheckpointer, openCheckpointStore } from '../../src/checkpoint/checkpointer.js';
import { checkpointDir, undoTarget } from '../../src/checkpoint/checkpoints.js';
import { indexIntact, judgeIndex } from '../../src/checkpoint/git-index.js';
import { LARGE_HASHES_FILE } from '../../src/checkpoint/large-hashes.js';
import { parseRaw } from '../../src/checkpoint/restore-checks.js';
import { modeMayChangeFiles } from '../../src/runtime/executor.js';
import { useCleanup } from '../support/cleanup.js';
import { exec, shellGit } from '../support/small-shell.js';
import { treeSnapshot } from '../support/tree-snapshot.js';

const track = useCleanup();
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

async function tempDir(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  track(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const git = (cwd: string, ...args: string[]) =>
  exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, env: gitEnv });

/** A repository of the files in `root` with one commit, made by one shell. */
const commitAll = (root: string) =>
  exec('sh', ['-c', 'git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm init'], {
    cwd: root,
    env: gitEnv,
  });

async function workspace(
  files: Record<string, string>,
  options: { repo?: boolean; maxFileMb?: number } = {},
) {
  const root = await tempDir('keel-big-ws-');
  const stateDir = await tempDir('keel-big-state-');
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(join(root, path, '..'), { recursive: true });
    await fs.writeFile(join(root, path), content);
  }
  if (options.repo) await commitAll(root);
  const store = {
    root,
    stateDir,
    env: process.env,
    startGit: shellGit,
    ...(options.maxFileMb ? { maxFileMb: options.maxFileMb } : {}),
  };
  const checkpointer = createCheckpointer({ ...store, warn: () => {} });
  let n = 0;
  const take = () =>
    checkpointer.take({
      callId: `c${n++}`,
      tool: 'execute_command',
      preview: { reads: [], writes: [], summary: 'cmd' },
    });
  const gitDir = join(checkpointDir(stateDir, root), 'git');
  /** Every object the shadow repository holds itself (loose or packed), not those it reads from the user's. */
  const ownObjects = async () => {
    const ids = new Set<string>();
    const objects = join(gitDir, 'objects');
    for (const dir of await fs.readdir(objects)) {
      if (/^[0-9a-f]{2}$/.test(dir)) for (const f of await fs.readdir(join(objects, dir))) ids.add(dir + f);
    }
    for (const idx of (await fs.readdir(join(objects, 'pack'))).filter((f) => f.endsWith('.idx'))) {
      const out = await exec('git', ['show-index'], { input: await fs.readFile(join(objects, 'pack', idx)) });
      for (const line of out.split('\n')) if (line) ids.add(line.split(' ')[1] ?? '');
    }
    return ids;
  };
  return { root, stateDir, gitDir, checkpointer, take, ownObjects, store: () => openCheckpointStore(store) };
}

const blobOf = async (cwd: string, path: string) => (await git(cwd, 'rev-parse', `HEAD:${path}`)).trim();

describe('a checkpoint in a git repository', () => {
  it('copies no tracked file: the shadow store holds only what changed, and undo restores exactly', async () => {
    const files: Record<string, string> = { 'keep.txt': 'keep\n', 'edit.txt': 'before\n' };
    for (let i = 0; i < 40; i++) files[`src/m${i}.ts`] = `export const v${i} = ${i};\n`;
    const t = await workspace(files, { repo: true });
    await fs.writeFile(join(t.root, 'edit.txt'), 'edited by the user, not committed\n');
    await fs.writeFile(join(t.root, 'new.txt'), 'untracked\n');
    const before = await treeSnapshot(t.root);
    t.checkpointer.startRun('run-1');
    await t.take();

    const own = await t.ownObjects();
    for (const path of ['keep.txt', 'src/m0.ts', 'src/m39.ts'])
      expect(own.has(await blobOf(t.root, path))).toBe(false);
    // What differs from the index is stored here.
    const edited = (await exec('git', ['hash-object', 'edit.txt'], { cwd: t.root })).trim();
    expect(own.has(edited)).toBe(true);
    // The index was seeded, so the shadow's tree names the repository's blobs for unchanged files.
    // Read as the store reads itself: the repository's objects (its trees too) through its alternate.
    const tree = await exec('git', ['ls-tree', '-r', 'refs/keel/checkpoints', 'src/m0.ts'], {
      env: {
        ...gitEnv,
        GIT_DIR: t.gitDir,
        GIT_ALTERNATE_OBJECT_DIRECTORIES: join(t.root, '.git', 'objects'),
      },
    });
    expect(tree).toContain(await blobOf(t.root, 'src/m0.ts'));

    await fs.writeFile(join(t.root, 'keep.txt'), 'changed by the agent\n');
    await fs.rm(join(t.root, 'src'), { recursive: true });
    await fs.writeFile(join(t.root, 'made.txt'), 'made\n');
    const store = await t.store();
    await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1');
    const after = await treeSnapshot(t.root);
    delete after['.git'];
    const expected = { ...before };
    delete expected['.git'];
    expect(after).toEqual(expected);
    expect(await git(t.root, 'status', '--porcelain')).toBe(' M edit.txt\n?? new.txt\n');
  });

  it('refuses a restore whose contents the repository has pruned, naming the file, and changes nothing', async () => {
    const t = await workspace({ 'a.txt': 'committed\n', 'b.txt': 'b\n' }, { repo: true });
    t.checkpointer.startRun('run-1');
    await t.take();
    await fs.writeFile(join(t.root, 'a.txt'), 'agent\n');
    await fs.writeFile(join(t.root, 'b.txt'), 'agent b\n');
    const blob = await blobOf(t.root, 'a.txt');
    // As `git gc --prune` would after a rewrite: a.txt's committed contents are gone from the user's store.
    await fs.rm(join(t.root, '.git', 'objects', blob.slice(0, 2), blob.slice(2)), { force: true });
    const store = await t.store();
    const error = await store
      .restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1')
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/cannot restore checkpoint .*\(a\.txt\).*nothing was changed/);
    expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe('agent\n');
    expect(await fs.readFile(join(t.root, 'b.txt'), 'utf8')).toBe('agent b\n');
  });
});

describe("a checkpoint naming the repository's trees", () => {
  it('names them from its cache tree before the change and copies them after it, so a prune leaves undo working', async () => {
    const t = await workspace(
      { 'src/a.txt': 'committed\n', 'src/deep/c.txt': 'c\n', 'b.txt': 'b\n' },
      { repo: true },
    );
    const before = await treeSnapshot(t.root, { skip: ['.git'] });
    t.checkpointer.startRun('run-1');
    const done = await t.take();
    const trees = await Promise.all(['src', 'src/deep'].map((path) => blobOf(t.root, path)));
    // On the change's path the repository's trees are named, not written...
    const own = await t.ownObjects();
    expect(trees.map((id) => own.has(id))).toEqual([false, false]);
    await fs.writeFile(join(t.root, 'src/a.txt'), 'agent\n');
    await done();
    await t.checkpointer.settle();
    // ...then written once the change is done, so the checkpoint no longer depends on the repository keeping them.
    const after = await t.ownObjects();
    expect(trees.map((id) => after.has(id))).toEqual([true, true]);
    for (const id of trees)
      await fs.rm(join(t.root, '.git', 'objects', id.slice(0, 2), id.slice(2)), { force: true });
    const store = await t.store();
    await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1');
    expect(await treeSnapshot(t.root, { skip: ['.git'] })).toEqual(before);
  });
});

describe('objects of a checkpoint', () => {
  it('are packed: a tree without git leaves no loose blob, however many files it has', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`d${i % 12}/f${i}.txt`] = `file ${i}\n`;
    const t = await workspace(files);
    t.checkpointer.startRun('run-1');
    await t.take();
    await fs.writeFile(join(t.root, 'd0/f0.txt'), 'changed\n');
    await t.take();
    const objects = join(t.gitDir, 'objects');
    const loose: string[] = [];
    for (const dir of (await fs.readdir(objects)).filter((d) => /^[0-9a-f]{2}$/.test(d)))
      for (const f of await fs.readdir(join(objects, dir))) loose.push(dir + f);
    expect(loose.length).toBeGreaterThan(0);
    // Every loose object's type, from one git process: `<id> <type> <size>` per line.
    const types = await exec('git', ['cat-file', '--batch-check'], {
      env: { ...gitEnv, GIT_DIR: t.gitDir },
      input: `${loose.join('\n')}\n`,
    });
    expect(types.trim().split('\n')).toHaveLength(loose.length);
    expect(types).not.toMatch(/ blob /);
    expect((await t.ownObjects()).size).toBeGreaterThan(200);
  });
});

describe('files over checkpoints.max_file_mb', () => {
  it('are recorded by size and hash, never copied, and undo says whether each is as it was', async () => {
    const big = Buffer.alloc(1536 * 1024, 7);
    const t = await workspace({ 'small.txt': 'small\n' }, { maxFileMb: 1 });
    await fs.writeFile(join(t.root, 'big.bin'), big);
    await fs.writeFile(join(t.root, 'big2.bin'), big);
    t.checkpointer.startRun('run-1');
    await t.take();
    const store = await t.store();
    const target = undoTarget(await store.list({ newestChanged: false }));
    expect(target.large?.map((f) => [f.path, f.size])).toEqual([
      ['big.bin', big.length],
      ['big2.bin', big.length],
    ]);
    expect(target.large?.[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const blob = (await exec('git', ['hash-object', 'big.bin'], { cwd: t.root })).trim();
    expect((await t.ownObjects()).has(blob)).toBe(false);

    await fs.writeFile(join(t.root, 'small.txt'), 'edited\n');
    await fs.appendFile(join(t.root, 'big2.bin'), 'more');
    const result = await store.restore(target, 'undo-1');
    expect(await fs.readFile(join(t.root, 'small.txt'), 'utf8')).toBe('small\n');
    expect(result.large?.map((f) => [f.path, f.now])).toEqual([
      ['big.bin', 'unchanged'],
      ['big2.bin', 'changed'],
    ]);
    // Not in the checkpoint, so left as it is: never deleted by the restore.
    expect((await fs.stat(join(t.root, 'big2.bin'))).size).toBe(big.length + 4);
  });

  it('a file named by size and hash that shrinks under the limit is listed as modified, not created', async () => {
    const t = await workspace({ 'small.txt': 'small\n' }, { maxFileMb: 1 });
    await fs.writeFile(join(t.root, 'big.bin'), Buffer.alloc(1536 * 1024, 7));
    t.checkpointer.startRun('run-1');
    await t.take();
    await fs.writeFile(join(t.root, 'big.bin'), 'now small\n');
    const [newest] = await (await t.store()).list();
    expect(newest?.changed).toEqual([{ status: 'M', path: 'big.bin' }]);
  });

  it("a later run's first checkpoint takes the hash kept in the store, and hashes again what changed", async () => {
    const big = Buffer.alloc(1536 * 1024, 7);
    const t = await workspace({ 'small.txt': 'small\n' }, { maxFileMb: 1 });
    await fs.writeFile(join(t.root, 'kept.bin'), big);
    await fs.writeFile(join(t.root, 'changes.bin'), big);
    t.checkpointer.startRun('run-1');
    await t.take();
    const real = (await (await t.store()).list({ newestChanged: false }))[0]?.large?.[0]?.sha256;
    // What the store kept is what a later run uses: planted here, it shows the file was not read again.
    const file = join(t.gitDir, LARGE_HASHES_FILE);
    const kept = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(Object.keys(kept).sort()).toEqual(['changes.bin', 'kept.bin']);
    const planted = 'a'.repeat(64);
    kept['kept.bin'].sha256 = planted;
    kept['changes.bin'].sha256 = planted;
    await fs.writeFile(file, JSON.stringify(kept));
    await fs.appendFile(join(t.root, 'changes.bin'), 'more');

    const later = createCheckpointer({
      root: t.root,
      stateDir: t.stateDir,
      env: process.env,
      startGit: shellGit,
      maxFileMb: 1,
      warn: () => {},
    });
    later.startRun('run-2');
    await later.take({
      callId: 'l1',
      tool: 'execute_command',
      preview: { reads: [], writes: [], summary: 'cmd' },
    });
    const [newest] = await (await t.store()).list({ newestChanged: false });
    const hashes = Object.fromEntries((newest?.large ?? []).map((f) => [f.path, f.sha256]));
    expect(hashes['kept.bin']).toBe(planted);
    expect(hashes['changes.bin']).toMatch(/^[0-9a-f]{64}$/);
    expect(hashes['changes.bin']).not.toBe(planted);
    expect(hashes['changes.bin']).not.toBe(real);
  });

  it('one changed, created, grown past the limit or deleted after a checkpoint is in its "changed after"', async () => {
    const big = Buffer.alloc(1536 * 1024, 7);
    const t = await workspace({ 'small.txt': 'small\n', 'grows.txt': 'small\n' }, { maxFileMb: 1 });
    await fs.writeFile(join(t.root, 'edited.bin'), big);
    await fs.writeFile(join(t.root, 'gone.bin'), big);
    t.checkpointer.startRun('run-1');
    await t.take();
    await fs.appendFile(join(t.root, 'edited.bin'), 'more');
    await fs.rm(join(t.root, 'gone.bin'));
    await fs.writeFile(join(t.root, 'new.bin'), big);
    await fs.writeFile(join(t.root, 'grows.txt'), big);
    await fs.writeFile(join(t.root, 'small.txt'), 'edited\n');
    const expected = [
      { status: 'M', path: 'edited.bin' },
      { status: 'D', path: 'gone.bin' },
      { status: 'M', path: 'grows.txt' },
      { status: 'A', path: 'new.bin' },
      { status: 'M', path: 'small.txt' },
    ];
    // The newest checkpoint against the workspace now, and an older one against the checkpoint after it.
    expect((await (await t.store()).list())[0]?.changed).toEqual(expected);
    await t.take();
    const [, older] = await (await t.store()).list({ newestChanged: false });
    expect(older?.changed).toEqual(expected);
  });
});

describe('the first checkpoint of a run', () => {
  it('is prepared ahead, and the first call still records the workspace as it is at that call', async () => {
    const t = await workspace({ 'a.txt': 'at launch\n' }, { repo: true });
    t.checkpointer.startRun('run-1');
    const prepared = t.checkpointer.prepare();
    // A run that changed nothing does not wait at its end for the prepared work.
    await t.checkpointer.settle();
    await prepared;
    await fs.writeFile(join(t.root, 'a.txt'), 'edited by hand before the first call\n');
    await t.take();
    await fs.writeFile(join(t.root, 'a.txt'), 'agent\n');
    const store = await t.store();
    const list = await store.list();
    expect(list).toHaveLength(1);
    await store.restore(undoTarget(list), 'undo-1');
    expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe('edited by hand before the first call\n');
  });

  it('is prepared at launch in every mode that may change files', () => {
    expect(['interactive', 'restricted', 'full'].map((m) => modeMayChangeFiles(m as 'full'))).toEqual([
      true,
      true,
      true,
    ]);
  });
});

describe('seeding from the user’s index', () => {
  it('is refused for entries git would not stat as usual, and for split indexes', async () => {
    const root = await tempDir('keel-big-index-');
    await fs.writeFile(join(root, 'a.txt'), 'a\n');
    await fs.writeFile(join(root, 'b.txt'), 'b\n');
    await commitAll(root);
    const verdict = async () => {
      const v = judgeIndex(await fs.readFile(join(root, '.git/index')));
      return v.ok ? 'ok' : v.why;
    };
    const cases: [string, () => Promise<unknown>, string][] = [
      ['a plain index', async () => {}, 'ok'],
      ['index v4', () => git(root, 'update-index', '--index-version', '4'), 'ok'],
      [
        'skip-worktree',
        () => git(root, 'update-index', '--skip-worktree', 'a.txt'),
        'skip-worktree or intent-to-add entries',
      ],
      ['cleared again', () => git(root, 'update-index', '--no-skip-worktree', 'a.txt'), 'ok'],
      [
        'assume-unchanged',
        () => git(root, 'update-index', '--assume-unchanged', 'b.txt'),
        'assume-unchanged entries',
      ],
      ['cleared again', () => git(root, 'update-index', '--no-assume-unchanged', 'b.txt'), 'ok'],
      ['split index', () => git(root, 'update-index', '--split-index'), 'a split index'],
    ];
    for (const [what, step, expected] of cases) {
      await step();
      expect([what, await verdict()]).toEqual([what, expected]);
    }
    expect(judgeIndex(Buffer.from('not an index at all, no'))).toEqual({ ok: false, why: 'not an index' });
  });

  it('takes an index git wrote as whole, and not one cut short or changed', async () => {
    const root = await tempDir('keel-big-intact-');
    await fs.writeFile(join(root, 'a.txt'), 'a\n');
    await commitAll(root);
    const written = await fs.readFile(join(root, '.git/index'));
    await git(root, 'update-index', '--index-version', '4');
    const v4 = await fs.readFile(join(root, '.git/index'));
    const flipped = Buffer.from(written);
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    const unhashed = Buffer.concat([written.subarray(0, -20), Buffer.alloc(20)]);
    expect(
      [written, v4, written.subarray(0, -1), flipped, unhashed, Buffer.from('not an index')].map(indexIntact),
    ).toEqual([true, true, false, false, true, false]);
  });

  it('reads git diff --raw records', () => {
    const zero = '0'.repeat(40);
    const a = 'a'.repeat(40);
    const raw = `:100644 100644 ${a} ${a} M\0x.txt\0:000000 100644 ${zero} ${a} A\0new dir/y\0:100644 000000 ${a} ${zero} D\0z\0`;
    expect(parseRaw(raw).map((r) => [r.status, r.path, r.dstMode])).toEqual([
      ['M', 'x.txt', '100644'],
      ['A', 'new dir/y', '100644'],
      ['D', 'z', '000000'],
    ]);
  });
});
