// readHead: where the workspace repository's HEAD points, read from its files as git writes them (loose and packed
// branches, detached, before the first commit, a linked worktree), which a checkpoint records for `keel undo`.
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readHead } from '../../src/checkpoint/user-repo.js';
import { git } from '../support/small-shell.js';

const ident = ['-c', 'user.name=t', '-c', 'user.email=t@localhost'];
let repo: string;
let first: string;

beforeAll(async () => {
  repo = await fs.mkdtemp(join(tmpdir(), 'keel-head-'));
  await git(repo, ['init', '-q', '-b', 'main']);
  await fs.writeFile(join(repo, 'a.txt'), 'a\n');
  await git(repo, ['add', 'a.txt']);
  await git(repo, [...ident, 'commit', '-qm', 'one']);
  first = (await git(repo, ['rev-parse', 'HEAD'])).trim();
});

describe('readHead', () => {
  it('gives the branch and its commit, as git rev-parse does', async () => {
    expect(await readHead(repo)).toBe(`refs/heads/main ${first}`);
  });

  it('reads a branch git packed into packed-refs', async () => {
    const packed = await fs.mkdtemp(join(tmpdir(), 'keel-head-packed-'));
    await git(packed, ['clone', '-q', repo, '.']);
    await git(packed, ['pack-refs', '--all', '--prune']);
    await expect(fs.stat(join(packed, '.git/refs/heads/main'))).rejects.toThrow();
    expect(await readHead(packed)).toBe(`refs/heads/main ${first}`);
  });

  it('gives the commit alone when HEAD is detached, and the branch alone before its first commit', async () => {
    const detached = await fs.mkdtemp(join(tmpdir(), 'keel-head-detached-'));
    await git(detached, ['clone', '-q', repo, '.']);
    await git(detached, ['checkout', '-q', '--detach']);
    expect(await readHead(detached)).toBe(first);
    const empty = await fs.mkdtemp(join(tmpdir(), 'keel-head-empty-'));
    await git(empty, ['init', '-q', '-b', 'trunk']);
    expect(await readHead(empty)).toBe('refs/heads/trunk');
  });

  it("follows a linked worktree's .git file to its own HEAD and the common branches", async () => {
    const tree = join(await fs.mkdtemp(join(tmpdir(), 'keel-head-wt-')), 'wt');
    await git(repo, ['worktree', 'add', '-q', '-b', 'side', tree]);
    expect(await readHead(tree)).toBe(`refs/heads/side ${first}`);
  });

  it('is undefined where the folder has no .git of its own', async () => {
    expect(await readHead(join(repo, 'nowhere'))).toBeUndefined();
    expect(await readHead(tmpdir())).toBeUndefined();
  });
});
