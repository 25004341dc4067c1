// extract_conventions: formatter and linter settings, file naming, test layout, scripts, commit style.
import * as z from 'zod';
import { extractConventions, formatConventions } from '../project/conventions.js';
import { projectScanOf } from './project-scan-of.js';
import { defineTool, ok } from './tool.js';

const schema = z.strictObject({ path: z.string().default('.') });

export const extractConventionsTool = defineTool({
  name: 'extract_conventions',
  description: 'Code style configs, naming, test layout, scripts, commit style.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    const root = await ctx.workspace.resolveForRead(args.path);
    return { reads: [root], writes: [], summary: `extract the conventions of ${args.path}` };
  },
  async execute(args, ctx) {
    const scan = await projectScanOf(args.path, ctx);
    const conventions = await extractConventions(scan, { runner: ctx.runner, signal: ctx.signal });
    const summary = `${conventions.formatters.length} style configs, ${conventions.scripts.length} scripts`;
    return ok(formatConventions(conventions), {}, summary);
  },
});
