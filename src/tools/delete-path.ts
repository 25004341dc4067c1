// delete_path: deletes a file, a symlink or a directory (recursive required when it is not empty).
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import { walkFiles } from '../project/file-walk.js';
import { checkedText, type Touched, withNewErrors } from './after-change.js';
import { resolveEntry } from './entry-path.js';
import { withFsErrors } from './fs-util.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';

const schema = z.strictObject({ path: z.string(), recursive: z.boolean().default(false) });

export const deletePathTool = defineTool({
  name: 'delete_path',
  description: 'Delete a file or directory; a non-empty directory needs recursive: true.',
  schema,
  safety: 'dangerous',
  async preview(args, ctx) {
    const absolute = await resolveEntry(args.path, ctx);
    const shown = ctx.workspace.relative(absolute);
    return {
      reads: [],
      writes: [absolute],
      summary: `delete ${shown}${args.recursive ? ' (recursive)' : ''}`,
    };
  },
  async execute(args, ctx) {
    const absolute = await resolveEntry(args.path, ctx);
    const shown = ctx.workspace.relative(absolute);
    if (absolute === ctx.workspace.root) return fail('refusing to delete the workspace root');
    const stat = await withFsErrors(shown, () => fs.lstat(absolute), absolute);
    if (stat.isDirectory()) {
      const entries = await withFsErrors(shown, () => fs.readdir(absolute));
      if (entries.length > 0 && !args.recursive) {
        return fail(
          `${shown} is a directory with ${entries.length} entries; pass recursive: true to delete it`,
        );
      }
      // Its source files' texts, read first (a folder of a few): their importers are checked once they are gone.
      const sources = await folderSources(ctx, absolute);
      await withFsErrors(shown, () => fs.rm(absolute, { recursive: true }));
      const result = ok(`deleted directory ${shown}`, { path: shown, kind: 'directory' });
      return sources.length === 0 ? result : withNewErrors(ctx, sources, result);
    }
    // A source file's text, read first: what imported it is checked against it once it is gone.
    const before = stat.isFile() ? await checkedText(ctx, absolute, stat.size) : undefined;
    await withFsErrors(shown, () => fs.unlink(absolute));
    const result = ok(`deleted ${shown}`, { path: shown, kind: stat.isSymbolicLink() ? 'symlink' : 'file' });
    return before === undefined
      ? result
      : withNewErrors(ctx, [{ absolute, before, after: '', removed: true }], result);
  },
});

/** Most files a deleted folder may hold for its importers to be checked: a bigger one is not (it would take long). */
const MAX_FOLDER_FILES = 50;

/** The source files of a folder about to be deleted, with their texts, as removed; none past MAX_FOLDER_FILES. */
async function folderSources(ctx: ToolContext, folder: string): Promise<Touched[]> {
  const found: Touched[] = [];
  let files = 0;
  for await (const file of walkFiles(ctx.workspace.root, folder, ctx.signal)) {
    if (++files > MAX_FOLDER_FILES) return [];
    const stat = await fs.lstat(file).catch(() => undefined);
    const before = stat?.isFile() ? await checkedText(ctx, file, stat.size) : undefined;
    if (before !== undefined) found.push({ absolute: file, before, after: '', removed: true });
  }
  return found;
}
