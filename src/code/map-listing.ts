// The source files the map ranks and the fingerprint that says whether its cache still holds: paths, sizes and
// times of the files, the root manifests and the .gitignore files. A warm map skips the walk when no directory the
// last walk entered has changed (a file added, removed or renamed changes its directory's mtime), and only stats.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { SKIPPED_DIRS, walkEntries } from '../project/file-walk.js';
import type { Listed } from './code-index.js';
import { indexLanguageOf } from './languages.js';
import { MAX_SOURCE_FILES } from './source-files.js';

const MANIFESTS = [
  'package.json',
  'pnpm-workspace.yaml',
  'tsconfig.json',
  'jsconfig.json',
  'pyproject.toml',
  'go.mod',
  'Cargo.toml',
];
/** The root directory in the list of directories. */
const ROOT = '.';

export interface Listing {
  /**
   * Workspace-relative source paths (with `/`), sorted, and their mtimes, sizes and link counts (-1: gone since the
   * listing).
   */
  paths: string[];
  times: Float64Array;
  sizes: Float64Array;
  links: Float64Array;
  /** The directories entered (relative; ROOT the root) and their mtimes taken before each was read. */
  dirs: string[];
  dirTimes: Float64Array;
  /** The .gitignore files read (relative). */
  ignores: string[];
  fingerprint: string;
}

const statOf = (root: string, rel: string) =>
  statSync(rel === ROOT ? root : `${root}/${rel}`, { throwIfNoEntry: false });

const relative = (root: string, full: string) => {
  // The walk yields paths under root: slicing is what path.relative would do, at a fraction of its cost.
  const rel = full.startsWith(`${root}/`) ? full.slice(root.length + 1) : path.relative(root, full);
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
};

/** Walks the tree as listSourceFiles does, noting each directory's mtime before it is read, then stats the files. */
export async function walkListing(root: string, signal?: AbortSignal): Promise<Listing> {
  const dirs = [ROOT];
  const times = [statOf(root, ROOT)?.mtimeMs ?? -1];
  const paths: string[] = [];
  const ignores: string[] = [];
  const skipDir = (name: string) => SKIPPED_DIRS.has(name);
  for await (const entry of walkEntries(root, root, { signal, skipDir })) {
    const rel = relative(root, entry.path);
    if (entry.isDir) {
      // Yielded before the walk opens it: a change after this stat shows in the next one.
      dirs.push(rel);
      times.push(statOf(root, rel)?.mtimeMs ?? -1);
    } else if (entry.isFile) {
      if (path.basename(rel) === '.gitignore') ignores.push(rel);
      else if (indexLanguageOf(path.basename(rel))) paths.push(rel);
      // A repository larger than this is mapped in part.
      if (paths.length >= MAX_SOURCE_FILES) break;
    }
  }
  paths.sort();
  return finish(root, paths, dirs, Float64Array.from(times), ignores);
}

/**
 * The listing a cache was made from, when none of its directories changed since (the files are stat'ed again for the
 * fingerprint); undefined when one did, and the tree must be walked.
 */
export function cachedListing(
  root: string,
  paths: string[],
  dirs: string[],
  dirTimes: Float64Array,
  ignores: string[],
): Listing | undefined {
  if (dirs.length === 0 || dirs[0] !== ROOT) return undefined;
  for (let i = 0; i < dirs.length; i++) {
    const stat = statOf(root, dirs[i]!);
    if (!stat?.isDirectory() || stat.mtimeMs !== dirTimes[i]) return undefined;
  }
  return finish(root, paths, dirs, dirTimes, ignores);
}

/** Stats the files and hashes what the map rests on: any change, addition or removal changes the fingerprint. */
function finish(
  root: string,
  paths: string[],
  dirs: string[],
  dirTimes: Float64Array,
  ignores: string[],
): Listing {
  // Numbers, not the Stats: 28k Stats kept alive (each with four Dates) double the cost of the stats in collection.
  const times = new Float64Array(paths.length).fill(-1);
  const sizes = new Float64Array(paths.length).fill(-1);
  const links = new Float64Array(paths.length).fill(-1);
  const hash = createHash('sha1');
  let lines = '';
  const all = [...paths, ...MANIFESTS, ...ignores];
  for (let i = 0; i < all.length; i++) {
    const rel = all[i]!;
    const stat = statOf(root, rel);
    lines += stat ? `${rel}\0${stat.mtimeMs}\0${stat.size}\n` : `${rel}\0\n`;
    if (stat && i < paths.length) {
      times[i] = stat.mtimeMs;
      sizes[i] = stat.size;
      links[i] = stat.nlink;
    }
    if (lines.length > 65_536) {
      hash.update(lines);
      lines = '';
    }
  }
  hash.update(lines);
  return { paths, times, sizes, links, dirs, dirTimes, ignores, fingerprint: hash.digest('hex') };
}

/** The listing as the code index takes it. */
export function listedOf(listing: Listing): Listed {
  const { times, sizes, links } = listing;
  return {
    paths: listing.paths,
    stats: listing.paths.map((_, i) =>
      times[i]! < 0 ? undefined : { mtimeMs: times[i]!, size: sizes[i]!, nlink: links[i]! },
    ),
  };
}
