// Files a call writes inside a nested git repository (a submodule, a clone inside the workspace) whose files a
// checkpoint's tree does not hold: one the shadow index still records as git does, by its commit (a gitlink; a
// folder it found no file in, nested-repos.ts). A file tool names the files it will write, so those are held apart
// instead: each one's content, by its SHA-256, in a folder of the store (what the checkpoint records), or that it did
// not exist. Undo writes them back; a shell command's changes there are not covered (it names no paths).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isInside, realpathDeepest } from '../safety/workspace.js';
import type { FileChange, NestedFile, SkippedPath } from './checkpoints.js';
import { nestedRepoOf } from './user-repo.js';

/** The paths among `paths` inside nested repositories: held (content or absence), or skipped when they cannot be. */
export async function holdNested(
  root: string,
  folder: string,
  paths: readonly string[],
  maxFileBytes: number,
  inTree: (repo: string) => boolean = () => false,
): Promise<{ held: NestedFile[]; skipped: SkippedPath[] }> {
  const held: NestedFile[] = [];
  const skipped: SkippedPath[] = [];
  for (const path of paths) {
    const repo = await nestedRepoOf(root, path);
    if (!repo || inTree(repo)) continue;
    const file = join(root, path);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (!stat) {
      held.push({ path });
      continue;
    }
    // A link, a folder, or a file over checkpoints.max_file_mb: named as not held, as before.
    if (!stat.isFile() || stat.size > maxFileBytes) {
      skipped.push({ path, reason: 'nested', repo });
      continue;
    }
    const data = await fs.readFile(file);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const copy = join(folder, sha256);
    if (!(await fs.lstat(copy).catch(() => undefined))) {
      await fs.mkdir(folder, { recursive: true, mode: 0o700 });
      const temp = `${copy}.${process.pid}.tmp`;
      await fs.writeFile(temp, data, { mode: 0o600 });
      await fs.rename(temp, copy);
    }
    held.push({ path, sha256, mode: stat.mode & 0o777 });
  }
  return { held, skipped };
}

/**
 * What the nested files held from `oldestFirst[0]` (the target) on should be: for each path, the record of the
 * oldest checkpoint naming it, which is the file as it was before the first call after the target wrote it.
 */
export function nestedTargets(oldestFirst: readonly { nested?: NestedFile[] }[]): Map<string, NestedFile> {
  const want = new Map<string, NestedFile>();
  for (const checkpoint of oldestFirst)
    for (const file of checkpoint.nested ?? []) if (!want.has(file.path)) want.set(file.path, file);
  return want;
}

/**
 * Writes the held files back (or removes those that did not exist), each only where its folder is still inside the
 * workspace (a folder replaced by a link since is not written through) and no folder stands in its place now;
 * returns what changed.
 */
export async function restoreNested(
  root: string,
  folder: string,
  want: ReadonlyMap<string, NestedFile>,
): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const [path, held] of want) {
    const file = join(root, path);
    // Resolved as the kernel would (a missing rest re-appended): a folder replaced by a link out since is refused.
    const real = await realpathDeepest(dirname(file), () => {
      throw new Error('dangling link');
    }).catch(() => undefined);
    if (real === undefined || !isInside(root, real)) continue;
    const target = join(real, basename(file));
    const stat = await fs.lstat(target).catch(() => undefined);
    // A folder there now holds what no checkpoint has: it is left as it is.
    if (stat?.isDirectory()) continue;
    if (held.sha256 === undefined) {
      if (stat) {
        await fs.rm(target, { force: true });
        changes.push({ status: 'D', path });
      }
      continue;
    }
    const data = await fs.readFile(join(folder, held.sha256)).catch(() => undefined);
    if (!data) continue;
    if (stat?.isFile()) {
      const now = createHash('sha256')
        .update(await fs.readFile(target))
        .digest('hex');
      if (now === held.sha256) continue;
    }
    // A link there now (symbolic, or a hard link: another name of a file elsewhere) is replaced, never written through.
    if (stat && (!stat.isFile() || stat.nlink > 1)) await fs.rm(target, { force: true });
    await fs.mkdir(real, { recursive: true });
    await fs.writeFile(target, data, { mode: held.mode ?? 0o644 });
    changes.push({ status: stat ? 'M' : 'A', path });
  }
  return changes;
}
