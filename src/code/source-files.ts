// The source files of a repository that code intelligence reads: parseable languages only, .gitignore honoured,
// dependency, build and vendored directories skipped.
import type { Dirent } from 'node:fs';
import { promises as fs } from 'node:fs';
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
async function gitignoreIn(dir: string, entries: readonly Dirent[]): Promise<Scope | undefined> {
  if (!entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())) return undefined;
  const text = await fs.readFile(path.join(dir, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : { base: dir, rules: ignore().add(text) };
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

/** Workspace-relative paths (with `/`) of the source files under `root`, sorted. */
export async function listSourceFiles(root: string, signal?: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string, inherited: Scope[]): Promise<void> => {
    signal?.throwIfAborted();
    const entries: Dirent[] = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    const own = await gitignoreIn(dir, entries);
    const scopes = own ? [...inherited, own] : inherited;
    for (const entry of entries) {
      if (files.length >= MAX_SOURCE_FILES) return;
      const full = path.join(dir, entry.name);
      // Symbolic links are not followed: they may lead out of the workspace or loop.
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name) || ignored(scopes, full, true)) continue;
        await walk(full, scopes);
      } else if (entry.isFile() && languageOf(entry.name) && !ignored(scopes, full, false)) {
        files.push(path.relative(root, full).split(path.sep).join('/'));
      }
    }
  };
  await walk(root, []);
  return files.sort();
}
