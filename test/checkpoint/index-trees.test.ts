// A checkpoint's trees written from the shadow index by Keel itself: the same tree ids git's write-tree gives, for
// the names whose order git treats specially, every mode, index versions 2 to 4, and objects git then reads.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTrees, readIndexEntries, writeIndexTrees } from '../../src/checkpoint/index-trees.js';
import { useCleanup } from '../support/cleanup.js';
import { exec } from '../support/small-shell.js';

const track = useCleanup();
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
/** git started from the small shell (not forked from this worker), its output trimmed. */
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd, env: gitEnv })).trim();

/** Paths whose order differs between plain sorting and git's (a folder sorts as if its name ended in `/`). */
const FILES = [
  'a-b/x.txt',
  'a.b',
  'a/x.txt',
  'a/y/z/deep.txt',
  'a0',
  'b/a b.txt',
  'café/ñ.txt',
  'z.txt',
  'tool.sh',
];

let root = '';

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'keel-trees-')));
  await git(root, 'init', '-q');
  for (const path of FILES) {
    await fs.mkdir(join(root, path, '..'), { recursive: true });
    await fs.writeFile(join(root, path), `content of ${path}\n`);
  }
  await fs.chmod(join(root, 'tool.sh'), 0o755);
  await fs.symlink('a.b', join(root, 'link'));
  await git(root, 'add', '-A');
  // A path over the 12-bit length field: git names its end by a NUL only.
  const long = `${'d'.repeat(200)}/${'e'.repeat(200)}/${'f'.repeat(200)}/${'g'.repeat(3500)}.txt`;
  const blob = await git(root, 'hash-object', '-w', '--stdin');
  await git(root, 'update-index', '--add', '--cacheinfo', `100644,${blob},${long}`);
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('trees built from the index', () => {
  it.each([2, 3, 4])('have the ids git write-tree gives, from an index of version %i', async (version) => {
    await git(root, 'update-index', '--index-version', String(version));
    const entries = readIndexEntries(await fs.readFile(join(root, '.git', 'index')));
    const trees = buildTrees(entries);
    expect(trees.at(-1)?.oid).toBe(await git(root, 'write-tree'));
    expect(entries.count).toBe(FILES.length + 2);
  });

  it('of a store with no index yet (an empty folder checkpointed) is the empty tree, as write-tree gives', async () => {
    const empty = await realpath(await mkdtemp(join(tmpdir(), 'keel-trees-empty-')));
    track(() => rm(empty, { recursive: true, force: true }));
    await git(empty, 'init', '-q');
    const gitDir = join(empty, '.git');
    await expect(fs.stat(join(gitDir, 'index'))).rejects.toThrow();
    expect(await writeIndexTrees(gitDir, new Set())).toBe(await git(empty, 'write-tree'));
  });

  it('leaves out intent-to-add entries, as git does', async () => {
    await fs.writeFile(join(root, 'later.txt'), 'later\n');
    await git(root, 'add', '-N', 'later.txt');
    try {
      const trees = buildTrees(readIndexEntries(await fs.readFile(join(root, '.git', 'index'))));
      expect(trees.at(-1)?.oid).toBe(await git(root, 'write-tree'));
    } finally {
      await git(root, 'rm', '-q', '--cached', 'later.txt');
    }
  });

  it('are written where git reads them, each once', async () => {
    const store = await realpath(await mkdtemp(join(tmpdir(), 'keel-trees-store-')));
    track(() => rm(store, { recursive: true, force: true }));
    await git(store, 'init', '-q', '--bare');
    await fs.copyFile(join(root, '.git', 'index'), join(store, 'index'));
    const known = new Set<string>();
    const tree = await writeIndexTrees(store, known);
    const env = {
      ...gitEnv,
      GIT_DIR: store,
      GIT_ALTERNATE_OBJECT_DIRECTORIES: join(root, '.git', 'objects'),
    };
    const listed = (await exec('git', ['ls-tree', '-r', '-z', '--name-only', tree], { env }))
      .split('\0')
      .filter(Boolean);
    expect(listed).toEqual((await git(root, 'ls-files', '-z')).split('\0').filter(Boolean));
    // Trees alone: the blobs stay in the repository they came from.
    const own = await exec('git', ['count-objects', '-v'], { env: { ...gitEnv, GIT_DIR: store } });
    expect(own).toContain(`count: ${known.size}\n`);
    expect(await writeIndexTrees(store, known)).toBe(tree);
  });
});

describe('trees a store holds in its packs', () => {
  it('are not packed again by a later process, which knows none of them yet', async () => {
    const store = await realpath(await mkdtemp(join(tmpdir(), 'keel-trees-packed-')));
    track(() => rm(store, { recursive: true, force: true }));
    await git(store, 'init', '-q', '--bare');
    // More folders than one snapshot writes loose: they go into one pack.
    const many = await realpath(await mkdtemp(join(tmpdir(), 'keel-trees-many-')));
    track(() => rm(many, { recursive: true, force: true }));
    await git(many, 'init', '-q');
    for (let i = 0; i < 300; i++) {
      await fs.mkdir(join(many, `d${i}`));
      await fs.writeFile(join(many, `d${i}`, 'f.txt'), `${i}\n`);
    }
    await git(many, 'add', '-A');
    await fs.copyFile(join(many, '.git', 'index'), join(store, 'index'));
    const packs = async () =>
      (await fs.readdir(join(store, 'objects', 'pack'))).filter((f) => f.endsWith('.pack'));
    const tree = await writeIndexTrees(store, new Set());
    expect(await packs()).toHaveLength(1);
    // A new process after one more file: nothing known, every tree but the two changed found in the pack.
    await fs.writeFile(join(many, 'd7', 'g.txt'), 'more\n');
    await git(many, 'add', '-A');
    await fs.copyFile(join(many, '.git', 'index'), join(store, 'index'));
    expect(await writeIndexTrees(store, new Set())).not.toBe(tree);
    expect(await packs()).toHaveLength(1);
    const loose = await exec('git', ['count-objects', '-v'], { env: { ...gitEnv, GIT_DIR: store } });
    expect(loose).toContain('count: 2\n');
  });
});
