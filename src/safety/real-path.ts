// The one path resolver of the safety layer: a path resolved the way the kernel resolves it, for the file tools'
// workspace jail and for every path a shell command names (arguments, redirections, cd, git -C).
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Linux gives up after 40 links on one lookup (ELOOP); so does the resolver. */
const MAX_LINKS = 40;

/** Marks where the components a link pointed to end, to tell a link that leads nowhere from a new file. */
const LINK_END = Symbol('link end');

export interface RealPath {
  /** Absolute, every existing link followed; a missing tail is appended (`..` in it folds only missing names). */
  real: string;
  /** A link on the way points to something that does not exist: writing through it lands wherever it points. */
  dangling: boolean;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined;
}

/**
 * Resolves `requested` from the absolute directory `from` component by component, following each symbolic link
 * before the next `..` is applied, as the kernel does: with `here -> .`, `here/../x` is the parent's `x`, never
 * `./x` (which `path.resolve` would say). What does not exist yet is resolved lexically, like `realpath -m`.
 * `fail` is called for a link loop or a lookup error other than "does not exist".
 */
export async function kernelPath(
  from: string,
  requested: string,
  fail: (detail: string) => never,
): Promise<RealPath> {
  const start = path.isAbsolute(requested) ? requested : `${from}/${requested}`;
  const parts: (string | typeof LINK_END)[] = start.split('/');
  let current = '/';
  const missing: string[] = [];
  let links = 0;
  let dangling = false;
  while (parts.length > 0) {
    const part = parts.shift() as string | typeof LINK_END;
    if (part === LINK_END || part === '' || part === '.') continue;
    if (part === '..') {
      // Only a missing name folds lexically; an existing directory's parent is its real parent.
      if (missing.length > 0) missing.pop();
      else current = path.dirname(current);
      continue;
    }
    if (missing.length > 0) {
      missing.push(part);
      continue;
    }
    const next = path.join(current, part);
    let isLink: boolean;
    try {
      isLink = (await fs.lstat(next)).isSymbolicLink();
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') fail(`cannot check path: ${code ?? 'unknown error'}`);
      // Still inside a link's target: the link leads nowhere.
      if (parts.includes(LINK_END)) dangling = true;
      missing.push(part);
      continue;
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) fail('symbolic link loop');
    const target = await fs
      .readlink(next)
      .catch((error: unknown) => fail(`cannot read link: ${errorCode(error)}`));
    if (path.isAbsolute(target)) current = '/';
    parts.unshift(...target.split('/'), LINK_END);
  }
  return { real: missing.length === 0 ? current : path.join(current, ...missing), dangling };
}
