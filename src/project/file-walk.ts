// Walking the workspace as git sees it: .gitignore files (nested ones override shallower ones) and .git skipped.
// The one walker of Keel: the code index, the project scan, list_files, and glob and grep when ripgrep cannot run.
import { type Dirent, promises as fs, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Directories that hold other people's code or generated output, never the project's own. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  'bower_components',
  'vendor',
  'third_party',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  '.next',
  '.nuxt',
  '.dart_tool',
  '.pub-cache',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.gradle',
  'Pods',
]);

/** Directories read between two turns of the event loop, so that Ctrl-C or a time-out gets through a large tree. */
const DIRS_PER_TURN = 64;

interface IgnoreScope {
  base: string;
  rules: Ignore;
}

async function loadGitignore(dir: string): Promise<IgnoreScope | undefined> {
  const text = await fs.readFile(path.join(dir, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : { base: dir, rules: ignore().add(text) };
}

/** Deeper .gitignore files override shallower ones, as in git (a nested `!x` re-includes x). */
function isIgnored(scopes: readonly IgnoreScope[], full: string, isDir: boolean): boolean {
  let ignored = false;
  for (const scope of scopes) {
    // A scope's base is a folder above the entry: its relative path is the rest of the entry's (path.relative, at
    // a fraction of its cost on a big tree).
    const rest =
      path.sep === '/' && full.startsWith(scope.base) && full[scope.base.length] === '/'
        ? full.slice(scope.base.length + 1)
        : undefined;
    const rel = rest ?? path.relative(scope.base, full).split(path.sep).join('/');
    const result = scope.rules.test(isDir ? `${rel}/` : rel);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/** The .gitignore scopes of the directories from the root down to `start`'s parent, which apply below it too. */
async function scopesAbove(root: string, start: string): Promise<IgnoreScope[]> {
  const scopes: IgnoreScope[] = [];
  const between = path.relative(root, start).split(path.sep).filter(Boolean);
  for (let i = 0; i < between.length; i++) {
    const scope = await loadGitignore(path.join(root, ...between.slice(0, i)));
    if (scope) scopes.push(scope);
  }
  return scopes;
}

/** The directory's own .gitignore, read only when its listing has one (no failed open per directory). */
function gitignoreIn(dir: string, entries: readonly Dirent[]): IgnoreScope | undefined {
  if (!entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())) return undefined;
  try {
    return { base: dir, rules: ignore().add(readFileSync(path.join(dir, '.gitignore'), 'utf8')) };
  } catch {
    return undefined;
  }
}

interface Frame {
  dir: string;
  scopes: IgnoreScope[];
  entries: Dirent[];
  next: number;
}

export interface WalkEntry {
  /** Absolute. */
  path: string;
  isDir: boolean;
  isFile: boolean;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Directories (by name) neither listed nor entered. */
  skipDir?: (name: string) => boolean;
  /** False: only the entries of `start` itself. */
  recursive?: boolean;
  /** A directory that cannot be read is walked as empty, unless this throws (list_files names the error). */
  unreadable?: (dir: string, error: unknown) => Promise<void>;
}

/**
 * Directories are read synchronously: for thousands of small directories that beats the thread pool's round trips
 * several times over.
 */
function read(dir: string): { entries: Dirent[]; error?: unknown } {
  try {
    return { entries: readdirSync(dir, { withFileTypes: true }) };
  } catch (error) {
    return { entries: [], error };
  }
}

/**
 * The entries under the directory `start`, absolute, depth first in name order (a directory before what it holds),
 * skipping .git, ignored entries and directories `skipDir` names. Symbolic links are listed but not followed, as
 * ripgrep without -L: they may lead out of the workspace or loop. Stop early by leaving the loop.
 */
export async function* walkEntries(
  root: string,
  start: string,
  options: WalkOptions = {},
): AsyncGenerator<WalkEntry> {
  const { signal, skipDir = () => false, recursive = true } = options;
  const open = async (dir: string, inherited: IgnoreScope[]): Promise<Frame> => {
    signal?.throwIfAborted();
    const { entries, error } = read(dir);
    if (error !== undefined) await options.unreadable?.(dir, error);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const own = gitignoreIn(dir, entries);
    return { dir, scopes: own ? [...inherited, own] : inherited, entries, next: 0 };
  };
  // Normalised once: below it, paths are its own joined with single names.
  const top = path.resolve(start);
  const stack = [await open(top, await scopesAbove(root, top))];
  let opened = 1;
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    const entry = frame.entries[frame.next++];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    if (entry.name === '.git') continue;
    // A folder's entries are single names: joining needs no normalising (path.join's cost on a big tree).
    const full = frame.dir.endsWith(path.sep) ? frame.dir + entry.name : frame.dir + path.sep + entry.name;
    const isDir = entry.isDirectory();
    if ((isDir && skipDir(entry.name)) || isIgnored(frame.scopes, full, isDir)) continue;
    yield { path: full, isDir, isFile: entry.isFile() };
    if (!isDir || !recursive) continue;
    if (++opened % DIRS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    stack.push(await open(full, frame.scopes));
  }
}

/**
 * The regular files under `start` (or `start` itself when it is a file), as walkEntries finds them. A directory
 * that cannot be read is walked as empty.
 */
export async function* walkFiles(
  root: string,
  start: string,
  signal?: AbortSignal,
  skipDir?: (name: string) => boolean,
): AsyncGenerator<string> {
  const stat = await fs.lstat(start);
  if (stat.isFile()) {
    yield start;
    return;
  }
  for await (const entry of walkEntries(root, start, { signal, skipDir })) if (entry.isFile) yield entry.path;
}
