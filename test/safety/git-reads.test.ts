// What git reads for the workspace's repository, as git says: the hooks folder core.hooksPath names (asked again
// when a settings file changed) and the settings files, included ones too.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitReadsLookup, settingsFiles } from '../../src/safety/git-reads.js';
import { useCleanup } from '../support/cleanup.js';
import { git } from '../support/small-shell.js';

const track = useCleanup();

async function folder(): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'keel-git-reads-')));
  track(() => rm(root, { recursive: true, force: true }));
  return root;
}

describe('the settings files in git config --list --show-origin -z', () => {
  const entry = (origin: string, key: string, value?: string) =>
    `${origin}\0${value === undefined ? key : `${key}\n${value}`}\0`;
  const cases: [string, string, string[]][] = [
    [
      'one file, relative to the repository',
      entry('file:.git/config', 'core.bare', 'false'),
      ['/r/.git/config'],
    ],
    [
      'an include, relative to the file that names it',
      entry('file:.git/config', 'include.path', '../shared.gitconfig'),
      ['/r/.git/config', '/r/shared.gitconfig'],
    ],
    [
      'a conditional include in the home directory',
      entry('file:/h/.gitconfig', 'includeif.gitdir:/r/.path', '~/work.gitconfig'),
      ['/h/.gitconfig', '/h/work.gitconfig'],
    ],
    [
      'settings from the command line and a key without a value',
      entry('command line:', 'core.pager', 'cat') + entry('file:/etc/gitconfig', 'core.bare'),
      ['/etc/gitconfig'],
    ],
    ['nothing', '', []],
  ];
  it.each(cases)('%s', (_what, listing, files) => {
    expect(settingsFiles(listing, '/r', '/h')).toEqual(files);
  });
});

describe('the lookup', () => {
  it('finds nothing outside a repository', async () => {
    const root = await folder();
    expect(await gitReadsLookup(root, process.env)()).toEqual({ settings: [] });
  });

  it('names the hooks folder as git does, and again after core.hooksPath changes', async () => {
    const root = await folder();
    await git(root, ['init', '-q']);
    await fs.mkdir(join(root, 'sub'));
    const lookup = gitReadsLookup(join(root, 'sub'), process.env);
    const first = await lookup();
    expect(first.hooks).toBe(join(root, '.git/hooks'));
    expect(first.settings).toContain(join(root, '.git/config'));
    await git(root, ['config', 'core.hooksPath', '.husky/_']);
    expect((await lookup()).hooks).toBe(join(root, '.husky/_'));
    await git(root, ['config', 'extensions.worktreeConfig', 'true']);
    await git(root, ['config', '--worktree', 'core.hooksPath', 'hooks']);
    expect((await lookup()).hooks).toBe(join(root, 'hooks'));
  });

  it('asks git again only when a settings file changed, not when git wrote its index', async () => {
    const root = await folder();
    await git(root, ['init', '-q']);
    const bin = await folder();
    const log = join(bin, 'calls');
    const real = (await git(root, ['--exec-path'])).trim();
    await fs.writeFile(join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}/git' "$@"\n`, {
      mode: 0o755,
    });
    const lookup = gitReadsLookup(root, { ...process.env, PATH: `${bin}:${process.env.PATH}` });
    const calls = async () =>
      (await fs.readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    await lookup();
    await lookup();
    expect(await calls()).toBe(2);
    await fs.writeFile(join(root, 'a.txt'), 'a\n');
    await git(root, ['add', 'a.txt']);
    await lookup();
    expect(await calls()).toBe(2);
    await git(root, ['config', 'core.hooksPath', 'hooks']);
    expect((await lookup()).hooks).toBe(join(root, 'hooks'));
    expect(await calls()).toBe(4);
  });
});
