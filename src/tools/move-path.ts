// move_path: moves or renames a file, symlink or directory inside the workspace.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { checkedText, withNewErrors } from './after-change.js';
import { fsErrorMessage, withFsErrors } from './fs-util.js';
import { defineTool, fail, ok } from './tool.js';
import { checkTransfer, resolveTransfer } from './transfer.js';

const schema = z.strictObject({
  source: z.string(),
  destination: z.string(),
  overwrite: z.boolean().optional(),
});

const errorCode = (error: unknown) => (error instanceof Error && 'code' in error ? error.code : undefined);

export const movePathTool = defineTool({
  name: 'move_path',
  description: 'Move or rename a file or directory.',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const { source, destination } = await resolveTransfer(args, ctx, false);
    const shown = `${ctx.workspace.relative(source)} → ${ctx.workspace.relative(destination)}`;
    return { reads: [source], writes: [source, destination], summary: `move ${shown}` };
  },
  async execute(args, ctx) {
    const transfer = await checkTransfer(args, ctx, false);
    if (typeof transfer === 'string') return fail(transfer);
    const { source, destination, shownSource, shownDestination } = transfer;
    // A source file's text, read first: what imported it where it was is checked, and so is it where it goes.
    const text = transfer.stat.isFile() ? await checkedText(ctx, source, transfer.stat.size) : undefined;
    const dir = path.dirname(destination);
    await withFsErrors(ctx.workspace.relative(dir), () => fs.mkdir(dir, { recursive: true }));
    try {
      await fs.rename(source, destination);
    } catch (error) {
      if (errorCode(error) !== 'EXDEV') throw new Error(fsErrorMessage(error, shownSource));
      // Another file system below the workspace (a mount): copy, then remove the original.
      await fs.cp(source, destination, { recursive: true, verbatimSymlinks: true, force: true });
      await fs.rm(source, { recursive: true });
    }
    const what = transfer.stat.isDirectory() ? 'directory ' : '';
    const replaced = transfer.replaces ? ' (replaced the existing file)' : '';
    const result = ok(`moved ${what}${shownSource} to ${shownDestination}${replaced}`, {
      source: shownSource,
      destination: shownDestination,
    });
    if (text === undefined) return result;
    return withNewErrors(
      ctx,
      [
        { absolute: source, before: text, after: '', removed: true },
        { absolute: destination, before: undefined, after: text, movedFrom: source },
      ],
      result,
    );
  },
});
