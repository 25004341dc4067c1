// Whether a path a read-only command names reads outside the workspace: through a link, `..`, as a hard link to a
// secret file, or as any file with another name outside (restricted mode's rule; package installs excepted).
import { promises as fs } from 'node:fs';
import { PathEscapeError, SecretLinkError, type Workspace } from '../workspace.js';

/** The path-like part of an argument: the value of `--opt=value`, or `-f/etc/x`'s `/etc/x`. */
export function pathPart(arg: string): string | undefined {
  if (!arg.startsWith('-') || arg === '-') return arg;
  const eq = arg.indexOf('=');
  if (arg.startsWith('--')) return eq === -1 ? undefined : arg.slice(eq + 1);
  const at = arg.search(/[/~.]/);
  return at === -1 ? undefined : arg.slice(at);
}

/** A path as the kernel reads it from the command's directory: absolute as written, else below `cwd`. */
export const from = (cwd: string, p: string): string => (p.startsWith('/') ? p : `${cwd}/${p}`);

/** A file of an installed package. */
const INSTALLED = /\/node_modules\//;

/** Why a path argument may read outside the workspace, or undefined when it stays inside. */
export async function pathProblem(
  workspace: Workspace,
  arg: string,
  cwd: string,
): Promise<string | undefined> {
  let real: string;
  try {
    real = await workspace.resolve(from(cwd, arg));
  } catch (error) {
    if (error instanceof SecretLinkError) return `is a hard link to the secret file ${error.secret}`;
    if (error instanceof PathEscapeError) return 'is outside the workspace';
    throw error;
  }
  // A file with another name may be a file outside under a name inside. Package managers' installs (pnpm's
  // node_modules is all hard links to its store) hold public packages' files; a secret's other name is refused above.
  const stat = await fs.stat(real).catch(() => undefined);
  if (stat?.isFile() && stat.nlink > 1 && !INSTALLED.test(real)) {
    return `has ${stat.nlink} hard links, so it may be a file outside the workspace`;
  }
  return undefined;
}
