// Whether the workspace's repository still has its history: the tripwire says so when a call deleted or emptied
// `.git` (nothing puts commits back, and checkpoints share unchanged tracked files' contents with it: `keel undo`
// names what it cannot restore).
import { promises as fs } from 'node:fs';
import path from 'node:path';

export const HISTORY_GONE =
  "git's history cannot be put back, nor the files whose contents only it held (keel undo names them)";

/** The workspace's own repository is there with its HEAD (a linked worktree's `.git` file counts as there). */
export async function hasHistory(root: string): Promise<boolean> {
  const dotGit = await fs.lstat(path.join(root, '.git')).catch(() => undefined);
  if (!dotGit) return false;
  if (!dotGit.isDirectory()) return true;
  return fs.lstat(path.join(root, '.git', 'HEAD')).then(
    () => true,
    () => false,
  );
}
