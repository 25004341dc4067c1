// copy_path: copies a file (atomically) or a directory tree inside the workspace. Symlinks in a tree are copied as
// links only when they still point inside the workspace from their new place; others are skipped and named.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { isInside } from '../safety/workspace.js';
import { replaceFileAtomic } from './atomic-write.js';
import { fsErrorMessage } from './fs-util.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';
import { checkTransfer, resolveTransfer } from './transfer.js';

const schema = z.strictObject({
  source: z.string(),
  destination: z.string(),
  overwrite: z.boolean().optional(),
});

/** Copies the tree at `source` to `destination` (new); returns the links left out and how many files were copied. */
async function copyTree(source: string, destination: string, ctx: ToolContext) {
  const skipped: string[] = [];
  let files = 0;
  await fs.cp(source, destination, {
    recursive: true,
    errorOnExist: true,
    force: false,
    verbatimSymlinks: true,
    filter: async (from, to) => {
      ctx.signal.throwIfAborted();
      const stat = await fs.lstat(from);
      if (stat.isFile()) files += 1;
      if (!stat.isSymbolicLink()) return true;
      const target = path.resolve(path.dirname(to), await fs.readlink(from));
      if (isInside(ctx.workspace.root, target)) return true;
      skipped.push(ctx.workspace.relative(from));
      return false;
    },
  });
  return { skipped, files };
}

export const copyPathTool = defineTool({
  name: 'copy_path',
  description: 'Copy a file or directory.',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const { source, destination } = await resolveTransfer(args, ctx, true);
    const shown = `${ctx.workspace.relative(source)} → ${ctx.workspace.relative(destination)}`;
    return { reads: [source], writes: [destination], summary: `copy ${shown}` };
  },
  async execute(args, ctx) {
    const transfer = await checkTransfer(args, ctx, true);
    if (typeof transfer === 'string') return fail(transfer);
    const { source, destination, shownSource, shownDestination, stat } = transfer;
    const metadata = { source: shownSource, destination: shownDestination };
    if (!stat.isDirectory()) {
      if (!stat.isFile()) return fail(`${shownSource} is not a regular file or directory`);
      await replaceFileAtomic(destination, (temp) => fs.copyFile(source, temp), ctx);
      const replaced = transfer.replaces ? ' (replaced the existing file)' : '';
      return ok(`copied ${shownSource} to ${shownDestination}${replaced}`, { ...metadata, files: 1 });
    }
    let copied: Awaited<ReturnType<typeof copyTree>>;
    try {
      copied = await copyTree(source, destination, ctx);
    } catch (error) {
      throw new Error(`could not copy ${shownSource}: ${fsErrorMessage(error, shownDestination)}`);
    }
    const note = copied.skipped.length
      ? `\nskipped ${copied.skipped.length} symlinks pointing outside the workspace: ${copied.skipped.join(', ')}`
      : '';
    return ok(`copied directory ${shownSource} to ${shownDestination} (${copied.files} files)${note}`, {
      ...metadata,
      files: copied.files,
      skipped_links: copied.skipped.length,
    });
  },
});
