// The change `keel review` reviews: the working tree against HEAD (staged and unstaged, new files named), or,
// with a base, everything since the branch left it (its merge base), uncommitted changes included.
import { type Git, GitError } from './git.js';

/** git's empty tree: what a repository without commits is compared with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface ReviewChange {
  /** What is reviewed, in words for the model and the user. */
  what: string;
  stat: string;
  diff: string;
  /** New files git does not track yet (not in the diff). */
  untracked: string[];
}

async function mergeBase(git: Git, base: string): Promise<string> {
  if (base.startsWith('-')) throw new GitError(`not a ref: ${base}`, { usage: true });
  const found = await git.run(['merge-base', base, 'HEAD']);
  if (found.code !== 0) {
    throw new GitError(`no common ancestor of ${base} and HEAD (is ${base} a branch, tag or commit here?)`, {
      usage: true,
      hint: 'git branch -a lists the branches; fetch the base branch first in a shallow CI checkout',
    });
  }
  return found.stdout.trim();
}

/** `pathspecs`: top-relative paths, taken literally; empty: the whole repository. */
export async function reviewChange(
  git: Git,
  options: { base?: string; pathspecs: readonly string[] },
): Promise<ReviewChange> {
  const headExists = (await git.run(['rev-parse', '--verify', '--quiet', 'HEAD'])).code === 0;
  let from: string;
  let what: string;
  if (options.base !== undefined) {
    from = await mergeBase(git, options.base);
    what = `the changes since this branch left ${options.base} (merge base ${from.slice(0, 10)}), uncommitted ones included`;
  } else {
    from = headExists ? 'HEAD' : EMPTY_TREE;
    what = 'the uncommitted changes in the working tree';
  }
  const paths = options.pathspecs.length > 0 ? ['--', ...options.pathspecs] : [];
  const diffArgs = ['--literal-pathspecs', 'diff', '--no-color', '--no-ext-diff', '--no-renames', from];
  const stat = await git.out([...diffArgs, '--stat', ...paths]);
  const diff = await git.out([...diffArgs, ...paths]);
  const others = await git.out([
    '--literal-pathspecs',
    'ls-files',
    '--others',
    '--exclude-standard',
    '-z',
    ...paths,
  ]);
  return { what, stat, diff, untracked: others.split('\0').filter((p) => p !== '') };
}
