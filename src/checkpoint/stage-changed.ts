// Stages only the paths the tree watch saw change, with the decisions a full scan would make for them: tracked
// files are re-hashed or removed, new files added unless git ignores them, ignored ones planned as
// ignored-files.ts does. One `git update-index` for an edit, a `git ls-files` of just the new paths before it, no
// process when nothing changed. Anything it cannot decide as the scan would makes it answer undefined: scan.
import { promises as fs, type Stats } from 'node:fs';
import { basename, join } from 'node:path';
import type { LargeFile, SkippedPath } from './checkpoints.js';
import {
  GENERATED_TREES,
  IGNORED_LS_ARGS,
  type IgnoredListing,
  parseIgnoredListing,
  planIgnored,
} from './ignored-files.js';
import { patchIndex } from './index-patch.js';
import { indexLookup } from './index-trees.js';
import type { ShadowGit } from './shadow-git.js';
import type { ShadowIndex } from './shadow-index.js';
import { MAX_PATHS, type TreeWatch } from './tree-watch.js';

/** What the last stage left out: kept, and corrected for the paths that change, by the next incremental one. */
export interface LastStage {
  skipped: SkippedPath[];
  large: Map<string, LargeFile>;
}

export interface ChangedContext {
  git: ShadowGit;
  root: string;
  watch: TreeWatch;
  /** The shadow index, kept parsed; told which paths a stage changed, so trees are rebuilt for those alone. */
  index: ShadowIndex;
  maxIgnoredBytes: number;
  maxFileBytes: number;
  largeFile(path: string, stat: Stats): Promise<LargeFile>;
  /** `git update-index --add --remove` of these paths. */
  update(paths: string[]): Promise<void>;
  /** Takes these paths out of the shadow index. */
  untrack(paths: string[]): Promise<void>;
}

const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

/** Whether git's `--directory` listing names this path as ignored, itself or by a folder above it. */
export function listedIgnored(path: string, others: ReadonlySet<string>): boolean {
  if (others.has(path) || others.has(`${path}/`)) return true;
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) {
    if (others.has(path.slice(0, at + 1))) return true;
  }
  return false;
}

/**
 * Watches, then lists, a new folder and those below it: what is made in it before its watch is in the listing.
 * Resolves with its files and the generated-looking folders left unwalked, or undefined (a nested repository, a
 * watch refused, too many files).
 */
async function listNew(watch: TreeWatch, root: string, dir: string) {
  const files: string[] = [];
  const generated: string[] = [];
  const queue = [dir];
  while (queue.length > 0) {
    const rel = queue.shift() as string;
    if (!watch.add(rel)) return undefined;
    const entries = await fs.readdir(join(root, rel), { withFileTypes: true }).catch(() => undefined);
    if (!entries) return undefined;
    for (const entry of entries) {
      const child = `${rel}/${entry.name}`;
      if (entry.name === '.git') return undefined;
      if (entry.isDirectory()) (GENERATED_TREES.has(entry.name) ? generated : queue).push(child);
      else files.push(child);
    }
    if (files.length > MAX_PATHS) return undefined;
  }
  return { files, generated };
}

export async function stageChanged(
  ctx: ChangedContext,
  changed: ReadonlySet<string>,
  last: LastStage,
): Promise<LastStage | undefined> {
  const { root, watch } = ctx;
  // git never records a `.git`; a changed .gitignore changes what every other path means.
  const list = [...changed].filter((p) => !p.split('/').includes('.git'));
  // A name that is not UTF-8 (it reads with U+FFFD in it) cannot be looked up: the scan names it as left out.
  if (list.some((p) => basename(p) === '.gitignore' || p.includes('\uFFFD'))) return undefined;
  if (list.length === 0) return last;
  const parsed = await ctx.index.read().catch(() => undefined);
  if (!parsed) return undefined;
  const index = indexLookup(parsed.entries);
  // A path below an entry of the index (a nested repository recorded by its commit, a file become a folder): the
  // scan decides.
  const belowEntry = (path: string) => {
    for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1))
      if (index.has(path.slice(0, at))) return true;
    return false;
  };
  if (list.some(belowEntry)) return undefined;
  const members: string[] = [];
  const fresh: string[] = [];
  const freshDirs: string[] = [];
  const stats = new Map<string, Stats>();
  for (const path of list) {
    // A folder named in its parent's events was made, removed, moved or re-permissioned: a moved one's watch
    // still reports under its old name, so the tree is watched again.
    if (watch.has(path)) return undefined;
    const stat = await fs.lstat(join(root, path)).catch(() => undefined);
    const member = index.has(path);
    if (!stat) {
      if (index.under(path)) return undefined;
      if (member) members.push(path);
      continue;
    }
    if (stat.isDirectory()) {
      if (member) return undefined;
      if (GENERATED_TREES.has(basename(path))) freshDirs.push(path);
      else {
        const found = await listNew(watch, root, path);
        if (!found) return undefined;
        fresh.push(...found.files);
        freshDirs.push(...found.generated);
      }
      continue;
    }
    if (index.under(path)) return undefined;
    if (!stat.isFile() && !stat.isSymbolicLink()) {
      // git lists neither sockets nor FIFOs; one replacing a tracked file is left to the scan.
      if (member) return undefined;
      continue;
    }
    stats.set(path, stat);
    (member ? members : fresh).push(path);
  }
  if (members.length + fresh.length > MAX_PATHS) return undefined;
  const isFresh = new Set(fresh);
  for (const path of fresh) {
    if (stats.has(path)) continue;
    const stat = await fs.lstat(join(root, path)).catch(() => undefined);
    if (stat) stats.set(path, stat);
  }
  // Which new paths git ignores, and which tracked ones grown past the ignored-file limit are ignored: listings of
  // just those paths, as the full scan's. Apart: `-c -i` tests every entry of the index against the ignore rules
  // whatever the paths asked (0.2 s in babel's), `-o -i` only the paths.
  const grown = members.filter((p) => (stats.get(p)?.size ?? 0) > ctx.maxIgnoredBytes);
  const untracked = [...fresh, ...freshDirs];
  const listed = (drop: string[], paths: string[]) =>
    paths.length > 0
      ? ctx.git
          .run([
            '--literal-pathspecs',
            ...IGNORED_LS_ARGS.filter((arg) => !drop.includes(arg)),
            '--',
            ...paths,
          ])
          .then(parseIgnoredListing)
      : Promise.resolve<IgnoredListing>({ others: [], cached: [] });
  const [others, cached] = await Promise.all([
    listed(['-c'], untracked),
    listed(['-o', '--directory'], grown),
  ]);
  const listing: IgnoredListing = { others: others.others, cached: cached.cached };
  const ignored = new Set(listing.others);
  for (const dir of freshDirs) {
    // A new folder named like a generated tree that git does not ignore holds files to keep: watched from now on.
    if (!listedIgnored(dir, ignored)) {
      watch.keep(dir);
      return undefined;
    }
  }
  const plan = await planIgnored(root, ctx.maxIgnoredBytes, listing);
  // The per-checkpoint limits of ignored files count them all: near them, only the scan counts right.
  const limited = (s: SkippedPath) => s.reason === 'limit';
  if (plan.skipped.some(limited) || (last.skipped.some(limited) && plan.add.length > 0)) return undefined;

  const large = new Map([...last.large].filter(([p]) => !list.some((c) => within(p, c)) && !isFresh.has(p)));
  const untrack = new Set(plan.untrack);
  const add: string[] = [];
  for (const path of [...members, ...fresh.filter((p) => !listedIgnored(p, ignored))]) {
    const stat = stats.get(path);
    if (stat?.isFile() && stat.size > ctx.maxFileBytes) {
      large.set(path, await ctx.largeFile(path, stat));
      if (index.has(path)) untrack.add(path);
    } else if (!untrack.has(path) && (stat || index.has(path))) add.push(path);
  }
  if (untrack.size > 0) await ctx.untrack([...untrack]);
  const paths = [...add, ...plan.add.filter((p) => !untrack.has(p))];
  // Edits of files the index holds, the usual case, need no git process at all.
  const edits =
    untrack.size === 0 && fresh.length === 0 && plan.add.length === 0 && add.every((p) => stats.has(p));
  let patched = paths.length > 0 && edits ? await patchIndex(ctx.git.gitDir, root, paths, parsed) : undefined;
  if (patched) ctx.index.wrote(patched);
  else if (paths.length > 0) {
    await ctx.update(paths);
    patched = await ctx.index.read();
  } else if (untrack.size > 0) patched = await ctx.index.read();
  // Every change to the index was at or below a path the watch named: only their folders' trees are rebuilt.
  ctx.index.changed(parsed.sum, patched?.sum ?? parsed.sum, list);

  // What was left out before, less what changed, plus what is left out now.
  const skipped = last.skipped.filter(
    (s) => !list.some((c) => within(s.path.replace(/\/$/, ''), c)) && !isFresh.has(s.path),
  );
  const named = new Set(skipped.map((s) => s.path));
  for (const s of plan.skipped) if (!named.has(s.path)) skipped.push(s);
  return { skipped, large };
}
