// Stages the workspace into the shadow index before a snapshot, with as little work as the change needs: the paths
// the tree watch saw change (stage-changed.ts), or else two `git ls-files` walks in parallel find what changed
// (tracked files by their stat data, new files, ignored ones), then one `git update-index` takes exactly those
// paths into one pack — or, past FILL_AT paths (a first checkpoint of a tree without git), fill.ts writes the pack
// and the index itself. Files over checkpoints.max_file_mb are hashed and named, never added.

import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { LargeFile, SkippedPath } from './checkpoints.js';
import { fillIndex } from './fill.js';
import {
  GENERATED_TREES,
  IGNORED_LS_ARGS,
  type IgnoredListing,
  type IgnoredPlan,
  parseIgnoredListing,
  planIgnored,
  splitZ,
} from './ignored-files.js';
import type { IndexEntries } from './index-trees.js';
import { writeIndex } from './index-writer.js';
import { type LargeStat, largeHashes } from './large-hashes.js';
import { firstFile, nestedSeed, populatedGitlinks } from './nested-repos.js';
import type { ShadowGit } from './shadow-git.js';
import { type ShadowIndex, shadowIndex } from './shadow-index.js';
import { type LastStage, listedIgnored, stageChanged } from './stage-changed.js';
import type { TreeWatch } from './tree-watch.js';

export interface StageOptions {
  /** The workspace's real path. */
  root: string;
  /** checkpoints.max_ignored_file_kb, in bytes. */
  maxIgnoredBytes: number;
  /** checkpoints.max_file_mb, in bytes. */
  maxFileBytes: number;
}

export interface Staged {
  skipped: SkippedPath[];
  large: LargeFile[];
  /** How the changes were found: by walking the tree, or from the paths the tree watch saw change. */
  how: 'scan' | 'watch';
}

/** Files per `git update-index`: git's bulk check-in (one pack a command) slows with the square of its files. */
const CHUNK = 8000;
/**
 * Past this many paths, Keel writes the pack and the index itself (fill.ts): git's bulk check-in costs about 3 ms
 * a file, a fill a fraction of that plus one rewrite of the index.
 */
export const FILL_AT = 100;
const STAT_BATCH = 256;

/** Modified and deleted tracked files (by stat, as git status finds them) and new ones: `? ` marks a new one. */
const CHANGED_LS_ARGS = ['ls-files', '-z', '-t', '-m', '-d', '-o', '--exclude-standard'];
/** Rounds of repositories nested in nested repositories taken in by one stage. */
const NESTED_ROUNDS = 8;

const literal = (path: string) => `:(top,literal)${path}`;

/** Matches a path with a folder named like a generated tree: the cheap test before splitting it. */
const GENERATED_SEGMENT = new RegExp(
  `(^|/)(${[...GENERATED_TREES].map((name) => name.replace(/\./g, '\\.')).join('|')})/`,
);

/** The folders named like generated trees (node_modules, dist, …) that hold files the index tracks. */
export function trackedGenerated(entries: IndexEntries | undefined): string[] {
  const found = new Set<string>();
  if (!entries) return [];
  for (let i = 0; i < entries.count; i++) {
    const path = entries.names.toString('utf8', entries.start[i], entries.end[i]);
    if (!GENERATED_SEGMENT.test(path)) continue;
    const parts = path.split('/');
    for (let j = 0; j < parts.length - 1; j++)
      if (GENERATED_TREES.has(parts[j]!)) found.add(parts.slice(0, j + 1).join('/'));
  }
  return [...found];
}

/**
 * `watch`: the workspace's tree watch, which spares later stages the walks (the first one starts it); `index`: the
 * store's parsed shadow index, told what a stage from the watch changed.
 */
export function stager(
  git: ShadowGit,
  options: StageOptions,
  watch?: TreeWatch,
  index: ShadowIndex = shadowIndex(git.gitDir),
) {
  // A large file is hashed again only when its stat data says it changed, in this run or since an earlier one.
  const hashes = largeHashes(git.gitDir, options.root);
  // The signal of the stage under way (stages run one at a time): a given-up preparation stops mid-hash, where a
  // 1 GB file kept a run that changed nothing from exiting for seconds.
  let stageSignal: AbortSignal | undefined;
  const largeFile = (path: string, stat: LargeStat) => hashes.of(path, stat, stageSignal);

  const untrackPaths = (paths: string[]) =>
    git.run(
      [
        'rm',
        '--cached',
        '-f',
        '-q',
        '-r',
        '--ignore-unmatch',
        '--pathspec-from-file=-',
        '--pathspec-file-nul',
      ],
      paths.map(literal).join('\0'),
    );

  const update = (list: string[]) =>
    git.run(['update-index', '--add', '--remove', '-z', '--stdin'], `${list.join('\0')}\0`);

  /** Many paths (a first checkpoint of a tree without git): read, hashed and packed by Keel, no process. */
  const fill = async (changed: string[], plan: IgnoredPlan, large: LargeFile[], signal?: AbortSignal) => {
    const dropped = new Set(plan.untrack);
    const filled = await fillIndex(
      git.gitDir,
      options.root,
      {
        paths: [...changed.filter((p) => !dropped.has(p)), ...plan.add],
        remove: plan.untrack,
        maxFileBytes: options.maxFileBytes,
      },
      { signal },
    );
    for (const path of filled.large) {
      const stat = await fs.lstat(join(options.root, path)).catch(() => undefined);
      if (stat) large.push(await largeFile(path, stat));
    }
    // Folders: a nested repository (a gitlink, or left out with no commit yet), a file become a folder.
    const rest = filled.rest;
    if (rest.length > 0)
      await update(rest.map((p) => p.replace(/\/$/, ''))).catch(() =>
        update(rest.filter((p) => !p.endsWith('/'))),
      );
  };

  /**
   * Copies into the shadow index the entries of the nested repositories at `folders` whose own index can seed it
   * (nested-repos.ts), their gitlinks dropped in the same write. Resolves with those seeded.
   */
  const seedNested = async (folders: readonly string[]): Promise<string[]> => {
    const seeds = await Promise.all(folders.map((f) => nestedSeed(options.root, f)));
    const seeded = folders.filter((_, i) => seeds[i]);
    if (seeded.length === 0) return seeded;
    const added = seeds.flatMap((seed) => seed?.entries ?? []);
    await git.shareObjects(seeds.flatMap((seed) => (seed ? [seed.objects] : [])));
    await writeIndex(git.gitDir, added, new Set([...seeded, ...added.map((e) => e.name.toString('utf8'))]));
    return seeded;
  };

  /**
   * The submodules: the index's gitlinks whose folders hold a repository, seeded before a scan's walks (which then
   * go into them) and before the watch starts (which then knows their tracked folders named like generated trees).
   */
  const seedSubmodules = async () =>
    seedNested(await populatedGitlinks(options.root, (await index.read())?.entries));

  /**
   * Nested repositories git named as folders (new ones), and gitlinks not seeded, are taken in as files: seeded
   * where they can be, else their first file added (nested-repos.ts); then the shadow's own walks of just those
   * folders find what differs or is new, into `entries` and `listing` as the whole scan's. Those walks may name
   * repositories nested in these: a round each.
   */
  const takeNested = async (
    entries: Map<string, boolean>,
    listing: IgnoredListing,
    signal?: AbortSignal,
  ): Promise<void> => {
    const done = new Set<string>();
    for (let round = 0; round < NESTED_ROUNDS; round++) {
      const links = await populatedGitlinks(options.root, (await index.read())?.entries);
      const folders = [...entries.keys()].filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1));
      const found = [...new Set([...links, ...folders])].filter((f) => !done.has(f));
      if (found.length === 0) return;
      for (const f of found) done.add(f);
      const seeded = await seedNested(found);
      const rest = found.filter((f) => !seeded.includes(f));
      const firsts = await Promise.all(rest.map((f) => firstFile(options.root, f, options.maxFileBytes)));
      const started = rest.filter((_, i) => firsts[i]);
      const taken = [...seeded, ...started];
      if (taken.length === 0) return;
      if (started.length > 0) {
        // A gitlink goes before a file below it is added: git refuses that while the gitlink stands.
        const dropped = started.filter((f) => links.includes(f));
        if (dropped.length > 0)
          await git.run(['update-index', '--force-remove', '-z', '--stdin'], `${dropped.join('\0')}\0`);
        const files = firsts.filter((f): f is string => f !== undefined);
        await git.run(['update-index', '--add', '-z', '--stdin'], `${files.join('\0')}\0`);
      }
      // Named as a folder (new) or as a gitlink (its commit moved): its files stand for it now.
      for (const f of taken) {
        entries.delete(`${f}/`);
        entries.delete(f);
      }
      const within = taken.map((f) => literal(`${f}/`));
      const [changed, ignored] = await Promise.all([
        git.run([...CHANGED_LS_ARGS, '--', ...within], undefined, { signal }),
        git.run([...IGNORED_LS_ARGS, '--', ...within], undefined, { signal }),
      ]);
      for (const e of splitZ(changed))
        if (!entries.has(e.slice(2))) entries.set(e.slice(2), !e.startsWith('? '));
      const more = parseIgnoredListing(ignored);
      listing.others.push(...more.others);
      listing.cached.push(...more.cached);
    }
  };

  const scan = async (signal?: AbortSignal): Promise<Staged> => {
    // Modified and deleted tracked files (by stat, as git status finds them) and new ones; the ignored ones apart.
    // A preparation given up ends the walks themselves (they only read): on a big tree a run would wait for them.
    await seedSubmodules();
    signal?.throwIfAborted();
    const [changedText, ignoredText] = await Promise.all([
      git.run(CHANGED_LS_ARGS, undefined, { signal }),
      git.run(IGNORED_LS_ARGS, undefined, { signal }),
    ]);
    signal?.throwIfAborted();
    const listing = parseIgnoredListing(ignoredText);
    // A file listed twice (modified and deleted) is looked at once. A name that is not UTF-8 reads with U+FFFD in
    // it, which names no file: it cannot be held, and undo says so (it leaves such a file as it is).
    const entries = new Map(splitZ(changedText).map((e) => [e.slice(2), !e.startsWith('? ')] as const));
    await takeNested(entries, listing, signal);
    const plan = await planIgnored(options.root, options.maxIgnoredBytes, listing);
    const large: LargeFile[] = [];
    const unreadable: SkippedPath[] = [];
    for (const path of entries.keys())
      if (path.includes('\uFFFD')) {
        entries.delete(path);
        unreadable.push({ path, reason: 'encoding' });
      }
    if (entries.size + plan.add.length > FILL_AT) await fill([...entries.keys()], plan, large, signal);
    else await updateListed(entries, plan, large);
    large.sort((a, b) => (a.path < b.path ? -1 : 1));
    // Folders named like generated trees that git does not ignore hold files to keep: the watch takes them in.
    const ignored = new Set(listing.others);
    for (const dir of watch?.unwatched() ?? []) if (!listedIgnored(dir, ignored)) watch?.keep(dir);
    return { skipped: [...plan.skipped, ...unreadable], large, how: 'scan' };
  };

  /** A few paths: files over the limit named, the rest through `git update-index`. */
  const updateListed = async (entries: Map<string, boolean>, plan: IgnoredPlan, large: LargeFile[]) => {
    const add = new Set<string>();
    const untrack = new Set(plan.untrack);
    // Stat calls run a batch at a time.
    const all = [...entries];
    for (let i = 0; i < all.length; i += STAT_BATCH) {
      await Promise.all(
        all.slice(i, i + STAT_BATCH).map(async ([path, tracked]) => {
          const stat = await fs.lstat(join(options.root, path)).catch(() => undefined);
          if (stat?.isFile() && stat.size > options.maxFileBytes) {
            large.push(await largeFile(path, stat));
            if (tracked) untrack.add(path);
          } else add.add(path);
        }),
      );
    }
    if (untrack.size > 0) await untrackPaths([...untrack]);
    // Exact paths, no pathspec matching and no walk: update-index adds, re-hashes or (--remove) drops each one,
    // ignored ones too. A command per CHUNK paths, each into one pack. Tracked paths go first: one gone (or now a
    // folder) is dropped before a new path in its place is added (a file where a folder was, or the reverse), which
    // git refuses while the old entry stands.
    const taken = (p: string) => add.has(p) && !untrack.has(p);
    const paths = [
      ...all.filter(([p, tracked]) => tracked && taken(p)).map(([p]) => p),
      ...all.filter(([p, tracked]) => !tracked && taken(p)).map(([p]) => p),
      ...plan.add,
    ];
    for (let i = 0; i < paths.length; i += CHUNK) {
      const some = paths.slice(i, i + CHUNK);
      // A nested repository with no commit yet cannot be added (git says so); it is left out, as `git add` would.
      await update(some.map((p) => p.replace(/\/$/, ''))).catch(() =>
        update(some.filter((p) => !p.endsWith('/'))),
      );
    }
  };

  const changedContext = watch && {
    git,
    watch,
    index,
    root: options.root,
    maxIgnoredBytes: options.maxIgnoredBytes,
    maxFileBytes: options.maxFileBytes,
    largeFile,
    untrack: async (paths: string[]) => {
      await untrackPaths(paths);
    },
    update: async (paths: string[]) => {
      for (let i = 0; i < paths.length; i += CHUNK) {
        await git.run(
          ['update-index', '--add', '--remove', '-z', '--stdin'],
          `${paths.slice(i, i + CHUNK).join('\0')}\0`,
        );
      }
    },
  };
  let last: LastStage | undefined;
  const sorted = (large: Map<string, LargeFile>) =>
    [...large.values()].sort((a, b) => (a.path < b.path ? -1 : 1));

  /** `signal`: a preparation given up (the run ended without a change) stops between jobs and rejects. */
  return async function stage(signal?: AbortSignal): Promise<Staged> {
    stageSignal = signal;
    try {
      const staged = await stageOnce(signal);
      // A scan saw every large file there is: the hashes of those gone are dropped.
      await hashes.save(staged.how === 'scan' ? staged.large : undefined);
      return staged;
    } finally {
      stageSignal = undefined;
      // What was hashed before a stop is kept all the same.
      await hashes.save();
    }
  };

  async function stageOnce(signal?: AbortSignal): Promise<Staged> {
    await git.ensure();
    if (!watch || !changedContext) return scan(signal);
    try {
      const drained = await watch.drain();
      let rewatch = 'scan' in drained ? drained.scan === 'rebuild' : true;
      if ('paths' in drained && last) {
        const next = await stageChanged(changedContext, drained.paths, last);
        if (next) {
          last = next;
          return { skipped: next.skipped, large: sorted(next.large), how: 'watch' };
        }
      } else rewatch ||= !last;
      // Folders named like generated trees that hold tracked files (babel's test fixtures' node_modules, .yarn):
      // watched from the first start, where finding them after it made the next stage start again and walk all.
      if (rewatch && !last) {
        await seedSubmodules();
        for (const dir of trackedGenerated((await index.read())?.entries)) watch.keep(dir);
      }
      // Watched again before the walk: what changes during it is seen by one or the other.
      if (rewatch) await watch.start();
      const staged = await scan(signal);
      last = { skipped: staged.skipped, large: new Map(staged.large.map((f) => [f.path, f])) };
      return staged;
    } catch (error) {
      // Changes drained but not staged would be lost: the next stage scans.
      watch.invalidate();
      throw error;
    }
  }
}
