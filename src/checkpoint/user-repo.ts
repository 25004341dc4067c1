// The git repository a workspace belongs to, found by reading files only (no git process): its object store,
// which the shadow repository reads tracked files' contents from (never writes), and its index, which seeds the
// shadow's index when the workspace is the repository's top level, so tracked files are neither re-hashed nor copied.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { attributeFiles, checkoutConversions } from './checkout-conversions.js';
import { judgeIndex } from './git-index.js';
import { type IndexEntries, readIndexEntries } from './index-trees.js';

export interface UserRepo {
  /** `<common git dir>/objects`: read as an alternate object store, never written. */
  objects: string;
  /** The repository's index, when the workspace is its top level (a linked worktree's own index included). */
  index?: string;
  gitDir: string;
  commonDir: string;
}

const readText = (path: string) => fs.readFile(path, 'utf8').catch(() => undefined);
const isDir = (path: string) =>
  fs.stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** `.git` as a directory, or as a file naming one (`gitdir: …`, as worktrees and submodules have). */
async function gitDirOf(dotGit: string): Promise<string | undefined> {
  const stat = await fs.stat(dotGit).catch(() => undefined);
  if (!stat) return undefined;
  if (stat.isDirectory()) return dotGit;
  const text = (await readText(dotGit)) ?? '';
  const match = /^gitdir: (.+?)\s*$/m.exec(text);
  if (!match?.[1]) return undefined;
  return isAbsolute(match[1]) ? match[1] : resolve(dirname(dotGit), match[1]);
}

/** The repository whose `.git` is in `dir`: its git dir, its common dir (a linked worktree's is another's). */
export interface RepoDirs {
  gitDir: string;
  commonDir: string;
  /** `<commonDir>/objects`, or undefined when Keel cannot share them (none, or SHA-256 object ids). */
  objects?: string;
}

/** The repository whose `.git` (a folder, or a file naming one) is in `dir`, or undefined. */
export async function repoDirs(dir: string): Promise<RepoDirs | undefined> {
  const gitDir = await gitDirOf(join(dir, '.git'));
  if (!gitDir) return undefined;
  const common = (await readText(join(gitDir, 'commondir')))?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const config = (await readText(join(commonDir, 'config'))) ?? '';
  const objects = join(commonDir, 'objects');
  // A SHA-256 repository's objects cannot stand in for the shadow's SHA-1 ones.
  const shared = !/^\s*objectformat\s*=\s*sha256/im.test(config) && (await isDir(objects));
  return { gitDir, commonDir, ...(shared ? { objects } : {}) };
}

/** The repository holding `root` (its real path), or undefined: none, or one whose objects Keel cannot share. */
export async function findUserRepo(root: string): Promise<UserRepo | undefined> {
  let dir = root;
  for (;;) {
    const repo = await repoDirs(dir);
    if (repo) {
      const { objects } = repo;
      if (!objects) return undefined;
      const dirs = { objects, gitDir: repo.gitDir, commonDir: repo.commonDir };
      return dir === root ? { ...dirs, index: join(repo.gitDir, 'index') } : dirs;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * An index file's bytes and its mtime in whole seconds (rounded down), from one open: git replaces its index by
 * renaming, so the two always belong together. Undefined when there is none.
 */
export async function readIndexFile(path: string): Promise<{ buf: Buffer; mtime: number } | undefined> {
  const handle = await fs.open(path, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    const mtime = Math.floor((await handle.stat()).mtimeMs / 1000);
    return { buf: await handle.readFile(), mtime };
  } finally {
    await handle.close();
  }
}

/**
 * Copies the user's index to `target` when its entries can be trusted as they are (judgeIndex), keeping its mtime
 * rounded down: git re-reads an entry whose file changed within the index's last second ("racily clean"), and an
 * index that looked newer than it is would hide such a change. Entries of files checkout converts (Git LFS, CRLF:
 * checkout-conversions.ts) are smudged the same way, so their bytes are read; none is trusted when every text file
 * is converted (core.autocrlf). Resolves with why it did not seed, or undefined.
 */
export async function seedIndex(
  repo: UserRepo,
  workTree: string,
  target: string,
): Promise<string | undefined> {
  const read = repo.index ? await readIndexFile(repo.index) : undefined;
  if (!read) return 'no index';
  const { buf, mtime } = read;
  const verdict = judgeIndex(buf);
  if (!verdict.ok) return verdict.why;
  if (!(await smudgeConverted(buf, workTree, repo.gitDir, repo.commonDir, verdict.attributes)))
    return 'checkout converts every text file (core.autocrlf or core.eol)';
  const temp = `${target}.${process.pid}.seed`;
  await fs.writeFile(temp, buf);
  await fs.utimes(temp, mtime, mtime);
  await fs.rename(temp, target);
  return undefined;
}

/**
 * Zeroes the size of each entry of the index in `buf` whose file checkout converts, and writes the index's checksum
 * again; false when every text file may be converted, so no entry can be trusted.
 */
export async function smudgeConverted(
  buf: Buffer,
  workTree: string,
  gitDir: string,
  commonDir: string,
  attributes?: readonly string[],
): Promise<boolean> {
  // The .gitattributes files among the entries: judgeIndex's walk names them, else (index v4) a parse.
  let entries = attributes ? undefined : readIndexEntries(buf);
  const pathAt = (i: number) => {
    const e = entries as IndexEntries;
    return e.names.toString('utf8', e.start[i], e.end[i]);
  };
  const named =
    attributes ?? attributeFiles(Array.from({ length: entries?.count ?? 0 }, (_, i) => pathAt(i)));
  const conversions = await checkoutConversions(workTree, gitDir, commonDir, named);
  if (conversions.all) return false;
  if (!conversions.some) return true;
  entries ??= readIndexEntries(buf);
  let smudged = 0;
  for (let i = 0; i < entries.count; i++) {
    if (!conversions.converts(pathAt(i))) continue;
    // The size field, the last of the stat data before the object id.
    buf.writeUInt32BE(0, (entries.oidAt[i] as number) - 4);
    smudged++;
  }
  const sum = buf.subarray(buf.length - 20);
  if (smudged > 0 && !sum.every((byte) => byte === 0))
    createHash('sha1')
      .update(buf.subarray(0, buf.length - 20))
      .digest()
      .copy(sum);
  return true;
}

/**
 * Where HEAD of the repository whose `.git` is at `root` points, read from its files: `<ref> <commit>`, or the commit
 * alone when detached (`<ref>` alone before the first commit); undefined without a readable `.git` there. What a
 * checkpoint records so `keel undo` can tell whether git's history moved since (undo never touches `.git`).
 */
export async function readHead(root: string): Promise<string | undefined> {
  const gitDir = await gitDirOf(join(root, '.git'));
  if (!gitDir) return undefined;
  const head = (await readText(join(gitDir, 'HEAD')))?.trim();
  if (!head) return undefined;
  const ref = /^ref: (\S+)$/.exec(head)?.[1];
  if (!ref) return head;
  // A linked worktree keeps its own HEAD; branches live in the common directory, loose or packed.
  const common = (await readText(join(gitDir, 'commondir')))?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const loose = (await readText(join(commonDir, ref)))?.trim();
  const packed = loose
    ? undefined
    : ((await readText(join(commonDir, 'packed-refs'))) ?? '')
        .split('\n')
        .find((line) => line.endsWith(` ${ref}`))
        ?.split(' ')[0];
  const commit = loose || packed;
  return commit ? `${ref} ${commit}` : ref;
}

/**
 * The nested git repository (a submodule, a clone inside the workspace) holding `path`, as its workspace-relative
 * folder with a trailing `/`, or undefined. A checkpoint's tree holds its files (nested-repos.ts) unless the shadow
 * index still records it by its commit, as git does.
 */
export async function nestedRepoOf(root: string, path: string): Promise<string | undefined> {
  const parts = path.split('/').slice(0, -1);
  for (let depth = 1; depth <= parts.length; depth++) {
    const folder = parts.slice(0, depth).join('/');
    if (await fs.lstat(join(root, folder, '.git')).catch(() => undefined)) return `${folder}/`;
  }
  return undefined;
}
