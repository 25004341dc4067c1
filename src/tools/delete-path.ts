// delete_path: deletes a file, a symlink or a directory (recursive required when it is not empty).
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { checkedText, withNewErrors } from './after-change.js';
import { resolveEntry } from './entry-path.js';
import { withFsErrors } from './fs-util.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.object({ path: z.string(), recursive: z.boolean().default(false) });

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
      await withFsErrors(shown, () => fs.rm(absolute, { recursive: true }));
      return ok(`deleted directory ${shown}`, { path: shown, kind: 'directory' });
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
