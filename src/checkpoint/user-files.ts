// Files Keel wrote for the user outside tool calls (`/save`'s exports): recorded per workspace beside its
// checkpoints, and put back as they were after any restore, so an undo or a rewind never deletes or reverts them.
import { promises as fs } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { type Checkpoint, type CheckpointStore, checkpointDir, type RestoreResult } from './checkpoints.js';

const LIST = 'user-files.json';
/** Larger files are not held in memory across a restore (an export is far smaller). */
const MAX_KEPT_BYTES = 16 * 1024 * 1024;

const listFile = (stateDir: string, root: string) => join(checkpointDir(stateDir, root), LIST);

async function readList(file: string): Promise<string[]> {
  try {
    const value: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** The workspace-relative path of `file`, or undefined when it lies outside the workspace. */
function inside(root: string, file: string): string | undefined {
  const rel = relative(root, file);
  return rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || rel.startsWith(sep) ? undefined : rel;
}

/** Records a file Keel wrote for the user (real paths); one outside the workspace needs no protection. */
export async function keepUserFile(stateDir: string, root: string, file: string): Promise<void> {
  const rel = inside(root, file);
  if (rel === undefined) return;
  const list = listFile(stateDir, root);
  const kept = await readList(list);
  if (kept.includes(rel)) return;
  await fs.mkdir(dirname(list), { recursive: true, mode: 0o700 });
  await fs.writeFile(list, JSON.stringify([...kept, rel]), { mode: 0o600 });
}

/**
 * `store.restore`, with the user's files as they are now put back afterwards (a symlink the restore left in
 * one's place is not written through). The restore's list of changes leaves them out: they did not change.
 */
export async function restoreKeepingUserFiles(
  store: CheckpointStore,
  target: Checkpoint,
  undoRun: string,
  place: { stateDir: string; root: string },
): Promise<RestoreResult> {
  const held: { rel: string; content: Buffer }[] = [];
  for (const rel of await readList(listFile(place.stateDir, place.root))) {
    const path = join(place.root, rel);
    const info = await fs.lstat(path).catch(() => undefined);
    if (!info?.isFile() || info.size > MAX_KEPT_BYTES) continue;
    held.push({ rel, content: await fs.readFile(path) });
  }
  const result = await store.restore(target, undoRun);
  for (const { rel, content } of held) {
    const path = join(place.root, rel);
    const now = await fs.lstat(path).catch(() => undefined);
    if (now !== undefined && !now.isFile()) continue;
    await fs.mkdir(dirname(path), { recursive: true });
    // A directory the restore turned into a link out of the workspace is not written through either.
    const parent = await fs.realpath(dirname(path)).catch(() => undefined);
    if (parent === undefined || (parent !== place.root && inside(place.root, parent) === undefined)) continue;
    await fs.writeFile(path, content, { mode: 0o600 });
  }
  const kept = new Set(held.map((h) => h.rel));
  return { ...result, changes: result.changes.filter((c) => !kept.has(c.path)) };
}
