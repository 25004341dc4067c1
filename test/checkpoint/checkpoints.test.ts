// Checkpoint stores on real files with real git (and without it): snapshots, listing, restore, run grouping.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rebasePattern } from '../../src/checkpoint/ancestor-ignores.js';
import {
  broadWorkspace,
  createCheckpointer,
  NO_GIT_WARNING,
  openCheckpointStore,
} from '../../src/checkpoint/checkpointer.js';
import { CheckpointError, undoTarget, workspaceKey } from '../../src/checkpoint/checkpoints.js';
import { type GitSpawn, spawnGit } from '../../src/checkpoint/shadow-git.js';
import type { KeelError } from '../../src/core/errors.js';
import { useCleanup } from '../support/cleanup.js';
import { exec, shellCheckpointer, shellGit } from '../support/small-shell.js';
import { treeSnapshot } from '../support/tree-snapshot.js';

const track = useCleanup();

async function tempDir(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  track(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function setup(
  files: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
  startGit: GitSpawn = shellGit,
) {
  const root = await tempDir('keel-cp-ws-');
  const stateDir = await tempDir('keel-cp-state-');
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(join(root, path, '..'), { recursive: true });
    await fs.writeFile(join(root, path), content);
  }
  const warnings: string[] = [];
  const checkpointer = createCheckpointer({ root, stateDir, env, startGit, warn: (m) => warnings.push(m) });
  const store = () => openCheckpointStore({ root, stateDir, env, startGit });
  const take = (tool: string, writes: string[] = [], callId = 'c1') =>
    checkpointer.take({
      callId,
      tool,
      turn: 1,
      preview: {
        reads: [],
        writes: writes.map((w) => join(root, w)),
        summary: `${tool} ${writes.join(' ')}`,
      },
    });
  return { root, stateDir, checkpointer, store, take, warnings };
}

describe('checkpoints in a shadow git repository', () => {
  it('restores contents, deletions and creations of the last run, small ignored files included', async () => {
    const t = await setup({
      'a.txt': 'A\n',
      'src/b.ts': 'export const b = 1;\n',
      '.gitignore': '*.log\n',
      'keep.log': 'old log\n',
    });
    const before = await treeSnapshot(t.root);
    t.checkpointer.startRun('run-1');
    await t.take('execute_command');
    await fs.writeFile(join(t.root, 'a.txt'), 'changed\n');
    await fs.rm(join(t.root, 'src'), { recursive: true });
    await fs.mkdir(join(t.root, 'new/deep'), { recursive: true });
    await fs.writeFile(join(t.root, 'new/deep/n.txt'), 'new\n');
    await t.take('write_file', ['x.txt'], 'c2');
    await fs.writeFile(join(t.root, 'x.txt'), 'x\n');
    await fs.writeFile(join(t.root, 'keep.log'), 'new log\n');

    const store = await t.store();
    expect(store.kind).toBe('git');
    const list = await store.list();
    expect(list.map((c) => [c.run, c.tool, c.first])).toEqual([
      ['run-1', 'write_file', false],
      ['run-1', 'execute_command', true],
    ]);
    expect(list[0]?.paths).toEqual(['x.txt']);
    expect(list[0]?.changed).toEqual([
      { status: 'M', path: 'keep.log' },
      { status: 'A', path: 'x.txt' },
    ]);
    expect(list[1]?.changed).toEqual([
      { status: 'M', path: 'a.txt' },
      { status: 'A', path: 'new/deep/n.txt' },
      { status: 'D', path: 'src/b.ts' },
    ]);

    const result = await store.restore(undoTarget(list), 'undo-1');
    expect(result.changes).toContainEqual({ status: 'D', path: 'x.txt' });
    expect(result.changes).toContainEqual({ status: 'A', path: 'src/b.ts' });
    // The ignored log is small: it is in the checkpoint, and comes back too.
    expect(result.changes).toContainEqual({ status: 'M', path: 'keep.log' });
    expect(await treeSnapshot(t.root)).toEqual(before);
  });

  it('a second settle waits for the record of the state the last call left, started by the first', async () => {
    const t = await setup({ 'a.txt': 'one\n' });
    t.checkpointer.startRun('run-1');
    const recordAfter = await t.take('write_file', ['a.txt']);
    await fs.writeFile(join(t.root, 'a.txt'), 'two\n');
    await recordAfter();
    // The first, as a turn's calls end, is not awaited; the run's end settles again and must find it written.
    void t.checkpointer.settle();
    await t.checkpointer.settle();
    expect(await (await t.store()).changedByLastCalls?.()).toEqual([{ status: 'M', path: 'a.txt' }]);
    await t.checkpointer.drained();
  });

  it('can undo an undo: the undo checkpoint is the newest run', async () => {
    const t = await setup({ 'a.txt': 'one\n' });
    t.checkpointer.startRun('run-1');
    await t.take('write_file', ['a.txt']);
    await fs.writeFile(join(t.root, 'a.txt'), 'two\n');
    const after = await treeSnapshot(t.root);
    const store = await t.store();
    const undo = await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1');
    expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe('one\n');
    const list = await store.list();
    expect(list[0]?.id).toBe(undo.undoId);
    expect(list[0]?.run).toBe('undo-1');
    await store.restore(undoTarget(list), 'undo-2');
    expect(await treeSnapshot(t.root)).toEqual(after);
  });

  it('goes back to one checkpoint by id, and groups checkpoints by run', async () => {
    const t = await setup({ 'a.txt': '0\n' });
    t.checkpointer.startRun('run-1');
    await t.take('write_file', ['a.txt']);
    await fs.writeFile(join(t.root, 'a.txt'), '1\n');
    t.checkpointer.startRun('run-2');
    await t.take('write_file', ['a.txt'], 'c2');
    await fs.writeFile(join(t.root, 'a.txt'), '2\n');
    await t.take('write_file', ['a.txt'], 'c3');
    await fs.writeFile(join(t.root, 'a.txt'), '3\n');
    const store = await t.store();
    const list = await store.list();
    expect(list.map((c) => `${c.run}:${c.call}:${c.first}`)).toEqual([
      'run-2:c3:false',
      'run-2:c2:true',
      'run-1:c1:true',
    ]);
    // Without an id: before run-2.
    expect(undoTarget(list).call).toBe('c2');
    await store.restore(undoTarget(list, list[0]?.id.slice(0, 6)), 'undo-1');
    expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe('2\n');
  });

  it('never touches the workspace’s own .git, and its git status stays as it was', async () => {
    const t = await setup({ 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    const status = () => exec('git', ['status', '--porcelain'], { cwd: t.root, env });
    const commit = 'git init -q && git add . && git -c user.name=t -c user.email=t@t commit -qm init';
    await exec('sh', ['-c', commit], { cwd: t.root, env });
    await fs.writeFile(join(t.root, 'a.txt'), 'A edited by the user\n');
    const before = await status();
    const dotGit = await treeSnapshot(join(t.root, '.git'), { mtimes: true });
    t.checkpointer.startRun('run-1');
    await t.take('execute_command');
    await fs.rm(join(t.root, 'b.txt'));
    await fs.writeFile(join(t.root, 'c.txt'), 'C\n');
    const store = await t.store();
    await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1');
    expect(await treeSnapshot(join(t.root, '.git'), { mtimes: true })).toEqual(dotGit);
    expect(await status()).toBe(before);
  });

  it('ignores the user’s global git config: hooks and signing never run', async () => {
    const t0 = await tempDir('keel-cp-home-');
    const hook = join(t0, 'hooks');
    await fs.mkdir(hook);
    await fs.writeFile(join(hook, 'pre-commit'), `#!/bin/sh\ntouch ${join(t0, 'HOOK-RAN')}\n`, {
      mode: 0o755,
    });
    await fs.writeFile(
      join(t0, 'gitconfig'),
      `[core]\n\thooksPath = ${hook}\n\tautocrlf = true\n[commit]\n\tgpgsign = true\n`,
    );
    const t = await setup(
      { 'crlf.txt': 'a\r\nb\n' },
      { ...process.env, GIT_CONFIG_GLOBAL: join(t0, 'gitconfig') },
    );
    const before = await treeSnapshot(t.root);
    t.checkpointer.startRun('run-1');
    await t.take('execute_command');
    await fs.writeFile(join(t.root, 'crlf.txt'), 'gone\n');
    const store = await t.store();
    await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-1');
    expect(await treeSnapshot(t.root)).toEqual(before);
    await expect(fs.stat(join(t0, 'HOOK-RAN'))).rejects.toThrow();
  });

  it('keeps its repository outside the workspace, under a readable key', async () => {
    const t = await setup({ 'a.txt': 'A\n' });
    t.checkpointer.startRun('run-1');
    await t.take('execute_command');
    const key = workspaceKey(t.root);
    expect(key).toMatch(/^keel-cp-ws-[A-Za-z0-9]+-[0-9a-f]{12}$/);
    await expect(fs.stat(join(t.stateDir, 'checkpoints', key, 'git', 'HEAD'))).resolves.toBeTruthy();
    expect(await fs.readdir(t.root)).toEqual(['a.txt']);
  });

  it('refuses the call with a clear error when the snapshot fails', async () => {
    const broken: GitSpawn = async () => {
      throw new Error('git: fatal: bad object');
    };
    const t = await setup({ 'a.txt': 'A\n' }, process.env, broken);
    t.checkpointer.startRun('run-1');
    const error = await t.take('write_file', ['a.txt']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toMatch(/^refused: the checkpoint before this write_file call failed/);
    expect((error as Error).message).toContain('nothing was changed');
  });

  it.each([
    ['git says so', new Error('git add: fatal: unable to write new index file: No space left on device')],
    [
      'a write without a path',
      Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        syscall: 'write',
      }),
    ],
  ])(
    'a full disk met at the checkpoint (%s) ends the run naming the checkpoint store',
    async (_how, thrown) => {
      const full: GitSpawn = async () => {
        throw thrown;
      };
      const t = await setup({ 'a.txt': 'A\n' }, process.env, full);
      t.checkpointer.startRun('run-1');
      const error = await t.take('write_file', ['a.txt']).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'environment', exitCode: 1 });
      expect((error as Error).message).toBe(
        `no space left on the disk to write ${join(t.stateDir, 'checkpoints', workspaceKey(t.root))}`,
      );
    },
  );

  it("a workspace file it cannot read refuses that call only: it is not Keel's own dir", async () => {
    let root = '';
    const unreadable: GitSpawn = async () => {
      throw Object.assign(new Error('EACCES: permission denied, open'), {
        code: 'EACCES',
        syscall: 'open',
        path: join(root, 'secret.txt'),
      });
    };
    const t = await setup({ 'a.txt': 'A\n' }, process.env, unreadable);
    root = t.root;
    t.checkpointer.startRun('run-1');
    const error = await t.take('write_file', ['a.txt']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
  });

  it('ends the run with the path and the fix when the state dir cannot be written', async () => {
    const t = await setup({ 'a.txt': 'A\n' });
    // A file where the state directory should be: the shadow repository cannot be created.
    await fs.writeFile(join(t.stateDir, 'checkpoints'), 'not a directory');
    t.checkpointer.startRun('run-1');
    const error = await t.take('write_file', ['a.txt']).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'environment', exitCode: 1 });
    expect((error as Error).message).toContain(
      `${join(t.stateDir, 'checkpoints')} is a file where a directory should be`,
    );
    expect((error as KeelError).hint).toMatch(/^move that file away, or set XDG_STATE_HOME/);
  });
});

describe('a workspace inside a larger git repository', () => {
  it('honours the .gitignore files above it, up to the repository root', async () => {
    const repo = await tempDir('keel-cp-repo-');
    await fs.mkdir(join(repo, '.git'));
    await fs.writeFile(join(repo, '.gitignore'), 'node_modules/\n/packages/app/dist/\n/other/\n');
    const root = join(repo, 'packages', 'app');
    await fs.mkdir(join(root, 'node_modules', 'dep'), { recursive: true });
    await fs.mkdir(join(root, 'dist'));
    await fs.writeFile(join(root, 'node_modules', 'dep', 'index.js'), 'dep\n');
    await fs.writeFile(join(root, 'dist', 'out.js'), 'out\n');
    await fs.writeFile(join(root, 'src.ts'), 'src\n');
    const stateDir = await tempDir('keel-cp-state-');
    const checkpointer = shellCheckpointer(root, stateDir);
    checkpointer.startRun('run-1');
    await checkpointer.take({
      callId: 'c',
      tool: 'execute_command',
      preview: { reads: [], writes: [], summary: 's' },
    });
    await fs.writeFile(join(root, 'dist', 'out.js'), 'rebuilt\n');
    await fs.writeFile(join(root, 'node_modules', 'dep', 'new.js'), 'installed\n');
    await fs.writeFile(join(root, 'src.ts'), 'edited\n');
    const store = await openCheckpointStore({ root, stateDir, env: process.env, startGit: shellGit });
    const list = await store.list();
    expect(list[0]?.changed).toEqual([{ status: 'M', path: 'src.ts' }]);
    await store.restore(undoTarget(list), 'undo-1');
    expect(await fs.readFile(join(root, 'src.ts'), 'utf8')).toBe('src\n');
    expect(await fs.readFile(join(root, 'dist', 'out.js'), 'utf8')).toBe('rebuilt\n');
    expect(await fs.readFile(join(root, 'node_modules', 'dep', 'new.js'), 'utf8')).toBe('installed\n');
  });

  it('rebases each pattern onto the workspace, or drops it when it cannot apply there', () => {
    expect(rebasePattern('node_modules/', 'packages/app')).toBe('node_modules/');
    expect(rebasePattern('*.log', 'packages/app')).toBe('*.log');
    expect(rebasePattern('**/build', 'packages/app')).toBe('**/build');
    expect(rebasePattern('!keep.log', 'packages/app')).toBe('!keep.log');
    expect(rebasePattern('/packages/app/dist/', 'packages/app')).toBe('/dist/');
    expect(rebasePattern('packages/app/tmp', 'packages/app')).toBe('/tmp');
    expect(rebasePattern('/other/', 'packages/app')).toBeUndefined();
    expect(rebasePattern('/packages/application/x', 'packages/app')).toBeUndefined();
    expect(rebasePattern('# comment', 'packages/app')).toBeUndefined();
    // A dotfiles repository in the home directory ignores everything; the workspace below still gets checkpoints.
    expect(rebasePattern('*', 'projects/x')).toBeUndefined();
    expect(rebasePattern('/*', 'projects/x')).toBeUndefined();
    expect(rebasePattern('   ', 'packages/app')).toBeUndefined();
  });
});

describe('undo targets', () => {
  it('says there is nothing to undo, and names an unknown id', () => {
    expect(() => undoTarget([])).toThrow(/nothing to undo/);
    const one = {
      id: 'abcdef1234',
      time: new Date().toISOString(),
      run: 'r',
      call: 'c',
      tool: 't',
      summary: 's',
      paths: [],
      first: true,
    };
    expect(() => undoTarget([one], '999999')).toThrow(/"999999" is not a checkpoint of this workspace/);
    expect(() => undoTarget([one], 'ab')).toThrow(/is not a checkpoint/);
    expect(undoTarget([one], 'ABCDEF').id).toBe('abcdef1234');
  });
});

describe('a workspace too broad to snapshot whole', () => {
  it.each([
    ['/', '/home/me', 'the filesystem root'],
    ['/home/me', '/home/me', 'your home directory'],
    ['/home/me', '/home/me/', 'your home directory'],
    ['/home', '/home/me', 'a folder holding your home directory'],
    ['/home/me/project', '/home/me', undefined],
    ['/home/meet', '/home/me', undefined],
    ['/srv/app', undefined, undefined],
  ])('%s with HOME=%s is %s', (root, home, named) => {
    expect(broadWorkspace(root, home === undefined ? {} : { HOME: home })).toBe(named);
  });

  it('is checkpointed by copies of what file tools write, with one warning saying why', async () => {
    const t = await setup({ 'a.txt': 'A\n' });
    const checkpointer = createCheckpointer({
      root: t.root,
      stateDir: t.stateDir,
      env: { ...process.env, HOME: t.root },
      startGit: shellGit,
      warn: (m) => t.warnings.push(m),
    });
    checkpointer.startRun('run-1');
    void checkpointer.prepare();
    const preview = (writes: string[]) => ({
      reads: [],
      writes: writes.map((p) => join(t.root, p)),
      summary: 'x',
    });
    await checkpointer.take({ callId: 'c1', tool: 'write_file', preview: preview(['a.txt']) });
    await fs.writeFile(join(t.root, 'a.txt'), 'changed\n');
    await checkpointer.take({ callId: 'c2', tool: 'execute_command', preview: preview([]) });
    await checkpointer.drained();
    expect(t.warnings).toEqual([
      expect.stringContaining('the workspace is your home directory: checkpoints cover only file tools'),
    ]);
    const store = await t.store();
    expect(store.kind).toBe('copy');
    await store.restore(undoTarget(await store.list()), 'undo-1');
    expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe('A\n');
  });
});

describe('checkpoints without git', () => {
  const noGit = { ...process.env, PATH: '/nonexistent-keel-test-path' };

  it('copies what file tools write, warns once, and undoes them', async () => {
    const t = await setup({ 'a.txt': 'A\n', 'dir/b.txt': 'B\n', 'dir/c/d.txt': 'D\n' }, noGit, spawnGit);
    const before = await treeSnapshot(t.root);
    t.checkpointer.startRun('run-1');
    await t.take('write_file', ['a.txt']);
    await fs.writeFile(join(t.root, 'a.txt'), 'changed\n');
    await t.take('write_file', ['new.txt'], 'c2');
    await fs.writeFile(join(t.root, 'new.txt'), 'new\n');
    await t.take('delete_path', ['dir'], 'c3');
    await fs.rm(join(t.root, 'dir'), { recursive: true });
    await t.take('execute_command', [], 'c4');
    expect(t.warnings).toEqual([NO_GIT_WARNING]);

    const store = await t.store();
    expect(store.kind).toBe('copy');
    const list = await store.list();
    expect(list.map((c) => c.call)).toEqual(['c4', 'c3', 'c2', 'c1']);
    expect(list[1]?.paths).toEqual(['dir']);
    const result = await store.restore(undoTarget(list), 'undo-1');
    expect(result.changes).toEqual([
      { status: 'M', path: 'a.txt' },
      { status: 'A', path: 'dir' },
      { status: 'D', path: 'new.txt' },
    ]);
    expect(await treeSnapshot(t.root)).toEqual(before);
    // And the undo can be undone.
    await store.restore(undoTarget(await store.list({ newestChanged: false })), 'undo-2');
    expect(await fs.readFile(join(t.root, 'a.txt'), 'utf8')).toBe('changed\n');
    await expect(fs.stat(join(t.root, 'dir'))).rejects.toThrow();
  });
});

describe('two Keels in one workspace', () => {
  it('take their checkpoints one at a time: none fails, and each is listed', async () => {
    const t = await setup({ 'a.txt': 'A\n' });
    // A second checkpointer of the same workspace and state, as a second Keel process has.
    const other = createCheckpointer({
      root: t.root,
      stateDir: t.stateDir,
      env: process.env,
      startGit: shellGit,
      warn: () => {},
    });
    t.checkpointer.startRun('run-a');
    other.startRun('run-b');
    const writes = (checkpointer: typeof other, name: string) => async () => {
      for (let i = 1; i <= 6; i++) {
        await checkpointer.take({
          callId: `${name}${i}`,
          tool: 'write_file',
          turn: i,
          preview: { reads: [], writes: [join(t.root, `${name}${i}.txt`)], summary: `write ${name}${i}` },
        });
        await fs.writeFile(join(t.root, `${name}${i}.txt`), `${name}\n`);
      }
    };
    await Promise.all([writes(t.checkpointer, 'a')(), writes(other, 'b')()]);
    await other.close();
    const listed = await (await t.store()).list({ newestChanged: false });
    expect(listed.filter((c) => c.run === 'run-a')).toHaveLength(6);
    expect(listed.filter((c) => c.run === 'run-b')).toHaveLength(6);
  });
});
