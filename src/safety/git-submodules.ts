// The repositories git also works in when it works in the workspace's: its submodules. `git status` runs git in each
// gitlink of the index that has a checkout, reading that repository's settings (a core.fsmonitor there runs a
// program), and `git submodule update` runs its hooks. Their git folders are where git keeps them: under
// `.git/modules/` (nested ones under `modules/` of their parent's), or `<path>/.git` itself for a repository added as
// it was (`git add vendor/lib`); the `<path>/.git` file of an absorbed one names its folder.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gitOutput } from './git-reads.js';
import { isInside } from './workspace.js';

export interface SubmoduleGits {
  /** Workspace-relative git folders of submodules: each one's settings files and hooks are watched. */
  gitDirs: string[];
  /** Workspace-relative `.git` files (`gitdir: …`) and links of gitlinks: each points git at a folder. */
  dotGitFiles: string[];
}

/** Folders looked into under `.git/modules` at most: a repository with hundreds of submodules stays bounded. */
const MAX_MODULE_FOLDERS = 1000;

const isFile = async (p: string) => (await fs.lstat(p).catch(() => undefined))?.isFile() === true;

/** The git folders under `.git/modules`: a folder with HEAD and config is one; a submodule's name may hold `/`. */
async function moduleGitDirs(root: string): Promise<string[]> {
  const found: string[] = [];
  const queue = ['.git/modules'];
  for (let seen = 0; queue.length > 0 && seen < MAX_MODULE_FOLDERS; seen++) {
    const rel = queue.shift() as string;
    const absolute = path.join(root, rel);
    const entries = await fs.readdir(absolute, { withFileTypes: true }).catch(() => []);
    if (entries.length === 0) continue;
    const names = new Set(entries.map((e) => e.name));
    if (rel !== '.git/modules' && names.has('HEAD') && names.has('config')) {
      found.push(rel);
      if (names.has('modules')) queue.push(`${rel}/modules`);
      continue;
    }
    for (const entry of entries) if (entry.isDirectory()) queue.push(`${rel}/${entry.name}`);
  }
  return found;
}

/** The gitlinks (`160000` entries) of `git ls-files --stage -z`, relative to where it ran. */
export function gitlinkPaths(listing: string): string[] {
  const paths: string[] = [];
  for (const entry of listing.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab !== -1 && entry.startsWith('160000 ')) paths.push(entry.slice(tab + 1));
  }
  return paths;
}

/** Which file the index is and its version: ls-files runs again only after it changed. */
async function indexSignature(root: string): Promise<string | undefined> {
  const s = await fs.stat(path.join(root, '.git', 'index')).catch(() => undefined);
  return s && `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
}

/**
 * A lookup of the workspace repository's submodules, for the tripwire. Only a repository whose `.git` folder is the
 * workspace's own (its top): one above the workspace keeps its modules outside it.
 */
export function submodulesLookup(root: string, env: NodeJS.ProcessEnv): () => Promise<SubmoduleGits> {
  let known: { signature: string; gitlinks: string[] } | undefined;
  const gitlinks = async (): Promise<string[]> => {
    const signature = await indexSignature(root);
    if (signature === undefined) return [];
    if (known?.signature === signature) return known.gitlinks;
    const listing = await gitOutput(root, ['ls-files', '--stage', '-z'], env);
    const found = listing === undefined ? [] : gitlinkPaths(listing);
    known = (await indexSignature(root)) === signature ? { signature, gitlinks: found } : undefined;
    return found;
  };
  return async () => {
    if (!(await fs.lstat(path.join(root, '.git')).catch(() => undefined))?.isDirectory()) {
      return { gitDirs: [], dotGitFiles: [] };
    }
    const gitDirs = new Set(await moduleGitDirs(root));
    const dotGitFiles: string[] = [];
    for (const link of await gitlinks()) {
      const dotGit = `${link}/.git`;
      const stat = await fs.lstat(path.join(root, dotGit)).catch(() => undefined);
      if (stat?.isDirectory()) gitDirs.add(dotGit);
      else if (stat?.isSymbolicLink()) {
        // git follows a `.git` link to the repository it names: the link is watched, and that folder when inside.
        dotGitFiles.push(dotGit);
        const target = await fs.realpath(path.join(root, dotGit)).catch(() => undefined);
        if (target && isInside(root, target) && (await isFile(path.join(target, 'HEAD'))))
          gitDirs.add(path.relative(root, target).split(path.sep).join('/'));
      } else if (stat?.isFile()) {
        dotGitFiles.push(dotGit);
        // A folder it names elsewhere in the workspace is watched too (git's own are under .git/modules).
        const named = /^gitdir: (.+?)\r?\n?$/.exec(
          await fs.readFile(path.join(root, dotGit), 'utf8').catch(() => ''),
        );
        const target = named?.[1] && path.resolve(root, link, named[1]);
        if (target && isInside(root, target) && (await isFile(path.join(target, 'HEAD'))))
          gitDirs.add(path.relative(root, target).split(path.sep).join('/'));
      }
    }
    return { gitDirs: [...gitDirs], dotGitFiles };
  };
}
