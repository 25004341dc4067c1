// Walking the workspace as git sees it: .gitignore files (nested ones override shallower ones) and .git skipped.
// list_files walks with these, and glob and grep when ripgrep cannot run.
import type { Dirent } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export interface IgnoreScope {
  base: string;
  rules: Ignore;
}

export async function loadGitignore(dir: string): Promise<IgnoreScope | undefined> {
  const text = await fs.readFile(path.join(dir, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : { base: dir, rules: ignore().add(text) };
}

/** Deeper .gitignore files override shallower ones, as in git (a nested `!x` re-includes x). */
export function isIgnored(scopes: readonly IgnoreScope[], full: string, isDir: boolean): boolean {
  let ignored = false;
  for (const scope of scopes) {
    const rel = path.relative(scope.base, full).split(path.sep).join('/');
    const result = scope.rules.test(isDir ? `${rel}/` : rel);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/** The .gitignore scopes of the directories from the root down to `start`'s parent, which apply below it too. */
export async function scopesAbove(root: string, start: string): Promise<IgnoreScope[]> {
  const scopes: IgnoreScope[] = [];
  const between = path.relative(root, start).split(path.sep).filter(Boolean);
  for (let i = 0; i < between.length; i++) {
    const scope = await loadGitignore(path.join(root, ...between.slice(0, i)));
    if (scope) scopes.push(scope);
  }
  return scopes;
}

/**
 * The regular files under `start` (or `start` itself when it is a file), in name order, skipping .git and
 * ignored entries. Symbolic links are not followed, as ripgrep without -L: they may lead out of the workspace.
 */
export async function* walkFiles(root: string, start: string, signal: AbortSignal): AsyncGenerator<string> {
  const stat = await fs.lstat(start);
  if (stat.isFile()) {
    yield start;
    return;
  }
  const walk = async function* (dir: string, inherited: IgnoreScope[]): AsyncGenerator<string> {
    signal.throwIfAborted();
    const own = await loadGitignore(dir);
    const active = own ? [...inherited, own] : inherited;
    const entries: Dirent[] = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const full = path.join(dir, entry.name);
      const isDir = entry.isDirectory();
      if (!isDir && !entry.isFile()) continue;
      if (isIgnored(active, full, isDir)) continue;
      if (isDir) yield* walk(full, active);
      else yield full;
    }
  };
  yield* walk(start, await scopesAbove(root, start));
}
