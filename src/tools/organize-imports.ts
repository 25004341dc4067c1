// organize_imports: sorts a TS/JS or Dart file's imports, merges duplicates and drops unused names.
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { languageOf } from '../code/languages.js';
import { organizeImports } from '../code/organize-imports.js';
import { withNewErrors } from './after-change.js';
import { fileChangeDiff } from './file-diff.js';
import { readTextFile } from './fs-util.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';
import { writeFilesAtomic } from './write-files-atomic.js';

const schema = z.object({ path: z.string() });

async function plan(args: z.infer<typeof schema>, ctx: ToolContext) {
  const absolute = await ctx.workspace.resolve(args.path);
  const shown = ctx.workspace.relative(absolute);
  const lang = languageOf(absolute);
  const before = await readTextFile(absolute, shown, ctx.limits.maxFileReadSize);
  const after = lang ? organizeImports(lang, before) : undefined;
  return { absolute, shown, before, after };
}

export const organizeImportsTool = defineTool({
  name: 'organize_imports',
  description: 'Sort, dedupe and drop unused imports of a TS/JS or Dart file.',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    const p = await plan(args, ctx).catch(() => undefined);
    const diff =
      p?.after !== undefined && p.after !== p.before ? fileChangeDiff(shown, p.before, p.after) : undefined;
    return {
      reads: [absolute],
      writes: [absolute],
      ...(diff ? { diff } : {}),
      summary: `organize imports of ${shown}`,
    };
  },
  async execute(args, ctx) {
    const p = await plan(args, ctx);
    if (p.after === undefined) return fail(`${p.shown}: organize_imports handles TS/JS and Dart files only`);
    if (p.after === p.before) return ok(`${p.shown}: imports already organized`, { changed: false });
    // Unchanged since the preview: the file is written only as shown.
    if ((await fs.readFile(p.absolute, 'utf8')) !== p.before) return fail(`${p.shown} changed; try again`);
    await writeFilesAtomic([{ absolute: p.absolute, before: p.before, after: p.after }], ctx);
    const result = ok(
      `organized imports of ${p.shown}`,
      { changed: true },
      fileChangeDiff(p.shown, p.before, p.after),
    );
    return withNewErrors(ctx, [{ absolute: p.absolute, before: p.before, after: p.after }], result);
  },
});
