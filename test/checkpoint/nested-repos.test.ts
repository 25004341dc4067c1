// Repositories nested in the workspace, whose files checkpoints take in as any other's: listed by git inside each
// (never the repository above it, never running a program its config names), and an undo to a checkpoint that
// recorded one by its commit keeping the folder's files as they are.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIndexEntries } from '../../src/checkpoint/index-trees.js';
import {
  holdsFilesUnder,
  keepNestedFolders,
  listNested,
  nestedSeed,
  populatedGitlinks,
} from '../../src/checkpoint/nested-repos.js';
import { shadowGit } from '../../src/checkpoint/shadow-git.js';
import { exec, shellGit } from '../support/small-shell.js';

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

describe('listNested', () => {
  it("lists a nested repository's files, ignored ones apart, and those of repositories inside it", async () => {
    const root = join(base, 'ws');
    await write('ws/lib/a.txt', 'a\n');
    await write('ws/lib/gone.txt', 'gone\n');
    await write('ws/lib/.gitignore', '*.log\nnode_modules/\n');
    await git(join(root, 'lib'), 'init', '-q');
    await git(join(root, 'lib'), 'add', '-A');
    await commit(join(root, 'lib'));
    await fs.rm(join(root, 'lib/gone.txt'));
    await write('ws/lib/new/b.txt', 'b\n');
    await write('ws/lib/run.log', 'log\n');
    await write('ws/lib/node_modules/x/i.js', 'x\n');
    // A repository inside it with no commit yet, and a `.git` that is no repository: a plain folder to git.
    await write('ws/lib/inner/i.txt', 'i\n');
    await git(join(root, 'lib/inner'), 'init', '-q');
    await write('ws/lib/fake/.git/HEAD', 'ref: refs/heads/main\n');
    await write('ws/lib/fake/f.txt', 'f\n');
    // A program the nested repository's config names for fsmonitor: ls-files would run it.
    const marker = join(base, 'fsmonitor-ran');
    await write('hook.sh', `#!/bin/sh\ntouch ${marker}\n`);
    await fs.chmod(join(base, 'hook.sh'), 0o755);
    await git(join(root, 'lib'), 'config', 'core.fsmonitor', join(base, 'hook.sh'));

    const shadow = shadowGit(join(base, 'shadow'), root, process.env, shellGit);
    const listing = await listNested(root, ['lib', 'missing'], shadow.runNested);
    expect(listing.listed).toEqual(['lib', 'lib/inner']);
    // A tracked file deleted since is listed too: the shadow index drops it.
    expect(listing.files.sort()).toEqual([
      'lib/.gitignore',
      'lib/a.txt',
      'lib/fake/f.txt',
      'lib/gone.txt',
      'lib/inner/i.txt',
      'lib/new/b.txt',
    ]);
    expect(listing.ignored.sort()).toEqual(['lib/node_modules/', 'lib/run.log']);
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it('finds the gitlinks of an index whose folders hold a repository, and which folders it holds files under', async () => {
    const root = join(base, 'super');
    await write('super/top.txt', 'top\n');
    await write('sublib/s.txt', 's\n');
    await git(join(base, 'sublib'), 'init', '-q');
    await git(join(base, 'sublib'), 'add', '-A');
    await commit(join(base, 'sublib'));
    await git(root, 'init', '-q');
    await git(
      root,
      '-c',
      'protocol.file.allow=always',
      'submodule',
      'add',
      '-q',
      join(base, 'sublib'),
      'mod',
    );
    await git(
      root,
      '-c',
      'protocol.file.allow=always',
      'submodule',
      'add',
      '-q',
      join(base, 'sublib'),
      'gone',
    );
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
    expect(holdsFilesUnder(entries, 'mod/')).toBe(false);
    await git(root, 'rm', '-q', '--cached', 'mod');
    await git(root, 'update-index', '--add', 'mod/s.txt');
    const after = readIndexEntries(await fs.readFile(join(root, '.git/index')));
    expect(holdsFilesUnder(after, 'mod/')).toBe(true);
    expect(holdsFilesUnder(after, 'mo')).toBe(false);
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
