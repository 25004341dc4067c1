// Opens a workspace's checkpoint store (the shadow git repository, or copies where git is missing) and, for a
// run, takes one checkpoint before each call that may change the workspace.
import { promises as fs, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ToolPreview } from '../core/approval.js';
import { environmentError } from '../core/errors.js';
import { CheckpointError, type CheckpointStore, checkpointDir } from './checkpoints.js';
import { copyStore } from './copy-store.js';
import { gitStore } from './git-store.js';
import { GitMissingError, type GitSpawn, type ShadowGit, shadowGit } from './shadow-git.js';
import { type TreeWatch, treeWatch } from './tree-watch.js';

export const NO_GIT_WARNING =
  'git was not found: checkpoints cover only file tools (write_file, delete_path, …); changes made by shell commands cannot be undone without git';

/** What `keel undo` notes of a store of copies, whichever reason made it one. */
export const COPIES_NOTE =
  'checkpoints here cover only file tools (write_file, delete_path, …): changes made by shell commands cannot be undone';

/**
 * A workspace too broad to snapshot whole — the filesystem root, the home directory or a folder holding it (gigabytes
 * of caches, downloads and every project) — named as the warning says it, else undefined. There checkpoints copy only
 * what file tools write, as where git is missing.
 */
export function broadWorkspace(root: string, env: NodeJS.ProcessEnv): string | undefined {
  if (root === '/') return 'the filesystem root';
  const home = env.HOME ? resolve(env.HOME) : undefined;
  if (!home || home === '/') return undefined;
  let real = home;
  try {
    real = realpathSync(home);
  } catch {
    // A home that does not exist holds nothing to protect.
  }
  for (const h of new Set([home, real])) {
    if (root === h) return 'your home directory';
    if (h.startsWith(`${root}/`)) return 'a folder holding your home directory';
  }
  return undefined;
}

export interface StoreOptions {
  /** The workspace's real path (symlinks resolved). */
  root: string;
  stateDir: string;
  /** Where git is looked up (PATH) and which GIT_* variables to drop. */
  env: NodeJS.ProcessEnv;
  /** checkpoints.max_ignored_file_kb: the largest git-ignored file a checkpoint keeps. Default 1024. */
  maxIgnoredKb?: number;
  /** checkpoints.max_file_mb: larger files are recorded by size and hash, never copied. Default 50. */
  maxFileMb?: number;
  /** How git processes start (default: spawned from this process). */
  startGit?: GitSpawn;
}

export const DEFAULT_MAX_IGNORED_KB = 1024;
export const DEFAULT_MAX_FILE_MB = 50;

function stores(options: StoreOptions, watch?: TreeWatch) {
  const dir = checkpointDir(options.stateDir, options.root);
  const git = shadowGit(join(dir, 'git'), options.root, options.env, options.startGit);
  return {
    git,
    gitStore: gitStore(git, {
      root: options.root,
      maxIgnoredBytes: (options.maxIgnoredKb ?? DEFAULT_MAX_IGNORED_KB) * 1024,
      maxFileBytes: (options.maxFileMb ?? DEFAULT_MAX_FILE_MB) * 1024 * 1024,
      ...(watch ? { watch } : {}),
    }),
    copyStore: copyStore(join(dir, 'copies'), options.root),
    copies: join(dir, 'copies'),
  };
}

/** PATHs where `git --version` ran: git does not come and go within a process. */
const gitFound = new Set<string | undefined>();
async function gitInstalled(git: ShadowGit, path: string | undefined): Promise<void> {
  if (gitFound.has(path)) return;
  await git.run(['--version']);
  gitFound.add(path);
}

/** The store `keel undo` reads: git's when git runs, unless only copies were ever taken here. */
export async function openCheckpointStore(options: StoreOptions): Promise<CheckpointStore> {
  const s = stores(options);
  try {
    await gitInstalled(s.git, options.env.PATH);
  } catch (error) {
    if (error instanceof GitMissingError) return s.copyStore;
    throw error;
  }
  const hasCopies = await fs.readdir(s.copies).then(
    (names) => names.length > 0,
    () => false,
  );
  return hasCopies && !(await s.git.exists()) ? s.copyStore : s.gitStore;
}

export interface CheckpointChange {
  callId: string;
  tool: string;
  preview: ToolPreview;
  turn?: number;
}

export interface Checkpointer {
  /** A new run (or chat turn): its first checkpoint is the one `keel undo` goes back to. */
  startRun(id: string, session?: string): void;
  /** Creates the shadow repository in the background, ahead of the first checkpoint (which would otherwise). */
  warm(): void;
  /**
   * Starts, in the background, the work that makes a first checkpoint slow on a big tree (creating the store,
   * hashing the workspace); the first `take` waits for it, `settle` does not. For a run that may change files.
   * Resolves when done; never rejects.
   */
  prepare(): Promise<void>;
  /**
   * Snapshots before a call. Throws CheckpointError, so the call is refused rather than run without a way back.
   * Resolves with what to call once the call ran: it records the state the call left (never throws).
   */
  take(change: CheckpointChange): Promise<() => Promise<void>>;
  /**
   * Records the state the last calls left, once a turn's calls are done (and at the end of a run or chat turn, on
   * close): only the newest record counts for `keel undo`, so one per change would only cost git processes.
   * Resolves when the last record (and checkpoint) is written, whoever started it.
   */
  settle(): Promise<void>;
  /**
   * Resolves when nothing is being written to the store: safe to exit. A preparation no checkpoint has waited for
   * (the run changed nothing) is given up at its next step rather than finished.
   */
  drained(): Promise<void>;
  /** Stops watching the workspace (the run or chat ended); checkpoints taken after it walk the tree. */
  close(): void;
}

/**
 * A full disk or read-only mount met without a path (a write to an open file, git's own message) as met at the
 * checkpoint store, the one place a checkpoint writes; any other error as it is.
 */
function atStore(error: unknown, dir: string): unknown {
  const { code, path, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof path === 'string') return error;
  const text = error instanceof Error ? error.message : String(error);
  const known =
    code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS'
      ? code
      : /no space left on device/i.test(text)
        ? 'ENOSPC'
        : /disk quota exceeded/i.test(text)
          ? 'EDQUOT'
          : /read-only file system/i.test(text)
            ? 'EROFS'
            : undefined;
  return known ? { code: known, syscall, path: dir } : error;
}

export function createCheckpointer(
  options: StoreOptions & {
    warn: (message: string) => void;
    /** false: every checkpoint walks the tree (no tree watch). */
    watch?: boolean;
  },
): Checkpointer {
  // Later checkpoints stage only what the watch saw change instead of walking the tree (see tree-watch.ts).
  const watch = options.watch === false ? undefined : treeWatch(options.root);
  const s = stores(options, watch);
  const broad = broadWorkspace(options.root, options.env);
  let store: CheckpointStore = broad ? s.copyStore : s.gitStore;
  let broadWarned = false;
  let run = '';
  let session: string | undefined;
  let first = true;
  const relative = (p: string) => (p.startsWith(`${options.root}/`) ? p.slice(options.root.length + 1) : p);
  // One snapshot at a time: two `git add`s at once would collide on the shadow index's lock.
  let queue: Promise<unknown> = Promise.resolve();
  // A change ran since the state it left was last recorded.
  let pendingAfter = false;
  // A background command started: it may change files after its call returned, so every settle records the state.
  let lingering = false;
  // The newest take: what settle waits for when no change ran since (never a prepare: a run that changed nothing
  // does not wait at its end for the hashing of a big tree).
  let lastTake: Promise<unknown> = Promise.resolve();
  let lastAfter: Promise<unknown> = Promise.resolve();
  // The preparation running ahead of any checkpoint: what drained() stops when none came.
  let preparing: AbortController | undefined;
  const take = async (change: CheckpointChange): Promise<void> => {
    const meta = {
      time: new Date().toISOString(),
      run,
      ...(change.turn !== undefined ? { turn: change.turn } : {}),
      ...(session !== undefined ? { session } : {}),
      call: change.callId,
      tool: change.tool,
      summary: change.preview.summary,
      paths: change.preview.writes.map(relative),
      first,
    };
    if (broad && !broadWarned) {
      broadWarned = true;
      options.warn(
        `the workspace is ${broad}: checkpoints cover only file tools (write_file, delete_path, …), as a snapshot of all of it would take minutes; changes made by shell commands cannot be undone here (run Keel in a project folder)`,
      );
    }
    try {
      try {
        await store.take(meta, change.preview.writes);
      } catch (error) {
        if (!(error instanceof GitMissingError)) throw error;
        store = s.copyStore;
        options.warn(NO_GIT_WARNING);
        await store.take(meta, change.preview.writes);
      }
    } catch (error) {
      // Keel's state dir unusable (a full disk, no permission, a file in its place): no call can change anything,
      // so the run ends with the path and the fix rather than refusing every change one by one.
      // Only Keel's own files: a workspace file the copy store cannot read stays this call's refusal.
      const located = atStore(error, checkpointDir(options.stateDir, options.root));
      const where = (located as NodeJS.ErrnoException | undefined)?.path;
      const ours = typeof where === 'string' && `${where}/`.startsWith(`${options.stateDir}/`);
      const environment = ours ? environmentError(located) : undefined;
      if (environment) throw environment;
      const why = error instanceof Error ? error.message : String(error);
      throw new CheckpointError(
        'checkpoint_failed',
        `refused: the checkpoint before this ${change.tool} call failed (${why}), so its change could not be undone; nothing was changed`,
        { cause: error },
      );
    }
    first = false;
  };
  return {
    startRun(id, sessionId) {
      run = id;
      session = sessionId;
      first = true;
    },
    warm() {
      // Create the shadow repository while the model thinks, not when the first change waits for it. A failure
      // here resurfaces, and refuses the call, at the first checkpoint.
      if (store === s.gitStore) s.git.ensure().catch(() => {});
    },
    prepare() {
      if (store !== s.gitStore) return Promise.resolve();
      // A failure here resurfaces, and refuses the call, at the first checkpoint (which also redoes a stopped one).
      const controller = new AbortController();
      preparing = controller;
      const prepared = queue
        .then(() => store.prepare?.(controller.signal))
        .then(
          () => {},
          () => {},
        );
      queue = prepared;
      return prepared;
    },
    take(change) {
      // A checkpoint builds on the preparation: it is no longer given up.
      preparing = undefined;
      pendingAfter = false;
      if (change.preview.lingers) lingering = true;
      const next = queue.then(() => take(change));
      queue = next.catch(() => {});
      lastTake = queue;
      return next.then(() => async () => {
        pendingAfter = true;
      });
    },
    settle() {
      if (!pendingAfter && !lingering) return Promise.all([lastTake, lastAfter]).then(() => {});
      pendingAfter = false;
      // An undo then tells edits made after the run from the run's own; without it, it only says less.
      const after = queue.then(() => store.after?.()).catch(() => {});
      queue = after;
      lastAfter = after;
      return after;
    },
    drained() {
      // Hashing a big tree for a run that changed nothing would keep it from exiting for seconds: given up instead.
      preparing?.abort();
      preparing = undefined;
      // A write cut short (the process exiting) would leave a `.lock` that refuses the next one.
      return queue.then(
        () => {},
        () => {},
      );
    },
    close() {
      watch?.close();
    },
  };
}
