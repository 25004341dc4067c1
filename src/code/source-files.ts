// The source files of a repository that code intelligence reads: parseable languages only, .gitignore honoured,
// dependency, build and vendored directories skipped.
import path from 'node:path';
import { SKIPPED_DIRS, walkFiles } from '../project/file-walk.js';
import { indexLanguageOf } from './languages.js';

/** A repository larger than this is mapped in part; the walk stops here. */
export const MAX_SOURCE_FILES = 50_000;

/** Workspace-relative paths (with `/`) of the source files under `root`, sorted. */
export async function listSourceFiles(root: string, signal?: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  for await (const full of walkFiles(root, root, signal, (name) => SKIPPED_DIRS.has(name))) {
    if (!indexLanguageOf(path.basename(full))) continue;
    // The walk yields paths under root: slicing is what path.relative would do, at a fraction of its cost.
    const rel = full.startsWith(`${root}/`) ? full.slice(root.length + 1) : path.relative(root, full);
    files.push(path.sep === '/' ? rel : rel.split(path.sep).join('/'));
    if (files.length >= MAX_SOURCE_FILES) break;
  }
  return files.sort();
}
