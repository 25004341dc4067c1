// What changed after a checkpoint among the files over checkpoints.max_file_mb, which no tree holds: told from the
// SHA-256 each checkpoint recorded for them, for `keel undo --list`'s "changed after".
import type { FileChange, LargeFile } from './checkpoints.js';

/**
 * A checkpoint's "changed after" (`own`, from the tree diff) with the files over checkpoints.max_file_mb that changed
 * between it (`before`) and the next state (`after`), told by their recorded hashes: such files are in no tree. A
 * file that grew past the limit left the tree (a deletion to the diff) but is still there: modified.
 */
export function withLargeChanges(
  own: readonly FileChange[],
  before: readonly LargeFile[],
  after: readonly LargeFile[],
): FileChange[] {
  const then = new Map(before.map((f) => [f.path, f.sha256]));
  const now = new Map(after.map((f) => [f.path, f.sha256]));
  const changes = own.map(
    (f): FileChange => (f.status === 'D' && now.has(f.path) ? { ...f, status: 'M' } : f),
  );
  const listed = new Set(own.map((f) => f.path));
  for (const [path, sha256] of then)
    if (!listed.has(path) && now.get(path) !== sha256)
      changes.push({ status: now.has(path) ? 'M' : 'D', path });
  for (const path of now.keys())
    if (!listed.has(path) && !then.has(path)) changes.push({ status: 'A', path });
  return changes.length === own.length
    ? changes
    : changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
