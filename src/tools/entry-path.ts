// Resolving a path that names a directory entry itself: a symlink inside the workspace stands for the link, not
// for the file it points to (delete, move and overwrite act on the link). Everything else goes through the jail.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isInside, unlisted } from '../safety/workspace.js';
import type { ToolContext } from './tool.js';

/** The absolute path of the entry `requested` names: its parent through the jail, a symlink kept as itself. */
export async function resolveEntry(given: string, ctx: Pick<ToolContext, 'workspace'>): Promise<string> {
  const { root } = ctx.workspace;
  const requested = await unlisted(root, given);
  const lexical = path.resolve(root, requested);
  if (lexical !== root && isInside(root, lexical) && !requested.includes('\0')) {
    const candidate = path.join(await ctx.workspace.resolve(path.dirname(lexical)), path.basename(lexical));
    const stat = await fs.lstat(candidate).catch(() => undefined);
    if (stat?.isSymbolicLink()) return candidate;
  }
  return ctx.workspace.resolve(requested);
}
