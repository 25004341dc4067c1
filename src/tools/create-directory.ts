// create_directory: makes a directory (and, by default, its parents).
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import { withFsErrors } from './fs-util.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.strictObject({ path: z.string(), recursive: z.boolean().default(true) });

export const createDirectoryTool = defineTool({
  name: 'create_directory',
  description: 'Create a directory; with recursive (default) missing parents too.',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    return { reads: [], writes: [absolute], summary: `create directory ${ctx.workspace.relative(absolute)}` };
  },
  async execute(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    const existing = await fs.stat(absolute).catch(() => undefined);
    if (existing?.isDirectory()) return ok(`${shown} already exists`, { path: shown, created: false });
    if (existing) return fail(`${shown} exists and is not a directory`);
    await withFsErrors(shown, () => fs.mkdir(absolute, { recursive: args.recursive }));
    return ok(`created directory ${shown}`, { path: shown, created: true });
  },
});
