// delete_path: deletes a file, a symlink or a directory (recursive required when it is not empty).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isInside } from '../safety/workspace.js';
import { withFsErrors } from './fs-util.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';

const schema = z.object({ path: z.string(), recursive: z.boolean().default(false) });

/** The path to remove: a symlink inside the workspace is removed itself, never the file it points to. */
async function target(requested: string, ctx: ToolContext): Promise<string> {
  const { root } = ctx.workspace;
  const lexical = path.resolve(root, requested);
  if (lexical !== root && isInside(root, lexical) && !requested.includes('\0')) {
    const candidate = path.join(await ctx.workspace.resolve(path.dirname(lexical)), path.basename(lexical));
    const stat = await fs.lstat(candidate).catch(() => undefined);
    if (stat?.isSymbolicLink()) return candidate;
  }
  return ctx.workspace.resolve(requested);
}

export const deletePathTool = defineTool({
  name: 'delete_path',
  description: 'Delete a file or directory; a non-empty directory needs recursive: true.',
  schema,
  safety: 'dangerous',
  async preview(args, ctx) {
    const absolute = await target(args.path, ctx);
    const shown = ctx.workspace.relative(absolute);
    return {
      reads: [],
      writes: [absolute],
      summary: `delete ${shown}${args.recursive ? ' (recursive)' : ''}`,
    };
  },
  async execute(args, ctx) {
    const absolute = await target(args.path, ctx);
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
    await withFsErrors(shown, () => fs.unlink(absolute));
    return ok(`deleted ${shown}`, { path: shown, kind: stat.isSymbolicLink() ? 'symlink' : 'file' });
  },
});
