// The index's cache tree (git's TREE extension) read by Keel: the folders git has not changed since it wrote their
// trees, which a first checkpoint takes instead of making (seeded from the user's index, only the trees above what
// differs are written), and only when the store can read them.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedTrees } from '../../src/checkpoint/git-index.js';
import { readIndexEntries } from '../../src/checkpoint/index-trees.js';
import { shadowIndex } from '../../src/checkpoint/shadow-index.js';
import { exec } from '../support/small-shell.js';

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd, env: gitEnv })).trim();
const FILES = ['a/x.txt', 'a/y/z/deep.txt', 'a/y/w.txt', 'b/c.txt', 'café/ñ.txt', 'top.txt'];
const FOLDERS = ['', 'a', 'a/y', 'a/y/z', 'b', 'café'];

let root = '';
const cache = async () => {
  const entries = readIndexEntries(await fs.readFile(join(root, '.git', 'index')));
  const trees = cachedTrees(entries.buf, entries.extensionsAt);
  // Paths come as latin1 strings of their bytes, as the tree builder names folders.
  return new Map([...trees].map(([k, v]) => [Buffer.from(k, 'latin1').toString('utf8'), v.toString('hex')]));
};
const treeOf = (folder: string) => git(root, 'rev-parse', folder === '' ? 'HEAD^{tree}' : `HEAD:${folder}`);

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'keel-cache-tree-')));
  await git(root, 'init', '-q');
  for (const path of FILES) {
    await fs.mkdir(join(root, path, '..'), { recursive: true });
    await fs.writeFile(join(root, path), `content of ${path}\n`);
  }
  await git(root, 'add', '-A');
  await git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'one');
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('the cache tree', () => {
  it("names every folder's tree after a commit, in each index version", async () => {
    for (const version of [2, 3, 4]) {
      await git(root, 'update-index', '--index-version', String(version));
      await git(root, 'write-tree');
      const trees = await cache();
      expect([...trees.keys()].sort()).toEqual(FOLDERS);
      for (const folder of FOLDERS) expect(trees.get(folder)).toBe(await treeOf(folder));
    }
  });

  it('leaves out a changed path and the folders above it, as git invalidates them', async () => {
    await fs.writeFile(join(root, 'a/y/z/deep.txt'), 'changed\n');
    await git(root, 'add', 'a/y/z/deep.txt');
    try {
      const trees = await cache();
      expect([...trees.keys()].sort()).toEqual(['b', 'café']);
      expect(trees.get('b')).toBe(await treeOf('b'));
    } finally {
      await git(root, 'checkout', '-q', 'HEAD', '--', 'a/y/z/deep.txt');
      await git(root, 'reset', '-q');
    }
  });

  it('is empty when the index has none or it cannot be read', () => {
    const index = (extension: Buffer) => Buffer.concat([extension, Buffer.alloc(20)]);
    const ext = (body: string) => {
      const head = Buffer.alloc(8);
      head.write('TREE', 0, 'latin1');
      head.writeUInt32BE(Buffer.byteLength(body, 'latin1'), 4);
      return Buffer.concat([head, Buffer.from(body, 'latin1')]);
    };
    const id = 'i'.repeat(20);
    expect(cachedTrees(index(Buffer.alloc(0)), 0).size).toBe(0);
    expect(cachedTrees(index(ext(`\x001 1\n${id}a\x00x 0\n${id}`)), 0).size).toBe(0); // an entry count that is no number
    expect(cachedTrees(index(ext(`\x001 0\n${id}\x001 0\n${id}`)), 0).size).toBe(0); // two roots
    expect(cachedTrees(index(ext(`\x001 1\n${id}a\x001 0\n${id.slice(5)}`)), 0).size).toBe(0); // cut short
    const valid = cachedTrees(index(ext(`\x00-1 2\na\x001 0\n${id}b\x00-1 1\nc\x001 0\n${id}`)), 0);
    expect([...valid.keys()]).toEqual(['a', 'b/c']);
  });
});

describe("a first checkpoint's trees", () => {
  it('take the folders the cache tree names, once the store can read them: only the root is made', async () => {
    await git(root, 'write-tree');
    const asked: string[][] = [];
    const index = shadowIndex(join(root, '.git'), {
      missing: async (ids) => {
        asked.push([...ids]);
        return new Set();
      },
    });
    const known = new Set<string>();
    expect(await index.writeTrees(known)).toBe(await treeOf(''));
    expect(known).toEqual(new Set([await treeOf('')]));
    // Only the outermost folders taken are asked about: a tree inside a readable tree is readable.
    expect(asked.map((ids) => ids.sort())).toEqual([
      (await Promise.all(['a', 'b', 'café'].map(treeOf))).sort(),
    ]);
  });

  it('are all made, as before, when one the cache tree names cannot be read', async () => {
    const index = shadowIndex(join(root, '.git'), { missing: async (ids) => new Set(ids.slice(0, 1)) });
    const known = new Set<string>();
    expect(await index.writeTrees(known)).toBe(await treeOf(''));
    expect(known).toEqual(new Set(await Promise.all(FOLDERS.map(treeOf))));
  });

  it('are copied into the store after the change: by git when it can, else made here', async () => {
    await git(root, 'write-tree');
    // A store of its own (empty) seeded with the user's index, as the shadow repository is.
    const store = await mkdtemp(join(tmpdir(), 'keel-cache-tree-store-'));
    try {
      await fs.mkdir(join(store, 'objects', 'pack'), { recursive: true });
      await fs.copyFile(join(root, '.git', 'index'), join(store, 'index'));
      const outermost = (await Promise.all(['a', 'b', 'café'].map(treeOf))).sort();
      const copied: string[][] = [];
      const byGit = shadowIndex(store, {
        missing: async () => new Set(),
        copy: async (ids) => {
          copied.push([...ids].sort());
        },
      });
      await byGit.writeTrees(new Set());
      await byGit.copyTaken(new Set());
      expect(copied).toEqual([outermost]);
      // Where git cannot copy them (the recording copy above wrote nothing), they are made here, every one.
      const failing = shadowIndex(store, {
        missing: async () => new Set(),
        copy: async () => {
          throw new Error('git cannot');
        },
      });
      const known = new Set<string>();
      await failing.writeTrees(known);
      await failing.copyTaken(known);
      expect(known).toEqual(new Set(await Promise.all(FOLDERS.map(treeOf))));
    } finally {
      await rm(store, { recursive: true, force: true });
    }
  });

  it('are all made without a way to ask the store', async () => {
    const known = new Set<string>();
    expect(await shadowIndex(join(root, '.git')).writeTrees(known)).toBe(await treeOf(''));
    expect(known.size).toBe(FOLDERS.length);
  });
});
