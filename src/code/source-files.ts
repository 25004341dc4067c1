// The source files of a repository that code intelligence reads: parseable languages only, .gitignore honoured,
// dependency, build and vendored directories skipped.
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { languageOf } from './languages.js';

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

/** A repository larger than this is mapped in part; the walk stops here. */
export const MAX_SOURCE_FILES = 20_000;

interface Scope {
  base: string;
  rules: Ignore;
}

/** The directory's own .gitignore, read only when its listing has one (no failed open per directory). */
function gitignoreIn(dir: string, entries: readonly Dirent[]): Scope | undefined {
  if (!entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())) return undefined;
  try {
    return { base: dir, rules: ignore().add(readFileSync(path.join(dir, '.gitignore'), 'utf8')) };
  } catch {
    return undefined;
  }
}

function listing(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function ignored(scopes: readonly Scope[], full: string, isDir: boolean): boolean {
  let result = false;
  for (const scope of scopes) {
    const rel = path.relative(scope.base, full).split(path.sep).join('/');
    const test = scope.rules.test(isDir ? `${rel}/` : rel);
    if (test.ignored) result = true;
    else if (test.unignored) result = false;
  }
  return result;
}

/**
 * Workspace-relative paths (with `/`) of the source files under `root`, sorted. Synchronous calls: for thousands of
 * small directories they beat the thread pool's round trips several times over (the walk is bounded anyway).
 */
export async function listSourceFiles(root: string, signal?: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  const walk = (dir: string, inherited: Scope[]): void => {
    signal?.throwIfAborted();
    const entries = listing(dir);
    const own = gitignoreIn(dir, entries);
    const scopes = own ? [...inherited, own] : inherited;
    for (const entry of entries) {
      if (files.length >= MAX_SOURCE_FILES) return;
      const full = path.join(dir, entry.name);
      // Symbolic links are not followed: they may lead out of the workspace or loop.
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name) || ignored(scopes, full, true)) continue;
        walk(full, scopes);
      } else if (entry.isFile() && languageOf(entry.name) && !ignored(scopes, full, false)) {
        files.push(path.relative(root, full).split(path.sep).join('/'));
      }
    }
  };
  walk(root, []);
  return files.sort();
}
