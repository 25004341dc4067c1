// The tripwire and submodules, on real git: `git status` in the workspace runs git in every gitlink with a checkout,
// reading that repository's settings, so a core.fsmonitor planted there (or in `.git/modules/<name>/config`) would
// run outside the sandbox at the user's next `git status`. Planted settings and hooks are put back; what
// `git submodule add`, `update` and `deinit` do stands.
import { existsSync, promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitlinkPaths } from '../../src/safety/git-submodules.js';
import { createTripwire } from '../../src/safety/tripwire.js';
import { useCleanup } from '../support/cleanup.js';
import { git as shellGit } from '../support/small-shell.js';

const track = useCleanup();

const git = (cwd: string, ...args: string[]) =>
  shellGit(cwd, ['-c', 'user.name=k', '-c', 'user.email=k@k', '-c', 'protocol.file.allow=always', ...args]);

/** A repository with one commit, in a fresh temp folder (or at `dir`). */
async function repo(dir?: string): Promise<string> {
  const root = dir ?? (await realpath(await mkdtemp(join(tmpdir(), 'keel-tripwire-sub-'))));
  if (!dir) track(() => rm(root, { recursive: true, force: true }));
  await fs.mkdir(root, { recursive: true });
  await git(root, 'init', '-q');
  await fs.writeFile(join(root, 'a.txt'), 'a\n');
  await git(root, 'add', 'a.txt');
  await git(root, 'commit', '-q', '-m', 'first');
  return root;
}

async function around(root: string, change: () => unknown) {
  const armed = await createTripwire({ root, globs: [], env: process.env }).arm();
  await change();
  return (await armed.check()).map((t) => `${t.path} ${t.change}${t.restored ? '' : ' (not restored)'}`);
}

/** A core.fsmonitor line that leaves a marker when git runs it. */
const planted = (marker: string) => `[core]\n\tfsmonitor = "touch ${marker}; false"\n`;

/** Whether `git status` in the workspace ran a planted program. */
async function statusRuns(root: string, marker: string): Promise<boolean> {
  await git(root, 'status', '--porcelain').catch(() => '');
  return existsSync(marker);
}

describe('the tripwire and submodules', () => {
  it('reads the gitlinks of ls-files --stage', () => {
    const listing = [
      '100644 0123 0\ta.txt',
      '160000 4567 0\tvendor/lib',
      '160000 89ab 0\tname with\ttab',
      '120000 cdef 0\tlink',
      '',
    ].join('\0');
    expect(gitlinkPaths(listing)).toEqual(['vendor/lib', 'name with\ttab']);
  });

  it('puts back a fsmonitor planted in an added repository: git status there would run it', async () => {
    const root = await repo();
    await repo(join(root, 'lib'));
    await git(root, 'add', 'lib');
    const config = await fs.readFile(join(root, 'lib/.git/config'), 'utf8');
    const marker = join(root, 'ran');
    const tripped = await around(root, () => fs.appendFile(join(root, 'lib/.git/config'), planted(marker)));
    expect(tripped).toEqual(['lib/.git/config changed']);
    expect(await fs.readFile(join(root, 'lib/.git/config'), 'utf8')).toBe(config);
    expect(await statusRuns(root, marker)).toBe(false);
  });

  it('removes the settings of a repository made, added and planted in one call', async () => {
    const root = await repo();
    const marker = join(root, 'ran');
    const tripped = await around(root, async () => {
      await repo(join(root, 'evil'));
      await git(root, 'add', 'evil');
      await fs.appendFile(join(root, 'evil/.git/config'), planted(marker));
      await fs.writeFile(join(root, 'evil/.git/hooks/post-checkout'), '#!/bin/sh\ntouch x\n');
    });
    expect(tripped).toEqual(['evil/.git/hooks/post-checkout created', 'evil/.git/config created']);
    expect(await statusRuns(root, marker)).toBe(false);
  });

  it("removes a gitlink's .git made a link to a repository with planted settings", async () => {
    const root = await repo();
    await repo(join(root, 'lib'));
    await git(root, 'add', 'lib');
    await git(root, 'commit', '-q', '-m', 'lib');
    const marker = join(root, 'ran');
    await repo(join(root, 'evil'));
    await fs.appendFile(join(root, 'evil/.git/config'), planted(marker));
    const tripped = await around(root, async () => {
      await fs.rename(join(root, 'lib/.git'), join(root, 'lib-git'));
      await fs.symlink('../evil/.git', join(root, 'lib/.git'));
    });
    // The link goes, and the settings git would have read through it.
    expect(tripped).toEqual(['evil/.git/config created', 'lib/.git created', 'lib/.git/config changed']);
    expect((await fs.lstat(join(root, 'lib/.git'))).isSymbolicLink()).toBe(false);
    expect(await statusRuns(root, marker)).toBe(false);
  });

  it("puts back a submodule's settings and hooks under .git/modules, and its .git file pointed elsewhere", async () => {
    const source = await repo();
    const root = await repo();
    await git(root, 'submodule', 'add', '-q', source, 'sub');
    await git(root, 'commit', '-q', '-m', 'sub');
    const marker = join(root, 'ran');
    const tripped = await around(root, async () => {
      await fs.appendFile(join(root, '.git/modules/sub/config'), planted(marker));
      await fs.writeFile(join(root, '.git/modules/sub/hooks/post-checkout'), '#!/bin/sh\ntouch x\n');
    });
    expect(tripped).toEqual([
      '.git/modules/sub/hooks/post-checkout created',
      '.git/modules/sub/config changed',
    ]);
    expect(await statusRuns(root, marker)).toBe(false);
    // A .git file pointed at a repository outside .git/modules (one with planted settings) is put back.
    await fs.mkdir(join(root, 'evil.git'));
    const redirected = await around(root, () =>
      fs.writeFile(join(root, 'sub/.git'), 'gitdir: ../evil.git\n'),
    );
    expect(redirected).toEqual(['sub/.git changed']);
    expect(await fs.readFile(join(root, 'sub/.git'), 'utf8')).toBe('gitdir: ../.git/modules/sub\n');
  });

  it('lets git submodule add, then deinit and removal, stand', async () => {
    const source = await repo();
    const root = await repo();
    expect(await around(root, () => git(root, 'submodule', 'add', '-q', source, 'vendor/dep'))).toEqual([]);
    expect(await fs.readFile(join(root, 'vendor/dep/.git'), 'utf8')).toBe(
      'gitdir: ../../.git/modules/vendor/dep\n',
    );
    await git(root, 'commit', '-q', '-m', 'dep');
    const removed = await around(root, async () => {
      await git(root, 'submodule', 'deinit', '-q', '-f', 'vendor/dep');
      await git(root, 'rm', '-q', '-f', 'vendor/dep');
      await fs.rm(join(root, '.git/modules/vendor/dep'), { recursive: true, force: true });
    });
    expect(removed).toEqual([]);
    expect(existsSync(join(root, '.git/modules/vendor/dep'))).toBe(false);
  });
});
