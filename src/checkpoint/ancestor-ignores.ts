// A workspace below the root of a git repository (a package of a monorepo) is ignored by the .gitignore files
// above it too: without them a checkpoint would copy `node_modules/` and build output. This turns those files'
// patterns into patterns relative to the workspace, for the shadow repository's info/exclude.
import { promises as fs } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const exists = (path: string) =>
  fs.lstat(path).then(
    () => true,
    () => false,
  );

/** One .gitignore line of directory `dir`, as seen from the workspace `rel` below it; undefined when it cannot apply. */
export function rebasePattern(line: string, rel: string): string | undefined {
  const trimmed = line.replace(/\s+$/, '');
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  const negated = trimmed.startsWith('!');
  const body = negated ? trimmed.slice(1) : trimmed;
  const bang = negated ? '!' : '';
  // `*` ignores everything: a home directory kept as a dotfiles repository does that, and would leave nothing to
  // checkpoint in any folder below it.
  if (/^[*/]+$/.test(body)) return undefined;
  // No slash but a trailing one, or a leading `**/`: the pattern matches at any depth, so also below the workspace.
  if (!body.replace(/\/$/, '').includes('/') || body.startsWith('**/')) return `${bang}${body}`;
  const anchored = body.replace(/^\//, '');
  const prefix = `${rel.split(sep).join('/')}/`;
  return anchored.startsWith(prefix) ? `${bang}/${anchored.slice(prefix.length)}` : undefined;
}

/**
 * The patterns of every .gitignore between the workspace (exclusive) and the root of the git repository holding it.
 * Empty when the workspace is a repository's root or not inside one. Only work-tree files are read, never `.git`.
 */
export async function ancestorIgnores(root: string): Promise<string[]> {
  const dirs: string[] = [];
  let dir = root;
  if (await exists(join(root, '.git'))) return [];
  for (;;) {
    const parent = dirname(dir);
    if (parent === dir) return [];
    dir = parent;
    dirs.push(dir);
    if (await exists(join(dir, '.git'))) break;
  }
  const patterns: string[] = [];
  // Outermost first: deeper files come later and take precedence, as in git.
  for (const d of dirs.reverse()) {
    const text = await fs.readFile(join(d, '.gitignore'), 'utf8').catch(() => '');
    const rel = relative(d, root);
    for (const line of text.split('\n')) {
      const rebased = rebasePattern(line, rel);
      if (rebased !== undefined) patterns.push(rebased);
    }
  }
  return patterns;
}
