// Checkpoints as commits of a shadow git repository: the whole workspace (less what its .gitignore files ignore)
// before each call, so changes made by shell commands can be undone too. Plumbing only (ls-files, update-index;
// trees, the commit and its ref written directly) — no porcelain, no hooks; the user's own `.git` is only read from.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import {
  type Checkpoint,
  CheckpointError,
  type CheckpointMeta,
  type CheckpointStore,
  checkpointMetaSchema,
  type FileChange,
  type RestoreResult,
  type SkippedPath,
} from './checkpoints.js';
import { looseCommitParent, readRef, updateRef, writeCommit } from './git-objects.js';
import { indexLookup } from './index-trees.js';
import { withLargeChanges } from './large-changes.js';
import { holdNested, nestedTargets, restoreNested } from './nested-files.js';
import { emptiedRepositories, keepNestedFolders, withoutNestedTransition } from './nested-repos.js';
import { largeNow, restoreDiff } from './restore-checks.js';
import { CHECKPOINT_REF, type ShadowGit } from './shadow-git.js';
import { shadowIndex } from './shadow-index.js';
import { type Staged, stager } from './stage.js';
import { clearStaleIndexLock } from './stale-index-lock.js';
import { storeLock } from './store-lock.js';
import type { TreeWatch } from './tree-watch.js';
import { readHead } from './user-repo.js';

/** The chain of checkpoints; each commit's parent is the checkpoint before it. */
const REF = CHECKPOINT_REF;
/** The workspace as Keel's last call left it. */
const AFTER_REF = 'refs/keel/after';
const META = 'Keel-Checkpoint: ';
const ID_LENGTH = 10;

function message(meta: CheckpointMeta): string {
  const subject = meta.first ? `before run ${meta.run}: ${meta.summary}` : `before ${meta.summary}`;
  return `${subject}\n\n${META}${JSON.stringify(meta)}\n`;
}

function parseMeta(body: string): CheckpointMeta | undefined {
  const line = body.split('\n').find((l) => l.startsWith(META));
  if (!line) return undefined;
  try {
    const parsed = checkpointMetaSchema().safeParse(JSON.parse(line.slice(META.length)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `-z --name-status` output: status and path alternate, NUL-separated. */
function parseNameStatus(text: string): FileChange[] {
  // Log output puts a NUL and a newline between a commit's message and its files; no path is empty.
  const tokens = text
    .split('\0')
    .map((t) => t.replace(/^\n+/, ''))
    .filter((t) => t !== '');
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const status = tokens[i];
    const path = tokens[i + 1] as string;
    if (status === 'A' || status === 'M' || status === 'D') changes.push({ status, path });
    else if (status === 'T') changes.push({ status: 'M', path });
  }
  return changes;
}

/** Skipped paths kept in a checkpoint's meta; the rest are only counted. */
const MAX_SKIPPED_SHOWN = 50;

export interface GitStoreOptions {
  /** The workspace's real path. */
  root: string;
  /** Largest git-ignored file a checkpoint keeps (checkpoints.max_ignored_file_kb), in bytes. */
  maxIgnoredBytes: number;
  /** Largest file a checkpoint copies (checkpoints.max_file_mb), in bytes: larger ones are named by size and hash. */
  maxFileBytes: number;
  /** The workspace's tree watch, for a store that takes checkpoints in a run (not for one `keel undo`). */
  watch?: TreeWatch;
}

export function gitStore(git: ShadowGit, options: GitStoreOptions): CheckpointStore {
  const head = (ref = REF): Promise<string | undefined> => readRef(git.gitDir, ref);
  // Another Keel in this workspace stages into the same index and moves the same ref: one at a time.
  const locked = storeLock(git.gitDir);
  // The shadow index kept parsed, with its folders' trees: a snapshot after a few edits rebuilds only theirs.
  const index = shadowIndex(git.gitDir, {
    // One git process reads the store and the user's, its alternate, as a checkout would.
    missing: async (ids) => {
      const out = await git.run(['cat-file', '--batch-check=%(objectname)'], `${ids.join('\n')}\n`);
      return new Set(
        out.split('\n').flatMap((line) => (line.endsWith(' missing') ? [line.split(' ')[0]!] : [])),
      );
    },
    copy: async (ids) => {
      const trees = await git.run(
        ['rev-list', '--objects', '--filter=blob:none', '--no-object-names', '--stdin'],
        `${ids.join('\n')}\n`,
      );
      await git.run(['pack-objects', '-q', join(git.gitDir, 'objects', 'pack', 'pack')], trees);
    },
  });
  const stageNow = stager(git, options, options.watch, index);
  // Trees this process wrote or found in the store: a snapshot writes only those of folders that changed.
  const trees = new Set<string>();
  // The first stage of a process refreshes the stat data of every tracked file (once, in the background when
  // the run starts), so later ones find changes by stat alone.
  let refreshed = false;
  const stage = async (signal?: AbortSignal): Promise<Staged> => {
    signal?.throwIfAborted();
    await git.ensure();
    // A lock left by a git killed mid-write would refuse every checkpoint from here on (a stat when there is none).
    await clearStaleIndexLock(git.gitDir);
    signal?.throwIfAborted();
    if (!refreshed) {
      refreshed = true;
      // A preparation given up (the run ended, nothing changed) stops the refresh itself: on a big tree it is the
      // slow part, and a run would otherwise wait for it to exit. The next stage refreshes instead.
      if (!git.indexFresh)
        await git.run(['update-index', '-q', '--refresh'], undefined, { signal }).catch(async () => {
          if (!signal?.aborted) return;
          refreshed = false;
          // git has exited (spawnGit waits): a lock left is one it made in the instant before it guards its locks
          // against signals, and would refuse every later checkpoint. Nothing else writes this index meanwhile.
          await fs.rm(join(git.gitDir, 'index.lock'), { force: true });
        });
    }
    signal?.throwIfAborted();
    return stageNow(signal);
  };

  const commit = async (
    meta: CheckpointMeta,
    ref: string,
    parent: string | undefined,
    old: string | undefined,
  ) => {
    // Trees are written to the store even when the user's repository has them, so a checkpoint stays readable if it
    // prunes them: those of folders unchanged since the user's index (its cache tree) after the change, by after().
    const tree = await index.writeTrees(trees);
    const hash = await writeCommit(git.gitDir, {
      tree,
      ...(parent ? { parent } : {}),
      message: message(meta),
    });
    // The old value guards against another Keel in the same workspace moving the ref meanwhile.
    await updateRef(git.gitDir, ref, hash, old);
    void git.maintain();
    return hash;
  };

  /** Where files written inside nested repositories are held (nested-files.ts). */
  const nestedFolder = join(git.gitDir, 'keel-nested');
  /** What the last snapshot left out (the restore's own snapshot names the files it cannot touch). */
  let lastSkipped: SkippedPath[] = [];
  const snapshot = async (meta: CheckpointMeta): Promise<string> => {
    const staged = await stage();
    const { large } = staged;
    // `.git` is never copied: where its HEAD points now lets undo say whether git's history moved since.
    const userHead = staged.skipped.some((s) => s.reason === 'history')
      ? await readHead(options.root)
      : undefined;
    const skipped = staged.skipped.map((s) =>
      s.reason === 'history'
        ? { path: s.path, reason: s.reason, ...(userHead ? { head: userHead } : {}) }
        : s,
    );
    // A file the call will write inside a nested repository whose files the tree does not hold (the shadow records
    // it by its commit, a gitlink): held apart.
    const entries = meta.paths.length > 0 ? (await index.read())?.entries : undefined;
    const lookup = entries && indexLookup(entries);
    const nested = await holdNested(options.root, nestedFolder, meta.paths, options.maxFileBytes, (repo) =>
      Boolean(lookup?.under(repo.replace(/\/$/, ''))),
    );
    skipped.push(...nested.skipped);
    lastSkipped = skipped;
    const parent = await head();
    const shown = skipped.slice(0, MAX_SKIPPED_SHOWN);
    const more = skipped.length - shown.length;
    const full = {
      ...meta,
      ...(shown.length > 0 ? { skipped: shown } : {}),
      ...(more > 0 ? { skipped_more: more } : {}),
      ...(large.length > 0 ? { large } : {}),
      ...(nested.held.length > 0 ? { nested: nested.held } : {}),
      nested_files: true,
    };
    return commit(full, REF, parent, parent);
  };

  /** A commit's first parent ('' if none or unreadable): read in process when loose, else by git. */
  const parentOf = async (commit: string) =>
    (await looseCommitParent(git.gitDir, commit)) ??
    (await git.run(['rev-parse', '--verify', '--quiet', `${commit}^`]).catch(() => '')).trim();

  /** The files changed between two commits (or a commit and the index). */
  const diff = async (...revs: string[]) =>
    parseNameStatus(await git.run(['diff', '-z', '--no-renames', '--name-status', ...revs]));

  /** Files now present that `target` did not keep because of their size (or may not have: past its list). */
  const leftOut = async (target: Checkpoint, changes: FileChange[]): Promise<Set<string>> => {
    const removed = changes.filter((c) => c.status === 'D').map((c) => c.path);
    const listed = new Set(
      (target.skipped ?? []).filter((s) => s.reason === 'size' || s.reason === 'limit').map((s) => s.path),
    );
    for (const f of target.large ?? []) listed.add(f.path);
    const keep = new Set(removed.filter((p) => listed.has(p)));
    if (target.skipped_more && removed.length > 0) {
      const ignored = await git
        .run(['check-ignore', '-z', '--no-index', '--stdin'], removed.join('\0'))
        .catch(() => '');
      for (const p of ignored.split('\0')) if (p) keep.add(p);
    }
    return keep;
  };

  /** The workspace as it is now, recorded as the state Keel's last call (or an undo) left. */
  const recordAfter = async () => {
    // Parented on the newest checkpoint: an undo trusts it only while no checkpoint came after it.
    await stage();
    const parent = await head();
    if (!parent) return;
    const meta = {
      time: new Date().toISOString(),
      run: '',
      call: '',
      tool: 'after',
      summary: 'after',
      paths: [],
      first: false,
    };
    await commit(meta, AFTER_REF, parent, await head(AFTER_REF));
  };

  return {
    kind: 'git',
    after: () =>
      locked(async () => {
        await recordAfter();
        await index.copyTaken(trees);
      }),
    async changedByLastCalls() {
      const newest = await head();
      const after = await head(AFTER_REF);
      if (!newest || !after) return undefined;
      const parent = await parentOf(after);
      return parent === newest ? diff(newest, after) : undefined;
    },
    prepare: (signal) =>
      locked(async () => {
        await stage(signal);
        signal?.throwIfAborted();
        // The trees too: a seeded index names the user's trees, which the shadow writes once here.
        await index.writeTrees(trees);
      }),
    take: (meta) => locked(async () => (await snapshot(meta)).slice(0, ID_LENGTH)),

    list: (options) => locked(() => listCheckpoints(options)),

    restore: (target: Checkpoint, undoRun: string) => locked(() => restoreTo(target, undoRun)),
  };

  async function listCheckpoints(options?: { newestChanged?: boolean }): Promise<Checkpoint[]> {
    if (!(await git.exists())) return [];
    // A store damaged since (a kill during its creation, a file removed by hand) is repaired before it is read.
    await git.ensure();
    if (!(await head())) return [];
    const log = await git.run([
      'log',
      '-z',
      '--no-renames',
      '--name-status',
      '--format=%x1e%H%x1f%B%x1f',
      REF,
    ]);
    const commits = log
      .split('\x1e')
      .slice(1)
      .map((record) => {
        const [hash = '', body = '', rest = ''] = record.split('\x1f');
        return { hash, meta: parseMeta(body), ownChanges: parseNameStatus(rest) };
      });
    // A commit's own diff is what changed since the checkpoint before it: that checkpoint's "changed after".
    const withNewest = options?.newestChanged !== false;
    const staged = withNewest ? await stage() : undefined;
    const sinceNewest = withNewest ? await diff('--cached', REF) : undefined;
    const checkpoints: Checkpoint[] = [];
    commits.forEach((c, i) => {
      if (!c.meta) return;
      // A file the checkpoint named by size and hash (too big to hold) was there: "created" would be wrong.
      const named = new Set(c.meta.large?.map((f) => f.path));
      const after = i === 0 ? sinceNewest : (commits[i - 1]?.ownChanges ?? []);
      // One from before nested repositories' files were held: that the next one holds them is no change.
      const own = (after && !c.meta.nested_files ? withoutNestedTransition(after) : after)?.map(
        (f): FileChange => (f.status === 'A' && named.has(f.path) ? { ...f, status: 'M' } : f),
      );
      // Files too big to hold are in no tree: one changed after shows in the hashes the next state named.
      const next = i === 0 ? staged : commits[i - 1]?.meta;
      const withLarge = own && next ? withLargeChanges(own, c.meta.large ?? [], next.large ?? []) : own;
      // The files of nested repositories the call wrote are held apart, not in the trees diffed: named as well.
      const nested = (c.meta.nested ?? []).map(
        (f): FileChange => ({ status: f.sha256 ? 'M' : 'A', path: f.path }),
      );
      const changed = withLarge && nested.length > 0 ? [...withLarge, ...nested] : withLarge;
      checkpoints.push({ ...c.meta, id: c.hash.slice(0, ID_LENGTH), ...(changed ? { changed } : {}) });
    });
    return checkpoints;
  }

  async function restoreTo(target: Checkpoint, undoRun: string): Promise<RestoreResult> {
    const newest = await head();
    const after = await head(AFTER_REF);
    const afterParent = after ? await parentOf(after) : undefined;
    // Files written inside nested repositories since the target, as they were then: this undo's own checkpoint
    // holds them as they are now, so undoing it puts them back too.
    const since = await listCheckpoints({ newestChanged: false });
    const at = since.findIndex((c) => c.id === target.id);
    const nested = nestedTargets(at === -1 ? [target] : since.slice(0, at + 1).reverse());
    const current = await snapshot({
      time: new Date().toISOString(),
      run: undoRun,
      call: 'undo',
      tool: 'undo',
      summary: `undo to ${target.id}`,
      paths: [...nested.keys()],
      first: true,
    });
    const left = lastSkipped.filter((s) => s.reason === 'encoding').map((s) => s.path);
    const commitId = (await git.run(['rev-parse', '--verify', `${target.id}^{commit}`])).trim();
    // A checkpoint from before nested repositories' files were held: such a folder's files are kept as they are.
    const full = target.nested_files
      ? commitId
      : await keepNestedFolders((args, input) => git.run(args, input), current, commitId);
    const hint = `the state before this undo is checkpoint ${current.slice(0, ID_LENGTH)}; keel undo ${current.slice(0, ID_LENGTH)} goes back to it`;
    // Refused before anything is written: a half-done restore would leave a workspace that is neither state.
    const { changes: all, missing } = await restoreDiff(git, current, full);
    if (missing.length > 0) {
      const shown = missing.slice(0, 5).join(', ');
      const more = missing.length > 5 ? ` and ${missing.length - 5} more` : '';
      throw new CheckpointError(
        'restore_failed',
        `cannot restore checkpoint ${target.id}: the contents of ${missing.length} file${missing.length === 1 ? '' : 's'} it holds (${shown}${more}) are gone from the git repository it shared them with (pruned by git gc); nothing was changed`,
        { hint },
      );
    }
    // A file the target left out (too big) is not "absent" there: it stays as it is, out of the index, so
    // read-tree does not remove it.
    const keep = await leftOut(target, all);
    if (keep.size > 0) {
      await git.run(
        ['--literal-pathspecs', 'rm', '--cached', '-q', '--pathspec-from-file=-', '--pathspec-file-nul'],
        [...keep].join('\0'),
      );
    }
    const changes = all.filter((c) => !keep.has(c.path));
    // What changed since Keel's last call ended is someone else's work: named, so the user knows it is overwritten.
    const handEdits = after && newest && afterParent === newest ? await diff(after, current) : undefined;
    try {
      // The index holds the state just saved, so files in it but not in the target are removed, the target's
      // files written; ignored and untracked-by-us paths (and `.git`) are left alone.
      // The index is rewritten whole: the next stage scans rather than trust what the watch saw before.
      options.watch?.invalidate();
      await git.run(['read-tree', '--reset', '-u', full]);
    } catch (error) {
      throw new CheckpointError(
        'restore_failed',
        `could not restore checkpoint ${target.id}: ${error instanceof Error ? error.message : String(error)}`,
        { hint, cause: error },
      );
    }
    changes.push(...(await restoreNested(options.root, nestedFolder, nested)));
    const removed = changes.filter((c) => c.status === 'D').map((c) => c.path);
    const repositories = removed.length > 0 ? await emptiedRepositories(options.root, removed) : [];
    // Edits made after this undo are then told apart from it too.
    await recordAfter().catch(() => {});
    // The undo's own checkpoint, readable whatever the user's repository prunes later.
    await index.copyTaken(trees).catch(() => {});
    const large = target.large ? await largeNow(options.root, target.large) : [];
    return {
      undoId: current.slice(0, ID_LENGTH),
      changes,
      ...(handEdits ? { handEdits } : {}),
      ...(large.length > 0 ? { large } : {}),
      ...(left.length > 0 ? { left } : {}),
      ...(repositories.length > 0 ? { repositories } : {}),
    };
  }
}
