// Repositories nested in the workspace, whose files checkpoints take in as any other's: a submodule's index seeding
// the shadow's, another's first file starting git's walk of it; an undo to a checkpoint that recorded one by its
// commit keeps the folder's files as they are.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexLookup, readIndexEntries } from '../../src/checkpoint/index-trees.js';
import {
  firstFile,
  keepNestedFolders,
  nestedSeed,
  populatedGitlinks,
  withoutNestedTransition,
} from '../../src/checkpoint/nested-repos.js';
import { exec } from '../support/small-shell.js';

const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};
const git = async (cwd: string, ...args: string[]) => (await exec('git', args, { cwd, env: gitEnv })).trim();
const commit = (cwd: string) => git(cwd, 'commit', '-q', '-m', 'c');

let base = '';
const write = async (path: string, content: string) => {
  await fs.mkdir(join(base, path, '..'), { recursive: true });
  await fs.writeFile(join(base, path), content);
};

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'keel-nested-repos-')));
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('nested repositories', () => {
  it("names a nested repository's first file: the smallest of the first folder that has one, never in .git", async () => {
    await write('ws/lib/.git/HEAD', 'ref: refs/heads/main\n');
    await write('ws/lib/node_modules/x.js', 'x');
    await write('ws/lib/src/deep/big.ts', 'a bigger file\n');
    await write('ws/lib/src/small.ts', 's');
    await write('ws/lib/src/more.ts', 'more\n');
    expect(await firstFile(join(base, 'ws'), 'lib')).toBe('lib/src/small.ts');
    await write('ws/lib/README', 'top\n');
    expect(await firstFile(join(base, 'ws'), 'lib')).toBe('lib/README');
    // None over checkpoints.max_file_mb.
    expect(await firstFile(join(base, 'ws'), 'lib', 3)).toBe('lib/src/small.ts');
    await fs.mkdir(join(base, 'ws/empty/.git'), { recursive: true });
    expect(await firstFile(join(base, 'ws'), 'empty')).toBeUndefined();
  });

  it('finds the gitlinks of an index whose folders hold a repository, and which folders it holds files under', async () => {
    const root = join(base, 'super');
    await write('super/top.txt', 'top\n');
    await write('sublib/s.txt', 's\n');
    await git(join(base, 'sublib'), 'init', '-q');
    await git(join(base, 'sublib'), 'add', '-A');
    await commit(join(base, 'sublib'));
    await git(root, 'init', '-q');
    const addSubmodule = (path: string) =>
      git(root, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', join(base, 'sublib'), path);
    await addSubmodule('mod');
    await addSubmodule('gone');
    await git(root, 'add', '-A');
    await commit(root);
    await git(root, 'submodule', 'deinit', '-q', '-f', 'gone');
    const entries = readIndexEntries(await fs.readFile(join(root, '.git/index')));
    // `gone` is not checked out: an empty folder, nothing to hold.
    expect(await populatedGitlinks(root, entries)).toEqual(['mod']);
    // A submodule's objects live under the repository's .git/modules: its index seeds the shadow's, named from the
    // top, with its stat data and object ids as they are.
    const seed = await nestedSeed(root, 'mod');
    expect(seed?.objects).toBe(join(root, '.git/modules/mod/objects'));
    expect(seed?.entries.map((e) => e.name.toString())).toEqual(['mod/s.txt']);
    expect(seed?.entries[0]?.meta.subarray(40).toString('hex')).toBe(
      await git(join(root, 'mod'), 'rev-parse', ':s.txt'),
    );
    // A clone keeps its objects inside the folder, which a command removing it takes along: not seeded.
    expect(await nestedSeed(base, 'sublib')).toBeUndefined();
    expect(indexLookup(entries).under('mod')).toBe(false);
    await git(root, 'rm', '-q', '--cached', 'mod');
    await git(root, 'update-index', '--add', 'mod/s.txt');
    const after = readIndexEntries(await fs.readFile(join(root, '.git/index')));
    expect(indexLookup(after).under('mod')).toBe(true);
    expect(indexLookup(after).under('mo')).toBe(false);
  });
});

describe('keepNestedFolders', () => {
  it("makes a target's gitlink the current tree's folder of files, the rest of the target as it is", async () => {
    const repo = join(base, 'store');
    await git(base, 'init', '-q', '--bare', repo);
    const run = (args: readonly string[], input?: string) =>
      exec('git', [...args], { env: { ...gitEnv, GIT_DIR: repo }, ...(input ? { input } : {}) });
    const blob = async (text: string) => (await run(['hash-object', '-w', '--stdin'], text)).trim();
    const tree = async (lines: string[]) =>
      (await run(['mktree', '--missing'], `${lines.join('\n')}\n`)).trim();
    const commitOf = async (id: string) => (await run(['commit-tree', id, '-m', 'c'])).trim();
    const link = '1'.repeat(40);
    const [old, now, file] = [await blob('old\n'), await blob('now\n'), await blob('lib\n')];
    const libNow = await tree([`100644 blob ${file}\tlib.txt`]);
    // The target (an old checkpoint): vendor/lib by its commit. Now: its files, and top.txt changed.
    const target = await commitOf(
      await tree([
        `100644 blob ${old}\ttop.txt`,
        `040000 tree ${await tree([`160000 commit ${link}\tlib`, `100644 blob ${old}\tv.txt`])}\tvendor`,
      ]),
    );
    const current = await commitOf(
      await tree([
        `100644 blob ${now}\ttop.txt`,
        `040000 tree ${await tree([`040000 tree ${libNow}\tlib`, `100644 blob ${now}\tv.txt`])}\tvendor`,
      ]),
    );
    const kept = await keepNestedFolders(run, current, target);
    expect(kept).not.toBe(target);
    const listed = (await run(['ls-tree', '-r', kept])).trim().split('\n');
    expect(listed).toEqual([
      `100644 blob ${old}\ttop.txt`,
      `100644 blob ${file}\tvendor/lib/lib.txt`,
      `100644 blob ${old}\tvendor/v.txt`,
    ]);
    // No gitlink met by a folder: the target as it is.
    expect(await keepNestedFolders(run, target, current)).toBe(current);
  });
});

describe('withoutNestedTransition', () => {
  it('drops a gitlink "deleted" with the files "created" under it, and nothing else', () => {
    const changes = [
      { status: 'M', path: 'top.txt' },
      { status: 'D', path: 'vendor/lib' },
      { status: 'A', path: 'vendor/lib/a.txt' },
      { status: 'A', path: 'vendor/lib/deep/b.txt' },
      { status: 'D', path: 'gone.txt' },
      { status: 'A', path: 'vendor/libx/c.txt' },
    ];
    expect(withoutNestedTransition(changes)).toEqual([
      { status: 'M', path: 'top.txt' },
      { status: 'D', path: 'gone.txt' },
      { status: 'A', path: 'vendor/libx/c.txt' },
    ]);
    expect(withoutNestedTransition(changes.slice(0, 2))).toEqual(changes.slice(0, 2));
  });
});
