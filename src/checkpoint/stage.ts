// Stages the workspace into the shadow index before a snapshot, with as little work as the change needs: two
// `git ls-files` walks in parallel find what changed (tracked files by their stat data, new files, ignored ones),
// then one `git add` takes exactly those paths. Files over checkpoints.max_file_mb are hashed and named, never
// added; a tree first staged whole is added in chunks, each into one pack.

import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LargeFile, SkippedPath } from './checkpoints.js';
import { IGNORED_LS_ARGS, parseIgnoredListing, planIgnored } from './ignored-files.js';
import type { ShadowGit } from './shadow-git.js';

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
}

/** Past this many paths, `git add` gets folders (globs) rather than files: its cost is files × pathspecs. */
const EXACT_PATHS = 1000;
/** Files per `git add` when many are new: git's bulk check-in slows with the square of the files in one pack. */
const CHUNK = 8000;
const STAT_BATCH = 256;

const splitZ = (text: string) => text.split('\0').filter((t) => t !== '');
const literal = (path: string) => `:(top,literal)${path}`;
const globEscape = (path: string) => path.replace(/[*?[\]\\]/g, '\\$&');

/** SHA-256 of a file, streamed: a large file is never held in memory. */
function sha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** Groups paths by folder into `git add` pathspecs of about CHUNK files each: `dir/*` matches that folder's files. */
export function chunkByFolder(paths: readonly string[], chunk = CHUNK): string[][] {
  const byDir = new Map<string, number>();
  for (const p of paths) {
    const dir = p.includes('/') ? dirname(p) : '';
    byDir.set(dir, (byDir.get(dir) ?? 0) + 1);
  }
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const dir of [...byDir.keys()].sort()) {
    current.push(`:(top,glob)${dir === '' ? '' : `${globEscape(dir)}/`}*`);
    size += byDir.get(dir) ?? 0;
    if (size >= chunk) {
      chunks.push(current);
      current = [];
      size = 0;
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export function stager(git: ShadowGit, options: StageOptions) {
  // A large file is hashed again only when its stat data says it changed.
  const hashes = new Map<string, { key: string; sha256: string }>();
  const largeFile = async (path: string, stat: { size: number; mtimeMs: number; ino: number }) => {
    const key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    const known = hashes.get(path);
    if (known?.key === key) return { path, size: stat.size, sha256: known.sha256 };
    const digest = await sha256(join(options.root, path));
    hashes.set(path, { key, sha256: digest });
    return { path, size: stat.size, sha256: digest };
  };

  const addPaths = (paths: string[], force: boolean) =>
    git.run(
      ['add', '-A', ...(force ? ['-f'] : []), '--pathspec-from-file=-', '--pathspec-file-nul'],
      paths.map(literal).join('\0'),
    );

  return async function stage(): Promise<Staged> {
    await git.ensure();
    // Modified and deleted tracked files (by stat, as git status finds them) and new ones; the ignored ones apart.
    const [changedText, ignoredText] = await Promise.all([
      git.run(['ls-files', '-z', '-t', '-m', '-d', '-o', '--exclude-standard']),
      git.run(IGNORED_LS_ARGS),
    ]);
    const plan = await planIgnored(options.root, options.maxIgnoredBytes, parseIgnoredListing(ignoredText));
    const large: LargeFile[] = [];
    const add = new Set<string>();
    const untrack = new Set(plan.untrack);
    // A file listed twice (modified and deleted) is looked at once; stat calls run a batch at a time.
    const entries = new Map(splitZ(changedText).map((e) => [e.slice(2), !e.startsWith('? ')] as const));
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
    if (untrack.size > 0) {
      await git.run(
        ['rm', '--cached', '-f', '-q', '-r', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
        [...untrack].map(literal).join('\0'),
      );
    }
    const paths = [...add].filter((p) => !untrack.has(p));
    if (paths.length <= EXACT_PATHS) {
      if (paths.length > 0) await addPaths(paths, false);
    } else {
      // Many files at once (the first snapshot of a tree git does not track): by folder, in packs of CHUNK files.
      const excluded = large.map((f) => `:(top,exclude,literal)${f.path}`);
      const addSpecs = (specs: string[]) =>
        git.run(
          ['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'],
          [...specs, ...excluded].join('\0'),
        );
      try {
        for (const chunk of chunkByFolder(paths)) await addSpecs(chunk);
      } catch {
        // A folder emptied meanwhile fails its pathspec: the whole tree then, in one walk.
        await addSpecs([':/']);
      }
    }
    for (let i = 0; i < plan.add.length; i += EXACT_PATHS)
      await addPaths(plan.add.slice(i, i + EXACT_PATHS), true);
    large.sort((a, b) => (a.path < b.path ? -1 : 1));
    return { skipped: plan.skipped, large };
  };
}
