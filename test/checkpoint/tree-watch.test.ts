// Later checkpoints from the tree watch: each change made behind Keel's back (a shell command's) is staged from
// the paths the watch saw, and the snapshot is the one a full scan of the same tree gives (same root tree, same
// skipped and large files); whatever the watch cannot vouch for falls back to the scan.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeIndexTrees } from '../../src/checkpoint/index-trees.js';
import { type ShadowGit, shadowGit } from '../../src/checkpoint/shadow-git.js';
import { stager } from '../../src/checkpoint/stage.js';
import { dirLimit, treeWatch } from '../../src/checkpoint/tree-watch.js';
import { useCleanup } from '../support/cleanup.js';
import { exec, shellGit } from '../support/small-shell.js';

const track = useCleanup();
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

type Cleanup = (cleanup: () => Promise<unknown>) => void;

async function tempDir(prefix: string, cleanup: Cleanup): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A shell command, as execute_command runs one: the change is made by another process. */
const sh = (cwd: string, script: string) => exec('sh', ['-c', script], { cwd, env: gitEnv });

/** A workspace staged twice over: through the tree watch, and by a full scan, into two shadow repositories. */
async function pair(
  files: Record<string, string>,
  options: { repo?: boolean; maxFileBytes?: number } = {},
  cleanup: Cleanup = track,
) {
  const root = await tempDir('keel-watch-ws-', cleanup);
  const state = await tempDir('keel-watch-state-', cleanup);
  for (const [path, content] of Object.entries(files)) {
    await fs.mkdir(join(root, path, '..'), { recursive: true });
    await fs.writeFile(join(root, path), content);
  }
  if (options.repo) {
    // One shell starts the three.
    await sh(root, 'git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm init');
  }
  const stageOptions = {
    root,
    maxIgnoredBytes: 64,
    maxFileBytes: options.maxFileBytes ?? 1024 * 1024,
  };
  const watch = treeWatch(root);
  cleanup(async () => watch.close());
  let processes = 0;
  const shadow = (name: string, count: boolean): ShadowGit => {
    const git = shadowGit(join(state, name), root, process.env, shellGit);
    return {
      gitDir: git.gitDir,
      ensure: git.ensure,
      exists: git.exists,
      maintain: git.maintain,
      indexFresh: false,
      shareObjects: git.shareObjects,
      run: (...args) => {
        if (count) processes++;
        return git.run(...args);
      },
    };
  };
  const watched = shadow('watched', true);
  /** A plain git command on the watched shadow repository. */
  const gitWatched = (...args: string[]) =>
    exec('git', args, { cwd: root, env: { ...gitEnv, GIT_DIR: watched.gitDir, GIT_WORK_TREE: root } });
  const scanned = shadow('scanned', false);
  const stageWatched = stager(watched, stageOptions, watch);
  const stageScanned = stager(scanned, stageOptions);
  /** Stages both; resolves with how the watched one found its changes and the git processes it ran. */
  const check = async () => {
    processes = 0;
    const a = await stageWatched();
    const ran = processes;
    const b = await stageScanned();
    const bySkipped = (s: { path: string }[]) => [...s].sort((x, y) => (x.path < y.path ? -1 : 1));
    expect(await writeIndexTrees(watched.gitDir, new Set())).toBe(
      await writeIndexTrees(scanned.gitDir, new Set()),
    );
    expect(bySkipped(a.skipped)).toEqual(bySkipped(b.skipped));
    expect(a.large).toEqual(b.large);
    return { how: a.how, processes: ran };
  };
  expect((await check()).how).toBe('scan');
  return { root, watch, check, git: gitWatched };
}

describe('later checkpoints from the tree watch', () => {
  // One workspace for the changes the watch stages itself, in order; those that make it scan get their own.
  let ws: Awaited<ReturnType<typeof pair>>;
  const shared: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    ws = await pair(
      {
        '.gitignore': '.env\n*.log\nnode_modules/\n',
        '.env': 'KEY=1',
        'a.txt': 'a',
        'src/b.ts': 'b',
        'src/c.ts': 'c',
        'dir/d.txt': 'd',
      },
      { repo: true, maxFileBytes: 100 },
      (cleanup) => shared.push(cleanup),
    );
  });
  afterAll(async () => {
    await Promise.all(shared.map((cleanup) => cleanup()));
  });

  it('stages edits of tracked files without a git process, recording the stat data git would', async () => {
    await sh(ws.root, 'echo more >> src/b.ts && echo again >> a.txt && chmod +x src/c.ts');
    expect(await ws.check()).toEqual({ how: 'watch', processes: 0 });
    // git finds every entry matching its file by stat alone.
    expect(await ws.git('ls-files', '-m', '-d')).toBe('');
    // The new contents are read back from the pack written for them.
    const blob = (await ws.git('ls-files', '-s', 'src/b.ts')).split(/\s+/)[1] as string;
    expect(await ws.git('cat-file', '-p', blob)).toBe(await fs.readFile(join(ws.root, 'src/b.ts'), 'utf8'));
    expect(await ws.check()).toEqual({ how: 'watch', processes: 0 });
  });

  it('stages new, deleted and renamed files', async () => {
    await sh(ws.root, 'echo new > src/new.ts && rm a.txt && mv src/c.ts src/e.ts');
    expect((await ws.check()).how).toBe('watch');
  });

  it('stages files made in new nested folders right after making them, and those made there later', async () => {
    await sh(ws.root, 'mkdir -p x/y/z && echo 1 > x/y/z/f.txt && echo 2 > x/g.txt');
    expect((await ws.check()).how).toBe('watch');
    await sh(ws.root, 'echo 3 > x/y/z/h.txt && echo changed > x/y/z/f.txt');
    expect((await ws.check()).how).toBe('watch');
  });

  it('keeps a changed ignored file (.env) and names a new one over the ignored-file limit', async () => {
    await sh(ws.root, `echo KEY=2 > .env && echo small > ok.log && printf '%070d' 0 > big.log`);
    expect((await ws.check()).how).toBe('watch');
    await sh(ws.root, `printf '%070d' 0 > .env`);
    expect((await ws.check()).how).toBe('watch');
  });

  it('stages symbolic links, to files and to folders', async () => {
    await sh(ws.root, 'ln -s src/b.ts link && ln -s dir dirlink');
    expect((await ws.check()).how).toBe('watch');
    await sh(ws.root, 'echo changed > dir/d.txt && rm link && ln -s dir/d.txt link');
    expect((await ws.check()).how).toBe('watch');
  });

  it('names a new ignored node_modules as a generated tree without walking it', async () => {
    await sh(ws.root, 'mkdir -p node_modules/pkg && echo x > node_modules/pkg/index.js');
    expect((await ws.check()).how).toBe('watch');
    await sh(ws.root, 'rm -r node_modules');
    expect((await ws.check()).how).toBe('watch');
  });

  it('names a new file over checkpoints.max_file_mb by size and hash', async () => {
    await sh(ws.root, `printf '%0200d' 0 > huge.bin && printf '%0200d' 1 > src/b.ts`);
    expect((await ws.check()).how).toBe('watch');
    await sh(ws.root, 'echo small > huge.bin');
    expect((await ws.check()).how).toBe('watch');
  });
});

describe('checkpoints the tree watch cannot vouch for', () => {
  it('scans the whole tree when a .gitignore changes', async () => {
    const { root, check } = await pair({ '.gitignore': '*.log\n', 'a.log': 'log', 'a.txt': 'a' });
    await sh(root, 'echo > .gitignore');
    expect((await check()).how).toBe('scan');
  });

  it('watches a folder named like a generated tree once a scan finds git does not ignore it', async () => {
    const { root, check } = await pair({ 'a.txt': 'a', 'build/keep.txt': 'k' });
    await sh(root, 'echo changed > build/keep.txt');
    // The first scan found build/ not ignored: watched from the next scan on.
    expect((await check()).how).toBe('scan');
    await sh(root, 'echo again > build/keep.txt && mkdir dist && echo d > dist/out.js');
    expect((await check()).how).toBe('scan');
    await sh(root, 'echo third > build/keep.txt && echo e > dist/more.js');
    expect((await check()).how).toBe('watch');
  });

  it("watches a generated tree's name that holds tracked files from the first start (babel's fixtures)", async () => {
    const { root, check } = await pair(
      {
        'a.txt': 'a',
        'test/fixtures/resolve/node_modules/pkg/index.js': 'x',
        '.yarn/releases/yarn.cjs': 'y',
      },
      { repo: true },
    );
    // The index named both folders before the first walk: no second start, no scan.
    await sh(
      root,
      'echo changed > test/fixtures/resolve/node_modules/pkg/index.js && echo z > .yarn/releases/yarn.cjs',
    );
    expect((await check()).how).toBe('watch');
  });

  it('scans again after a folder is renamed or removed, then watches the tree as it is', async () => {
    const { root, check } = await pair({ 'a.txt': 'a', 'old/b.txt': 'b', 'gone/deep/c.txt': 'c' });
    await sh(root, 'mv old new && mkdir old && echo c > old/c.txt');
    expect((await check()).how).toBe('scan');
    await sh(root, 'echo changed > new/b.txt && echo d > old/d.txt');
    expect((await check()).how).toBe('watch');
    await sh(root, 'rm -r gone');
    expect((await check()).how).toBe('scan');
  });

  it('watches the repositories nested in the workspace, whose files it holds', async () => {
    const { root, check } = await pair({ 'a.txt': 'a' });
    // lib: a clone with a commit; old: a repository git refuses to read (a format from the future); none: one with
    // no file yet. Made elsewhere and moved in: a new folder holding a `.git` makes a stage scan.
    const away = await tempDir('keel-watch-repos-', track);
    const commit = 'git add -A && git -c user.name=t -c user.email=t@t commit -qm c';
    await sh(away, 'mkdir lib old none && echo l > lib/l.txt && echo o > old/o.txt && git init -q none');
    await sh(join(away, 'lib'), `git init -q && ${commit}`);
    await sh(join(away, 'old'), `git init -q && ${commit} && git config core.repositoryformatversion 99`);
    await sh(root, `mv ${away}/lib ${away}/old ${away}/none .`);
    expect((await check()).how).toBe('scan');
    await sh(root, 'echo more >> lib/l.txt && echo n > lib/new.txt && echo changed > a.txt');
    expect((await check()).how).toBe('watch');
    await sh(root, 'rm lib/l.txt && mkdir lib/deep && echo d > lib/deep/d.txt && echo more >> old/o.txt');
    expect((await check()).how).toBe('watch');
    await sh(root, 'echo first > none/first.txt');
    await check();
    await sh(root, 'echo second >> none/first.txt');
    expect((await check()).how).toBe('watch');
  });

  it('scans after the watch is closed', async () => {
    const { root, watch, check } = await pair({ 'a.txt': 'a' });
    watch.close();
    await sh(root, 'echo changed > a.txt');
    expect((await check()).how).toBe('scan');
  });
});

describe('closing the watch', () => {
  /** The kernel watches this process holds: one `inotify wd:` line each in its inotify descriptors' fdinfo. */
  const kernelWatches = async () => {
    let count = 0;
    for (const fd of await fs.readdir('/proc/self/fdinfo')) {
      const info = await fs.readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => '');
      count += info.split('\n').filter((line) => line.startsWith('inotify wd:')).length;
    }
    return count;
  };

  it('ends every kernel watch, a batch a turn after close returns', async () => {
    const root = await tempDir('keel-watch-close-', track);
    for (let i = 0; i < 1500; i++) await fs.mkdir(join(root, `d${i}`));
    const before = await kernelWatches();
    const watch = treeWatch(root);
    await watch.start();
    expect((await kernelWatches()) - before).toBe(1501);
    watch.close();
    expect(watch.has('d1')).toBe(false);
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(await kernelWatches()).toBe(before);
  });
});

describe('how many directories are watched', () => {
  it.each([
    [undefined, 10_000], // no /proc: the old fixed limit
    [8192, 2048], // an old kernel's default: a quarter of it
    [192_536, 48_134], // a newer default: big repositories (babel's 13k folders) are watched
    [1_048_576, 50_000], // never over 50,000
  ])('with max_user_watches %s: %i', (watches, limit) => {
    expect(dirLimit(watches)).toBe(limit);
  });
});
