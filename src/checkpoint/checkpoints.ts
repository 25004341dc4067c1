// Checkpoints: what a snapshot of the workspace records, where a workspace's checkpoints live, which store holds
// them (a shadow git repository, or file copies where git is missing), and which checkpoint `keel undo` goes to.
import { join } from 'node:path';
import * as z from 'zod';
import { workspaceKey } from '../config/paths.js';
import { ExitCode, KeelError } from '../core/errors.js';
import { once } from '../core/once.js';

/** Something a checkpoint left out: an ignored file over the size limit, a generated tree, the `.git` history. */
// The schemas are made on first use (reading a checkpoint's metadata): a run takes checkpoints without reading any.
export const skippedPathSchema = once(() =>
  z.object({
    /** Workspace-relative; a directory ends with `/`. */
    path: z.string(),
    /**
     * `nested`: a file a call wrote inside a nested git repository (`repo`), whose files checkpoints do not hold.
     * `encoding`: a file whose name is not UTF-8 (shown with U+FFFD): no checkpoint can hold it.
     */
    reason: z.enum(['size', 'generated', 'history', 'limit', 'nested', 'encoding']),
    repo: z.string().optional(),
    size: z.number().optional(),
    /** `.git` (history): where HEAD pointed then (user-repo.ts readHead), so undo says whether history moved. */
    head: z.string().optional(),
    /** A generated tree: its treeStamp then (ignored-files.ts), so undo names it only when it changed since. */
    stamp: z.string().optional(),
  }),
);
export type SkippedPath = z.infer<ReturnType<typeof skippedPathSchema>>;

/**
 * A file a call wrote inside a nested git repository, held apart (nested-files.ts): its content by SHA-256 in the
 * store, or no sha256 when it did not exist.
 */
export const nestedFileSchema = once(() =>
  z.object({ path: z.string(), sha256: z.string().optional(), mode: z.number().optional() }),
);
export type NestedFile = z.infer<ReturnType<typeof nestedFileSchema>>;

/** A file over checkpoints.max_file_mb: never copied, recorded by size and SHA-256 so undo can tell it changed. */
export const largeFileSchema = once(() =>
  z.object({ path: z.string(), size: z.number(), sha256: z.string() }),
);
export type LargeFile = z.infer<ReturnType<typeof largeFileSchema>>;

/** What a checkpoint records about the call it was taken before. Stored as JSON in the commit message or meta file. */
export const checkpointMetaSchema = once(() =>
  z.object({
    /** ISO time the checkpoint was taken. */
    time: z.string(),
    /** The run (or chat turn) it belongs to; `undo-…` for the checkpoint an undo takes of the state it replaces. */
    run: z.string(),
    turn: z.number().int().optional(),
    /** The session the run or chat turn was saved in, so `keel undo` can name the turn it takes back. */
    session: z.string().optional(),
    call: z.string(),
    tool: z.string(),
    summary: z.string(),
    /** Workspace-relative paths the call said it would write (its preview); a shell command names none. */
    paths: z.array(z.string()),
    /** The first checkpoint of its run: restoring it undoes the whole run. */
    first: z.boolean(),
    /** What the snapshot left out (the first few), and how many more. */
    skipped: z.array(skippedPathSchema()).optional(),
    skipped_more: z.number().int().optional(),
    /** Files over checkpoints.max_file_mb, which the checkpoint names but does not hold. */
    large: z.array(largeFileSchema()).optional(),
    /** Files the call wrote inside nested git repositories, held apart from the tree. */
    nested: z.array(nestedFileSchema()).optional(),
    /**
     * The tree holds the files of repositories nested in the workspace (a gitlink there is a folder with none).
     * Checkpoints without it recorded each such folder by its commit alone.
     */
    nested_files: z.boolean().optional(),
  }),
);
export type CheckpointMeta = z.infer<ReturnType<typeof checkpointMetaSchema>>;

export interface FileChange {
  /** As git names it, from the older state to the newer: A created, M modified, D deleted. */
  status: 'A' | 'M' | 'D';
  path: string;
}

export interface Checkpoint extends CheckpointMeta {
  /** What `keel undo <id>` takes: a short commit hash, or the copy's directory name. */
  id: string;
  /**
   * Files that changed after the checkpoint, up to the next one (or the workspace now, for the newest).
   * Undefined where the store cannot tell (copies: only the paths of the call are known).
   */
  changed?: FileChange[];
}

export interface RestoreResult {
  /** The checkpoint of the state just replaced: `keel undo` again (or with this id) goes back to it. */
  undoId: string;
  /** What the restore did, from the state replaced to the restored one (A brought back, D removed, M restored). */
  changes: FileChange[];
  /**
   * Files changed since Keel's last call ended (by hand, or by another program): the restore overwrites them, and
   * `keel undo <undoId>` gets them back. Undefined where the store cannot tell.
   */
  handEdits?: FileChange[];
  /** The target's files over checkpoints.max_file_mb, and whether each is as it was then (so nothing was lost). */
  large?: (LargeFile & { now: 'unchanged' | 'changed' | 'deleted' })[];
  /** Files whose names are not UTF-8 (shown with U+FFFD): in no checkpoint, so the restore left them as they are. */
  left?: string[];
  /** Repositories made since the checkpoint, their files removed: folders left holding their `.git` alone. */
  repositories?: string[];
}

/** Where one workspace's checkpoints are kept, and how: shared by the git store and the copy store. */
export interface CheckpointStore {
  readonly kind: 'git' | 'copy';
  /** Snapshots the workspace (git) or the paths a file tool will write (copy). Throws CheckpointError. */
  take(meta: CheckpointMeta, writes: readonly string[]): Promise<string>;
  /** Newest first. `newestChanged: false`: the newest one's `changed` is left out (it costs staging the workspace). */
  list(options?: { newestChanged?: boolean }): Promise<Checkpoint[]>;
  /** Takes a checkpoint of the current state (run `undoRun`), then puts the workspace back as it was at `target`. */
  restore(target: Checkpoint, undoRun: string): Promise<RestoreResult>;
  /** Records the workspace as a call left it, so an undo can tell later edits by hand from Keel's changes. */
  after?(): Promise<void>;
  /**
   * What Keel's calls changed since the newest checkpoint, up to the state the last one left (recorded by `after`),
   * so later edits by hand are not counted; undefined when that state was not recorded after the newest checkpoint.
   */
  changedByLastCalls?(): Promise<FileChange[] | undefined>;
  /**
   * Does ahead of time what makes the first snapshot slow (hashing the workspace), without taking one; once
   * `signal` aborts it stops between steps, nothing half-written, and rejects (the next snapshot does it all).
   */
  prepare?(signal?: AbortSignal): Promise<void>;
}

export type CheckpointErrorCode =
  | 'checkpoint_failed'
  | 'nothing_to_undo'
  | 'unknown_checkpoint'
  | 'restore_failed';

export class CheckpointError extends KeelError {
  constructor(code: CheckpointErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(code, code === 'unknown_checkpoint' ? ExitCode.usage : ExitCode.failed, message, options);
    this.name = 'CheckpointError';
  }
}

export { workspaceKey } from '../config/paths.js';

/** `$XDG_STATE_HOME/keel/checkpoints/<workspace-key>`: never inside the workspace. */
export function checkpointDir(stateDir: string, realRoot: string): string {
  return join(stateDir, 'checkpoints', workspaceKey(realRoot));
}

/**
 * The checkpoint `keel undo [id]` goes back to. Without an id: the first checkpoint of the newest run, so the
 * whole run is undone (after an undo, the newest run is that undo, so `keel undo` again reverses it).
 */
export function undoTarget(checkpoints: readonly Checkpoint[], id?: string): Checkpoint {
  const newest = checkpoints[0];
  if (!newest) {
    throw new CheckpointError('nothing_to_undo', 'nothing to undo: no checkpoints for this workspace', {
      hint: 'Keel takes a checkpoint before each call that may change files; none has run here yet',
    });
  }
  if (id === undefined) {
    let target = newest;
    for (const c of checkpoints) {
      if (c.run !== newest.run) break;
      target = c;
    }
    return target;
  }
  const wanted = id.trim().toLowerCase();
  const matches = wanted.length >= 4 ? checkpoints.filter((c) => c.id.toLowerCase().startsWith(wanted)) : [];
  if (matches.length === 1) return matches[0] as Checkpoint;
  const why =
    matches.length > 1
      ? `matches ${matches.length} checkpoints; give more of it`
      : 'is not a checkpoint of this workspace';
  throw new CheckpointError('unknown_checkpoint', `checkpoint id "${id}" ${why}`, {
    hint: 'keel undo --list shows the ids',
  });
}

/**
 * The checkpoint holding the workspace as it was at `time` (an ISO time): the earliest one taken at or after it,
 * since nothing Keel did changed the files between `time` and that snapshot. Undefined when none was taken since:
 * Keel has changed nothing since then.
 */
export function checkpointSince(checkpoints: readonly Checkpoint[], time: string): Checkpoint | undefined {
  let found: Checkpoint | undefined;
  for (const c of checkpoints) {
    if (c.time < time) break;
    found = c;
  }
  return found;
}
