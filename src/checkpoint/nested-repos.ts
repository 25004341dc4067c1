// Repositories nested in the workspace (a submodule, a clone inside it). git's walks of the shadow index stop at
// such a folder and would record it by its commit (a gitlink), so what a shell command changed inside one could not
// be undone. Its files are taken in as any other's instead, after which the shadow's walks go into the folder by
// themselves (git walks into any folder its index holds files under): a submodule's by copying the entries of its
// own index, as the workspace's seeds the shadow's (nothing hashed; its objects read where git keeps them), others
// listed once by git inside the repository and hashed.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isInside } from '../safety/workspace.js';
import { judgeIndex } from './git-index.js';
import { type IndexEntries, readIndexEntries } from './index-trees.js';
import { ENTRY_META, type IndexEntry } from './index-writer.js';
import { repoDirs } from './user-repo.js';

const GITLINK = 0o160000;
/** Nested repositories inside nested repositories, at most this deep. */
const MAX_DEPTH = 8;

export interface NestedListing {
  /** The nested repositories whose files were listed (workspace-relative, no trailing `/`). */
  listed: string[];
  /** Their files: tracked (present or not) and untracked, not ignored. */
  files: string[];
  /** Their ignored files and folders, as the shadow's own listing names them (a folder ends with `/`). */
  ignored: string[];
}

/** Runs git on the repository `gitDir` with the work tree `workTree` (ShadowGit.runNested). */
export type NestedGit = (
  gitDir: string,
  workTree: string,
  args: readonly string[],
  signal?: AbortSignal,
) => Promise<string>;

const splitZ = (text: string) => text.split('\0').filter((t) => t !== '');

/** The gitlinks of the shadow index (submodules, seeded from the user's index) whose folder holds a repository. */
export async function populatedGitlinks(root: string, entries: IndexEntries | undefined): Promise<string[]> {
  const links: string[] = [];
  if (!entries) return links;
  for (let i = 0; i < entries.count; i++) {
    if (entries.modes[i] !== GITLINK) continue;
    const path = entries.names.toString('utf8', entries.start[i], entries.end[i]);
    if (await fs.lstat(join(root, path, '.git')).catch(() => undefined)) links.push(path);
  }
  return links;
}

export interface NestedSeed {
  /** Its index's entries (stat data and object ids), named from the workspace's top; gitlinks among them. */
  entries: IndexEntry[];
  /** Its object store, which the shadow repository reads too from then on. */
  objects: string;
}

/**
 * The nested repository at `folder` as shadow index entries, copied from its own index, or undefined when that
 * cannot be trusted or kept: no index, or one judgeIndex refuses; objects Keel cannot share; or objects kept inside
 * the folder itself (a clone's own .git), which a command removing the folder takes with it, when an undo most needs
 * them. A submodule's, kept under the workspace repository's .git/modules, stay.
 */
export async function nestedSeed(root: string, folder: string): Promise<NestedSeed | undefined> {
  const workTree = join(root, folder);
  const repo = await repoDirs(workTree);
  // A path with a colon cannot be listed in GIT_ALTERNATE_OBJECT_DIRECTORIES.
  if (!repo?.objects || repo.objects.includes(':') || isInside(workTree, repo.commonDir)) return undefined;
  let buf: Buffer;
  let mtime: number;
  try {
    const handle = await fs.open(join(repo.gitDir, 'index'), 'r');
    try {
      // The stat of the file read: git replaces its index by renaming.
      mtime = Math.floor((await handle.stat()).mtimeMs / 1000);
      buf = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  if (!judgeIndex(buf).ok) return undefined;
  const index = readIndexEntries(buf);
  const prefix = Buffer.from(`${folder}/`, 'utf8');
  const entries: IndexEntry[] = [];
  for (let i = 0; i < index.count; i++) {
    const at = (index.oidAt[i] as number) - 40;
    let meta = buf.subarray(at, at + ENTRY_META);
    // Racily clean (changed within its index's last second, so its stat data may not tell): its size zeroed, as git
    // does, so the shadow's walk compares its content.
    if (meta.readUInt32BE(8) >= mtime) {
      meta = Buffer.from(meta);
      meta.writeUInt32BE(0, 36);
    }
    const name = index.names.subarray(index.start[i], index.end[i]);
    entries.push({ name: Buffer.concat([prefix, name]), meta });
  }
  return { entries, objects: repo.objects };
}

/** Whether the shadow index holds files under `folder/`: a nested repository a checkpoint's trees hold whole. */
export function holdsFilesUnder(entries: IndexEntries | undefined, folder: string): boolean {
  if (!entries) return false;
  const prefix = Buffer.from(folder.endsWith('/') ? folder : `${folder}/`, 'utf8');
  for (let i = 0; i < entries.count; i++) {
    const start = entries.start[i] as number;
    const end = entries.end[i] as number;
    if (
      end - start > prefix.length &&
      entries.names.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0
    )
      return true;
  }
  return false;
}

/**
 * Lists the files of the nested repositories at `folders` (workspace-relative) and of those nested in them, by git
 * in each (its repository and work tree named, so it never finds one above it) with only the .gitignore files for
 * rules: what it calls ignored, the shadow's walks call ignored too. A folder git cannot list is left out of
 * `listed`, recorded by its commit as before.
 */
export async function listNested(
  root: string,
  folders: readonly string[],
  runIn: NestedGit,
  signal?: AbortSignal,
): Promise<NestedListing> {
  const out: NestedListing = { listed: [], files: [], ignored: [] };
  /** False when git could not list the folder's repository. */
  const visit = async (folder: string, depth: number): Promise<boolean> => {
    const workTree = join(root, folder);
    const repo = await repoDirs(workTree);
    if (!repo) return false;
    const git = (args: string[]) => runIn(repo.gitDir, workTree, ['ls-files', '-z', ...args], signal);
    let listings: string[];
    try {
      listings = await Promise.all([
        git(['--stage']),
        git(['-o', '--exclude-per-directory=.gitignore']),
        git(['-o', '-i', '--exclude-per-directory=.gitignore', '--directory']),
      ]);
    } catch {
      signal?.throwIfAborted();
      return false;
    }
    const [staged = '', others = '', ignored = ''] = listings;
    const inner: string[] = [];
    out.listed.push(folder);
    for (const record of splitZ(staged)) {
      // `<mode> <object> <stage>\t<path>`: a conflicted path is listed once a stage.
      const tab = record.indexOf('\t');
      const path = record.slice(tab + 1);
      if (record.startsWith('160000 ')) inner.push(path);
      else out.files.push(`${folder}/${path}`);
    }
    for (const path of splitZ(others)) {
      if (path.endsWith('/')) inner.push(path.slice(0, -1));
      else out.files.push(`${folder}/${path}`);
    }
    for (const path of splitZ(ignored)) out.ignored.push(`${folder}/${path}`);
    for (const path of new Set(inner)) {
      const child = `${folder}/${path}`;
      // A submodule not checked out is an empty folder, nothing to hold; one git cannot list stays a folder the
      // shadow records by its commit, as git does.
      if (!(await fs.lstat(join(root, child, '.git')).catch(() => undefined))) continue;
      if (depth >= MAX_DEPTH || !(await visit(child, depth + 1))) out.files.push(`${child}/`);
    }
    return true;
  };
  for (const folder of folders) await visit(folder, 0);
  out.files = [...new Set(out.files)];
  return out;
}

/** One git command on the shadow repository (ShadowGit.run). */
type ShadowRun = (args: readonly string[], input?: string) => Promise<string>;

/** `tree` with the entry at `parts` made the tree `id`: each tree on the way written anew (mktree). */
async function replaceAt(
  run: ShadowRun,
  tree: string,
  parts: readonly string[],
  id: string,
): Promise<string> {
  const [name, ...rest] = parts;
  const entries = splitZ(await run(['ls-tree', '-z', tree])).map((line) => {
    const tab = line.indexOf('\t');
    const [mode = '', type = '', object = ''] = line.slice(0, tab).split(' ');
    return { mode, type, object, name: line.slice(tab + 1) };
  });
  const at = entries.findIndex((e) => e.name === name);
  const old = entries[at];
  if (!old) return tree;
  const object = rest.length === 0 ? id : await replaceAt(run, old.object, rest, id);
  entries[at] = { mode: '040000', type: 'tree', object, name: old.name };
  const input = entries.map((e) => `${e.mode} ${e.type} ${e.object}\t${e.name}\0`).join('');
  return (await run(['mktree', '-z', '--missing'], input)).trim();
}

/**
 * The tree an undo from `current` to `target` (commits) restores. A checkpoint made before nested repositories'
 * files were taken in records such a repository by its commit; where the workspace's tree now holds that folder's
 * files, restoring the commit alone would remove them, so the folder's files are kept as they are now (as an undo
 * then left them): the target's gitlink becomes the current folder's tree. `target` itself when there is none.
 */
export async function keepNestedFolders(run: ShadowRun, current: string, target: string): Promise<string> {
  const raw = await run(['diff-tree', '-r', '-z', '--no-renames', current, target]);
  const tokens = raw.split('\0');
  const links: string[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    // `:<src mode> <dst mode> <src> <dst> <status>` then the path: a gitlink the current tree does not have.
    const match = /^:\d+ 160000 [0-9a-f]+ [0-9a-f]+ A$/.exec((tokens[i] ?? '').replace(/^\n+/, ''));
    if (match) links.push(tokens[i + 1] ?? '');
  }
  let tree: string | undefined;
  for (const link of links) {
    // `<mode> <type> <object>\t<path>`: the folder's tree in the current one, if a folder is there.
    const entry = await run(['--literal-pathspecs', 'ls-tree', '-z', current, '--', link]);
    const folder = /^040000 tree ([0-9a-f]+)\t/.exec(entry)?.[1];
    if (!folder) continue;
    tree ??= (await run(['rev-parse', `${target}^{tree}`])).trim();
    tree = await replaceAt(run, tree, link.split('/'), folder);
  }
  return tree ?? target;
}
