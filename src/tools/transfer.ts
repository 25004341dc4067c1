// What move_path and copy_path share: both paths through the jail, and the checks made before anything moves
// (not the root, source exists, destination free unless overwrite, never into itself).
import type { Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import { isInside } from '../safety/workspace.js';
import { resolveEntry } from './entry-path.js';
import { withFsErrors } from './fs-util.js';
import type { ToolContext } from './tool.js';

export interface TransferArgs {
  source: string;
  destination: string;
  overwrite?: boolean;
}

export interface Transfer {
  source: string;
  destination: string;
  shownSource: string;
  shownDestination: string;
  /** The source's lstat: a symlink moved is the link itself. */
  stat: Stats;
  /** The destination exists (a file, since overwrite is given). */
  replaces: boolean;
}

/** Both paths, resolved: the source follows links when `followSource` (copy) and is the link itself otherwise (move). */
export async function resolveTransfer(args: TransferArgs, ctx: ToolContext, followSource: boolean) {
  const source = followSource
    ? await ctx.workspace.resolve(args.source)
    : await resolveEntry(args.source, ctx);
  const destination = await resolveEntry(args.destination, ctx);
  return { source, destination };
}

/** The checked transfer, or why it may not happen (a message the model can act on). */
export async function checkTransfer(
  args: TransferArgs,
  ctx: ToolContext,
  followSource: boolean,
): Promise<Transfer | string> {
  const { source, destination } = await resolveTransfer(args, ctx, followSource);
  const { root } = ctx.workspace;
  const shownSource = ctx.workspace.relative(source);
  const shownDestination = ctx.workspace.relative(destination);
  if (source === root || destination === root)
    return 'the workspace root cannot be moved, copied or replaced';
  const stat = await withFsErrors(shownSource, () => fs.lstat(source), source);
  if (source === destination) return `${shownSource} and ${shownDestination} are the same path`;
  if (stat.isDirectory() && isInside(source, destination)) {
    return `cannot put ${shownSource} inside itself (${shownDestination})`;
  }
  const existing = await fs.lstat(destination).catch(() => undefined);
  if (existing?.isDirectory()) {
    return `${shownDestination} is an existing directory; name the new path itself, e.g. ${shownDestination}/<name>`;
  }
  if (existing && !args.overwrite) return `${shownDestination} exists; pass overwrite: true to replace it`;
  if (existing && stat.isDirectory()) return `${shownDestination} is a file; a directory cannot replace it`;
  return { source, destination, shownSource, shownDestination, stat, replaces: existing !== undefined };
}
