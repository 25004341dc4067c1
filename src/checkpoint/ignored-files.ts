// Git-ignored files a checkpoint keeps too (`.env`, `*.log`): those up to checkpoints.max_ignored_file_kb, outside
// generated trees (node_modules, dist, …), which are rebuilt rather than restored. What is left out is named, so
// `keel undo` can say what it cannot bring back.
import { promises as fs, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../core/sha256.js';
import type { SkippedPath } from './checkpoints.js';

/** Directory names holding generated output or downloads: never copied into a checkpoint when git ignores them. */
export const GENERATED_TREES: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'dist',
  'build',
  'out',
  'target',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.tox',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.parcel-cache',
  '.cache',
  '.gradle',
  '.terraform',
  '.yarn',
  '.pnpm-store',
  'coverage',
  'vendor',
]);

/** At most this many ignored files are kept per checkpoint, this many bytes in all, this many entries walked. */
const MAX_FILES = 5000;
const MAX_WALKED = 20000;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

export interface IgnoredPlan {
  /** Ignored files to force into the snapshot. */
  add: string[];
  /** Ignored files the shadow index holds but should no longer (grown over the limit). */
  untrack: string[];
  /** What the snapshot leaves out, for the checkpoint's meta. */
  skipped: SkippedPath[];
}

const inGenerated = (rel: string) => {
  const parts = rel.replace(/\/$/, '').split('/');
  const index = parts.findIndex((p) => GENERATED_TREES.has(p));
  return index < 0 ? undefined : `${parts.slice(0, index + 1).join('/')}/`;
};

/** NUL-separated output (`git … -z`), without the empty ends. */
export const splitZ = (text: string) => text.split('\0').filter((t) => t !== '');

/** The `git ls-files` of the shadow repository (its exclude rules: the workspace's .gitignore files and above). */
export interface IgnoredListing {
  /** Ignored paths not in the shadow index (`--others --ignored --directory`): an ignored folder ends with `/`. */
  others: string[];
  /** Ignored paths the shadow index holds (`--cached --ignored`). */
  cached: string[];
}

/** The arguments of the one `git ls-files` both lists come from: `H ` marks a cached path, `? ` another. */
export const IGNORED_LS_ARGS = [
  'ls-files',
  '-z',
  '-t',
  '-c',
  '-o',
  '-i',
  '--exclude-standard',
  '--directory',
];

export function parseIgnoredListing(text: string): IgnoredListing {
  const listing: IgnoredListing = { others: [], cached: [] };
  for (const entry of splitZ(text)) {
    if (entry.startsWith('? ')) listing.others.push(entry.slice(2));
    else if (entry.length > 2) listing.cached.push(entry.slice(2));
  }
  return listing;
}

/**
 * What a generated tree looks like from its top: its folder's mtime and its entries' names and mtimes, which change
 * when an install adds a package or a build rewrites an output file (not what changes deeper down); undefined when
 * it is gone.
 */
export function treeStamp(root: string, tree: string): string | undefined {
  const folder = join(root, tree);
  const stat = lstatSync(folder, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return undefined;
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    names = [];
  }
  // Synchronous: a node_modules of 500 packages is stated in about 3 ms so, in 60 ms awaiting each stat.
  const parts = [String(stat.mtimeMs)];
  for (const name of names)
    parts.push(`${name}\0${lstatSync(join(folder, name), { throwIfNoEntry: false })?.mtimeMs ?? ''}`);
  return sha256Hex(parts.join('\n')).slice(0, 16);
}

/** Decides which ignored files go into the next snapshot. */
export async function planIgnored(
  root: string,
  limitBytes: number,
  listing: IgnoredListing,
): Promise<IgnoredPlan> {
  const plan: IgnoredPlan = { add: [], untrack: [], skipped: [] };
  const seenTrees = new Set<string>();
  let total = 0;
  let walked = 0;
  const skipTree = (tree: string) => {
    if (seenTrees.has(tree)) return;
    seenTrees.add(tree);
    plan.skipped.push({ path: tree, reason: 'generated' });
  };
  const seen = new Set<string>();
  const consider = async (rel: string): Promise<void> => {
    // git may list a folder and, again, files inside it.
    if (seen.has(rel)) return;
    seen.add(rel);
    walked += 1;
    const stat = await fs.lstat(join(root, rel)).catch(() => undefined);
    if (!stat) return;
    if (stat.isDirectory()) {
      // A huge ignored folder (a cache under another name) is named, not walked to the end.
      if (walked > MAX_WALKED) {
        plan.skipped.push({ path: `${rel}/`, reason: 'limit' });
        return;
      }
      if (rel.split('/').pop() === '.git') return;
      const names = await fs.readdir(join(root, rel)).catch(() => [] as string[]);
      for (const name of names.sort()) {
        const child = `${rel}/${name}`;
        const tree = GENERATED_TREES.has(name) ? `${child}/` : undefined;
        if (tree) skipTree(tree);
        else await consider(child);
      }
      return;
    }
    if (!stat.isFile() && !stat.isSymbolicLink()) return;
    if (stat.size > limitBytes) {
      plan.skipped.push({ path: rel, reason: 'size', size: stat.size });
    } else if (plan.add.length >= MAX_FILES || total + stat.size > MAX_TOTAL_BYTES) {
      plan.skipped.push({ path: rel, reason: 'limit', size: stat.size });
    } else {
      plan.add.push(rel);
      total += stat.size;
    }
  };
  for (const entry of listing.others) {
    const tree = inGenerated(entry);
    if (tree) skipTree(tree);
    else await consider(entry.replace(/\/$/, ''));
  }
  // Ignored files already in the shadow index are kept up to date like the others, unless they grew too big.
  for (const rel of listing.cached) {
    const tree = inGenerated(rel);
    const stat = await fs.lstat(join(root, rel)).catch(() => undefined);
    if (tree) {
      plan.untrack.push(rel);
      skipTree(tree);
    } else if (stat && stat.size > limitBytes) {
      plan.untrack.push(rel);
      plan.skipped.push({ path: rel, reason: 'size', size: stat.size });
    }
  }
  for (const skipped of plan.skipped) {
    if (skipped.reason !== 'generated') continue;
    const stamp = treeStamp(root, skipped.path);
    if (stamp !== undefined) skipped.stamp = stamp;
  }
  const dotGit = await fs.lstat(join(root, '.git')).catch(() => undefined);
  if (dotGit) plan.skipped.push({ path: '.git', reason: 'history' });
  return plan;
}
