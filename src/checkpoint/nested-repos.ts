// Repositories nested in the workspace (a submodule, a clone inside it). git's walks of the shadow index stop at
// such a folder and would record it by its commit (a gitlink), so what a shell command changed inside one could not
// be undone. Its files are taken in as any other's instead: git walks into any folder its index holds files under,
// with the shadow's own rules (the .gitignore files). A submodule's index seeds those entries, as the workspace's
// seeds the shadow's (nothing hashed, its objects read where git keeps them); another folder's first file does,
// and the shadow's walk of the folder finds the rest. No git runs inside the nested repository, with its settings.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isInside } from '../safety/workspace.js';
import { judgeIndex } from './git-index.js';
import { GENERATED_TREES, splitZ } from './ignored-files.js';
import { type IndexEntries, readIndexEntries } from './index-trees.js';
import { ENTRY_META, type IndexEntry, smudgedIfRacy } from './index-writer.js';
import { parseRaw } from './restore-checks.js';
import { readIndexFile, repoDirs, smudgeConverted } from './user-repo.js';

const GITLINK = 0o160000;
/** Folders a search for a nested repository's first file looks in, at most. */
const MAX_SEARCHED = 64;

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
  const read = await readIndexFile(join(repo.gitDir, 'index'));
  if (!read) return undefined;
  const { buf, mtime } = read;
  // Entries of files checkout converts (Git LFS, CRLF) are smudged, so the shadow reads their bytes.
  const verdict = judgeIndex(buf);
  if (!verdict.ok) return undefined;
  if (!(await smudgeConverted(buf, workTree, repo.gitDir, repo.commonDir, verdict.attributes)))
    return undefined;
  const index = readIndexEntries(buf);
  const prefix = Buffer.from(`${folder}/`, 'utf8');
  const entries: IndexEntry[] = [];
  for (let i = 0; i < index.count; i++) {
    const at = (index.oidAt[i] as number) - 40;
    const name = index.names.subarray(index.start[i], index.end[i]);
    // Racily clean ones as of its index's time: the shadow's walk compares their content.
    entries.push({
      name: Buffer.concat([prefix, name]),
      meta: smudgedIfRacy(buf.subarray(at, at + ENTRY_META), mtime),
    });
  }
  return { entries, objects: repo.objects };
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
  // The gitlinks the target has where the current tree has none.
  const links = parseRaw(await run(['diff-tree', '-r', '-z', '--no-renames', current, target]))
    .filter((r) => r.status === 'A' && r.dstMode === '160000')
    .map((r) => r.path);
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

/**
 * A file of the nested repository at `folder` to put in the shadow index first, so git's walks go into the folder:
 * the smallest of the first folder, breadth first, that has one (of at most `maxBytes`: checkpoints.max_file_mb),
 * outside `.git` and generated trees; undefined when there is none (an empty folder, a submodule not checked out:
 * nothing to hold).
 */
export async function firstFile(
  root: string,
  folder: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<string | undefined> {
  const queue = [folder];
  for (let searched = 0; searched < queue.length && searched < MAX_SEARCHED; searched++) {
    const dir = queue[searched] as string;
    const entries = await fs.readdir(join(root, dir), { withFileTypes: true }).catch(() => []);
    let best: { path: string; size: number } | undefined;
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && !GENERATED_TREES.has(entry.name)) queue.push(path);
      } else if (entry.isFile() && entry.name !== '.git') {
        const size = (await fs.lstat(join(root, path)).catch(() => undefined))?.size;
        if (size !== undefined && size <= maxBytes && (!best || size < best.size)) best = { path, size };
      }
    }
    if (best) return best.path;
  }
  return undefined;
}

/**
 * The nested repositories an undo left holding their `.git` alone, among the folders of the paths it removed: made
 * since the checkpoint it went back to (a clone, `git init`), whose `.git` an undo never touches.
 */
export async function emptiedRepositories(root: string, removed: readonly string[]): Promise<string[]> {
  const repos = new Set<string>();
  const isRepo = new Map<string, boolean>();
  for (const path of removed) {
    const parts = path.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) {
      const folder = parts.slice(0, depth).join('/');
      let known = isRepo.get(folder);
      if (known === undefined) {
        known = Boolean(await fs.lstat(join(root, folder, '.git')).catch(() => undefined));
        isRepo.set(folder, known);
      }
      if (known) repos.add(folder);
    }
  }
  const emptied: string[] = [];
  for (const folder of repos) {
    const names = await fs.readdir(join(root, folder)).catch(() => [] as string[]);
    if (names.length === 1 && names[0] === '.git') emptied.push(folder);
  }
  return emptied.sort();
}

/**
 * What changed after a checkpoint that recorded nested repositories by their commits, less what only says their
 * files are held now: the gitlink "deleted", the files under it "created" (the next checkpoint holds them).
 */
export function withoutNestedTransition<T extends { status: string; path: string }>(
  changes: readonly T[],
): T[] {
  const created = new Set<string>();
  for (const c of changes) {
    if (c.status !== 'A') continue;
    for (let at = c.path.indexOf('/'); at >= 0; at = c.path.indexOf('/', at + 1))
      created.add(c.path.slice(0, at));
  }
  const opened = new Set(changes.filter((c) => c.status === 'D' && created.has(c.path)).map((c) => c.path));
  if (opened.size === 0) return [...changes];
  const inOpened = (path: string) => {
    for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1))
      if (opened.has(path.slice(0, at))) return true;
    return false;
  };
  return changes.filter(
    (c) => !(c.status === 'D' && opened.has(c.path)) && !(c.status === 'A' && inOpened(c.path)),
  );
}
