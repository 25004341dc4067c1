// read_file: returns a text file's content, whole or a range of lines.
import { z } from 'zod';
import { readTextFile } from './fs-util.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.object({
  path: z.string(),
  offset: z.number().int().min(1).max(1e9).optional().describe('first line, 1-based'),
  limit: z.number().int().min(1).max(1e9).optional().describe('max lines'),
});

export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file in the workspace, optionally a range of lines.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    return { reads: [absolute], writes: [], summary: `read ${ctx.workspace.relative(absolute)}` };
  },
  async execute(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    const text = await readTextFile(absolute, shown, ctx.limits.maxFileReadSize);
    const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
    const total = text === '' ? 0 : lines.length;
    if (args.offset === undefined && args.limit === undefined) {
      const summary = `read ${shown} (${total} lines)`;
      return ok(text === '' ? '(empty file)' : text, { path: shown, lines: total }, summary);
    }
    const start = (args.offset ?? 1) - 1;
    if (start >= total) return fail(`offset ${start + 1} is past the end of ${shown} (${total} lines)`);
    const end = Math.min(total, args.limit === undefined ? total : start + args.limit);
    const header = `[${shown}: lines ${start + 1}-${end} of ${total}]`;
    const body = lines.slice(start, end).join('\n');
    return ok(
      `${header}\n${body}`,
      { path: shown, lines: end - start },
      `read ${shown} lines ${start + 1}-${end}`,
    );
  },
});
