// Which files Keel changed in a run, a chat turn or a session, from its checkpoints: a file tool's call names the
// paths it wrote; a shell command's change is the difference to the next snapshot (for the newest, to the state
// Keel's last call left, so edits made by hand since are not counted). What `keel commit` commits by default.
import type { Checkpoint, CheckpointStore } from './checkpoints.js';

/** A session's checkpoints (every turn of a chat), or one run's (a `keel run`, or one chat turn). */
export interface ChangeScope {
  session?: string;
  run?: string;
}

/** The scope of the newest run that changed something (not an undo): its session when it was saved. */
export function newestScope(checkpoints: readonly Checkpoint[]): ChangeScope | undefined {
  const newest = checkpoints.find((c) => c.tool !== 'undo');
  if (!newest) return undefined;
  return newest.session !== undefined ? { session: newest.session } : { run: newest.run };
}

function inScope(c: Checkpoint, scope: ChangeScope): boolean {
  if (c.tool === 'undo') return false;
  if (scope.session !== undefined) return c.session === scope.session;
  return c.run === scope.run;
}

/**
 * Workspace-relative paths Keel changed in `scope` (default: the newest run's session, or the run), oldest call
 * first; deleted files included. Empty when no checkpoint matches.
 */
export async function changedPaths(store: CheckpointStore, scope?: ChangeScope): Promise<string[]> {
  // The newest one's changes come from the state Keel's last call left, not the workspace now (and staging it is slow).
  const checkpoints = await store.list({ newestChanged: false });
  const chosen = scope ?? newestScope(checkpoints);
  if (!chosen) return [];
  const paths = new Set<string>();
  for (let i = checkpoints.length - 1; i >= 0; i--) {
    const c = checkpoints[i] as Checkpoint;
    if (!inScope(c, chosen)) continue;
    if (c.paths.length > 0) {
      for (const p of c.paths) paths.add(p);
      continue;
    }
    const changed =
      i === 0 ? ((await store.changedByLastCalls?.()) ?? (await store.list())[0]?.changed) : c.changed;
    for (const f of changed ?? []) paths.add(f.path);
  }
  return [...paths];
}
