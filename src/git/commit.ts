// What a Keel commit holds and how it is made: the staged changes when there are any, else exactly the paths
// asked for (the ones Keel changed, or the user's) that git sees changed; a normal `git commit -F` (hooks run,
// nothing amended, nothing pushed); a declined commit leaves the index as it was.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Git, GitError, gitFailure } from './git.js';

export interface CommitChanges {
  /** Top-level-relative paths the commit holds (as `git diff --cached --name-only` lists them). */
  files: string[];
  /** `staged`: the user's own staged changes; `paths`: Keel staged the paths it was given. */
  source: 'staged' | 'paths';
  /** `git diff --cached --stat` and the patch, for the message. */
  stat: string;
  diff: string;
}

const split0 = (text: string) => text.split('\0').filter((p) => p !== '');

/** Whether HEAD names a commit yet (a new repository's branch is unborn). */
async function hasHead(git: Git): Promise<boolean> {
  return (await git.run(['rev-parse', '--verify', '--quiet', 'HEAD'])).code === 0;
}

/** Of `paths` (top-relative pathspecs, taken literally), the files git reports changed: modified, new or deleted. */
export async function changedAmong(git: Git, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const status = await git.out([
    '--literal-pathspecs',
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--no-renames',
    '--',
    ...paths,
  ]);
  // Each entry is `XY path`; ignored files are not listed without --ignored.
  return split0(status).map((entry) => entry.slice(3));
}

async function staged(git: Git): Promise<string[]> {
  return split0(await git.out(['diff', '--cached', '--name-only', '-z', '--no-renames']));
}

/** Whether the index holds changes not yet committed. */
export async function hasStaged(git: Git): Promise<boolean> {
  return (await staged(git)).length > 0;
}

async function describeStaged(git: Git, files: string[], source: CommitChanges['source']) {
  const stat = await git.out(['diff', '--cached', '--no-color', '--stat']);
  const diff = await git.out(['diff', '--cached', '--no-color', '--no-ext-diff']);
  return { files, source, stat, diff };
}

/**
 * The changes a commit would hold: what is staged, if anything; otherwise `paths` are staged (only those git
 * sees changed). Undefined when there is nothing to commit. `discard` undoes the staging if the user declines.
 */
export async function prepareCommit(git: Git, paths: readonly string[]): Promise<CommitChanges | undefined> {
  const already = await staged(git);
  if (already.length > 0) return describeStaged(git, already, 'staged');
  const changed = await changedAmong(git, paths);
  if (changed.length === 0) return undefined;
  await git.out(['--literal-pathspecs', 'add', '-A', '--', ...changed]);
  const files = await staged(git);
  if (files.length === 0) return undefined;
  return describeStaged(git, files, 'paths');
}

/** Puts the index back as it was before prepareCommit staged `changes` (a declined commit). */
export async function discardCommit(git: Git, changes: CommitChanges): Promise<void> {
  if (changes.source === 'staged' || changes.files.length === 0) return;
  const args = (await hasHead(git))
    ? ['--literal-pathspecs', 'reset', '-q', '--', ...changes.files]
    : ['--literal-pathspecs', 'rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', ...changes.files];
  await git.out(args);
}

export interface MadeCommit {
  /** The short hash of the new commit. */
  hash: string;
  subject: string;
}

/** `git commit -F <message file>`: the repository's hooks run; their refusal is a GitError with their output. */
export async function makeCommit(git: Git, message: string): Promise<MadeCommit> {
  // The message goes through a file outside the workspace, never an argument a shell would read.
  const dir = await mkdtemp(join(tmpdir(), 'keel-commit-'));
  try {
    const file = join(dir, 'COMMIT_MSG');
    await writeFile(file, message.endsWith('\n') ? message : `${message}\n`, { mode: 0o600 });
    const args = ['commit', '--quiet', '--cleanup=strip', '-F', file];
    const made = await git.run(args, { commit: true });
    if (made.code !== 0) {
      // git with no identity (a fresh machine, a container) says so among lines of advice: the fix, said plainly.
      const identity = /Please tell me who you are|unable to auto-detect email address/.test(made.stderr);
      throw new GitError(gitFailure(args, made), {
        hint: identity
          ? 'nothing was committed; the changes stay staged. git has no author identity here: set one with git config user.name "Your Name" and git config user.email you@example.com (--global for every repository), then commit again'
          : 'nothing was committed; the changes stay staged (a hook may have refused them)',
      });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const [hash = '', subject = ''] = (await git.out(['log', '-1', '--format=%h%x00%s'])).trim().split('\0');
  return { hash, subject };
}

/** The subjects and bodies of the last commits, so the message follows the repository's style ('' when none). */
export async function recentMessages(git: Git, count = 20): Promise<string> {
  if (!(await hasHead(git))) return '';
  return (await git.out(['log', `-n${count}`, '--no-merges', '--format=%s%n%b'])).trim();
}
