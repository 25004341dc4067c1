// The tree each checkpoint records is the one `git add -A && git write-tree` gives for the same files, whichever way
// the checkpoint found the changes (the first one's scan, later ones from the tree watch with the index patched in
// place and only the changed folders' trees rebuilt): after edits, adds, deletes, a symlink, executable bits, type
// changes; and the shadow store stays one git fsck finds whole.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkpointer } from '../../src/checkpoint/checkpointer.js';
import { checkpointDir } from '../../src/checkpoint/checkpoints.js';
import { exec, shellCheckpointer } from '../support/small-shell.js';

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
/** Forked from the small shell, not from this worker (see test/support/small-shell.ts). */
const git = async (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
  (
    await exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd,
      env: { ...gitEnv, ...env },
    })
  ).trim();

const FILES: Record<string, string> = {
  'a.txt': 'a\n',
  'src/b.ts': 'b\n',
  'src/deep/c.ts': 'c\n',
  'src/deep/d.ts': 'd\n',
  'docs/e.md': 'e\n',
  'tool.sh': 'echo hi\n',
};

/** Changes made behind Keel's back, as a shell command makes them, one step a checkpoint. */
const STEPS: [string, (root: string) => Promise<void>][] = [
  [
    'an edit deep in the tree',
    async (root) => {
      await fs.appendFile(join(root, 'src/deep/c.ts'), 'more\n');
    },
  ],
  [
    'edits in two folders and the root',
    async (root) => {
      await fs.appendFile(join(root, 'src/b.ts'), 'b2\n');
      await fs.appendFile(join(root, 'docs/e.md'), 'e2\n');
      await fs.writeFile(join(root, 'a.txt'), 'a, rewritten\n');
    },
  ],
  [
    'a new file beside old ones and a new folder of files',
    async (root) => {
      await fs.writeFile(join(root, 'src/deep/new.ts'), 'new\n');
      await fs.mkdir(join(root, 'lib/inner'), { recursive: true });
      await fs.writeFile(join(root, 'lib/inner/x.ts'), 'x\n');
      await fs.writeFile(join(root, 'lib/y.ts'), 'y\n');
    },
  ],
  [
    'a deleted file and a deleted folder',
    async (root) => {
      await fs.rm(join(root, 'src/deep/d.ts'));
      await fs.rm(join(root, 'docs'), { recursive: true });
    },
  ],
  [
    'a symlink made, then retargeted',
    async (root) => {
      await fs.symlink('a.txt', join(root, 'link'));
    },
  ],
  [
    'a retargeted symlink and an executable bit set',
    async (root) => {
      await fs.rm(join(root, 'link'));
      await fs.symlink('src/b.ts', join(root, 'link'));
      await fs.chmod(join(root, 'tool.sh'), 0o755);
    },
  ],
  [
    'an executable bit cleared and an edit of the same file',
    async (root) => {
      await fs.chmod(join(root, 'tool.sh'), 0o644);
      await fs.appendFile(join(root, 'tool.sh'), 'echo again\n');
    },
  ],
  [
    'a file replaced by a symlink and a symlink by a file',
    async (root) => {
      await fs.rm(join(root, 'lib/y.ts'));
      await fs.symlink('../a.txt', join(root, 'lib/y.ts'));
      await fs.rm(join(root, 'link'));
      await fs.writeFile(join(root, 'link'), 'a file now\n');
    },
  ],
  [
    'a folder emptied and a file where it was',
    async (root) => {
      await fs.rm(join(root, 'lib/inner'), { recursive: true });
      await fs.writeFile(join(root, 'lib/inner'), 'a file now\n');
    },
  ],
  [
    'a file replaced by a folder',
    async (root) => {
      await fs.rm(join(root, 'src/b.ts'));
      await fs.mkdir(join(root, 'src/b.ts'));
      await fs.writeFile(join(root, 'src/b.ts/inside.ts'), 'inside\n');
    },
  ],
];

describe.each([
  ['a folder without git', false],
  ['a git repository', true],
])('the tree a checkpoint records, in %s', (_name, repo) => {
  let root = '';
  let state = '';
  let refDir = '';
  let checkpointer: Checkpointer;
  let n = 0;

  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'keel-recorded-ws-')));
    state = await realpath(await mkdtemp(join(tmpdir(), 'keel-recorded-state-')));
    for (const [path, content] of Object.entries(FILES)) {
      await fs.mkdir(join(root, path, '..'), { recursive: true });
      await fs.writeFile(join(root, path), content);
    }
    if (repo) {
      await git(root, {}, 'init', '-q');
      await git(root, {}, 'add', '-A');
      await git(root, {}, 'commit', '-qm', 'init');
    }
    refDir = join(state, 'ref.git');
    await git(state, {}, 'init', '-q', '--bare', refDir);
    checkpointer = shellCheckpointer(root, state);
    checkpointer.startRun('r');
  });

  afterAll(async () => {
    checkpointer.close();
    await checkpointer.settle();
    await rm(root, { recursive: true, force: true });
    await rm(state, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  const shadow = () => ({ GIT_DIR: join(checkpointDir(state, root), 'git') });
  /** The newest checkpoint's tree, and plain git's tree of the same files: the three git commands in one shell. */
  const trees = async () => {
    await checkpointer.take({
      callId: `c${n++}`,
      tool: 'execute_command',
      preview: { reads: [], writes: [], summary: 'cmd' },
    });
    const script = [
      `GIT_DIR="$1" git rev-parse 'refs/keel/checkpoints^{tree}'`,
      'GIT_DIR="$2" GIT_WORK_TREE="$3" git add -A',
      'GIT_DIR="$2" GIT_WORK_TREE="$3" git write-tree',
    ].join(' && ');
    const out = await exec('sh', ['-c', script, 'sh', shadow().GIT_DIR, refDir, root], {
      cwd: root,
      env: gitEnv,
    });
    const [recorded, expected] = out.trim().split('\n');
    return { recorded, expected };
  };

  it('is git write-tree of the files at the first checkpoint', async () => {
    const { recorded, expected } = await trees();
    expect(recorded).toBe(expected);
  });

  it.each(STEPS)('is git write-tree of the files after %s', async (_step, change) => {
    await change(root);
    const { recorded, expected } = await trees();
    expect(recorded).toBe(expected);
  });

  it('leaves a store git fsck finds whole', async () => {
    const env = {
      ...shadow(),
      ...(repo ? { GIT_ALTERNATE_OBJECT_DIRECTORIES: join(root, '.git', 'objects') } : {}),
    };
    // exec rejects on a non-zero exit, with git's stderr.
    await git(root, env, 'fsck', '--strict', '--no-dangling', '--no-progress');
  });
});
