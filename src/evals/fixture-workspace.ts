// A copy of a fixture workspace (`evals/fixtures/<name>/`) in a temp directory, so no case sees another's changes:
// a fresh copy, or a used one put back to the fixture's files (restoreFixture), and beside it a state directory.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalFileError } from './eval-files.js';

export interface FixtureCopy {
  /** The workspace: the fixture's files (empty without a fixture). */
  root: string;
  stateDir: string;
  dispose(): Promise<void>;
}

export async function copyFixture(fixturesDir: string, fixture: string | undefined): Promise<FixtureCopy> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'keel-eval-')));
  const root = join(base, 'ws');
  const stateDir = join(base, 'state');
  const dispose = () => rm(base, { recursive: true, force: true });
  try {
    if (fixture === undefined) await mkdir(root);
    else await cp(await fixtureDir(fixturesDir, fixture), root, { recursive: true, verbatimSymlinks: true });
    await mkdir(stateDir);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { root, stateDir, dispose };
}

/** The fixture's directory, or an eval file error naming it. */
export async function fixtureDir(fixturesDir: string, fixture: string): Promise<string> {
  const source = join(fixturesDir, fixture);
  if (!(await stat(source).catch(() => undefined))?.isDirectory()) {
    throw new EvalFileError(`fixture not found: ${source}`);
  }
  return source;
}

/** One entry of a tree, by its path relative to the tree's root (with `/`). */
type Entry =
  | { kind: 'dir'; mode: number }
  | { kind: 'file'; mode: number; data: Buffer }
  | { kind: 'link'; target: string };

/** A tree's entries by relative path (`/`), as readTree reads them. */
export type FixtureTree = Map<string, Entry>;

/** Every entry under `dir` (not following links); an absent `dir` holds nothing. */
export async function readTree(dir: string | undefined): Promise<FixtureTree> {
  const tree = new Map<string, Entry>();
  // Synchronous calls: a fixture is a few small files, read before every case; each asynchronous call's round trip
  // through the thread pool cost more than the read (12 ms a case, 2.6 s over the evals, against 1 ms).
  const walk = (relative: string): void => {
    for (const name of readdirSync(join(dir as string, relative))) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const absolute = join(dir as string, path);
      const info = lstatSync(absolute);
      const mode = info.mode & 0o7777;
      if (info.isSymbolicLink()) tree.set(path, { kind: 'link', target: readlinkSync(absolute) });
      else if (info.isDirectory()) {
        tree.set(path, { kind: 'dir', mode });
        walk(path);
      } else tree.set(path, { kind: 'file', mode, data: readFileSync(absolute) });
    }
  };
  if (dir !== undefined) walk('');
  return tree;
}

function same(a: Entry, b: Entry): boolean {
  if (a.kind === 'link') return b.kind === 'link' && a.target === b.target;
  if (a.kind === 'dir') return b.kind === 'dir' && a.mode === b.mode;
  return b.kind === 'file' && a.mode === b.mode && a.data.equals(b.data);
}

/**
 * Puts the workspace `root` back to the fixture's tree (`fixture`, from readTree): what a case changed is
 * rewritten, what it created removed, what it removed put back. Returns the paths it touched (files and links,
 * relative), for whoever keeps them open (a warm language service).
 */
export async function restoreFixture(root: string, fixture: FixtureTree): Promise<string[]> {
  const now = await readTree(root);
  const touched: string[] = [];
  // Deepest first, so a directory is emptied before it is looked at.
  for (const [path, entry] of [...now].reverse()) {
    const wanted = fixture.get(path);
    if (wanted && same(wanted, entry)) continue;
    if (wanted?.kind === 'dir' && entry.kind === 'dir') {
      await chmod(join(root, path), wanted.mode);
      continue;
    }
    await rm(join(root, path), { recursive: true, force: true });
    if (entry.kind !== 'dir') touched.push(path);
  }
  for (const [path, entry] of fixture) {
    const absolute = join(root, path);
    const present = now.get(path);
    if (present && same(present, entry)) continue;
    if (entry.kind === 'dir') await mkdir(absolute, { recursive: true, mode: entry.mode });
    else if (entry.kind === 'link') await symlink(entry.target, absolute);
    else await writeFile(absolute, entry.data, { mode: entry.mode });
    if (entry.kind !== 'dir') touched.push(path);
  }
  return [...new Set(touched)];
}
