// rename_symbol: renames a symbol across the repository, language-aware, shown as one diff and written all or none.
import { z } from 'zod';
import { planRename } from '../code/rename.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { fileChangeDiff } from './file-diff.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';
import { writeFilesAtomic } from './write-files-atomic.js';

const schema = z.object({
  name: z.string().min(1),
  new_name: z.string().min(1),
  path: z.string().optional().describe('file defining it'),
});

async function plan(args: z.infer<typeof schema>, ctx: ToolContext) {
  const index = await codeIndexOf(ctx);
  const definedIn = args.path === undefined ? undefined : await indexPath(ctx, args.path);
  return planRename(index, args.name, args.new_name, definedIn, ctx.signal);
}

export const renameSymbolTool = defineTool({
  name: 'rename_symbol',
  description: 'Rename a symbol and all its references across the project (language-aware).',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const files = await plan(args, ctx);
    const summary = `rename ${args.name} to ${args.new_name}`;
    if (typeof files === 'string') return { reads: [ctx.workspace.root], writes: [], summary };
    const writes = await Promise.all(files.map((f) => ctx.workspace.resolve(f.path)));
    const diff = files.map((f) => fileChangeDiff(f.path, f.before, f.after)).join('\n');
    return { reads: writes, writes, diff, summary: `${summary} in ${files.length} files` };
  },
  async execute(args, ctx) {
    const files = await plan(args, ctx);
    if (typeof files === 'string') return fail(files);
    const changes = await Promise.all(
      files.map(async (f) => ({
        absolute: await ctx.workspace.resolve(f.path),
        before: f.before,
        after: f.after,
      })),
    );
    await writeFilesAtomic(changes, ctx);
    const count = files.reduce((sum, f) => sum + f.count, 0);
    const list = files.map((f) => `  ${f.path} (${f.count})`).join('\n');
    const text = `renamed ${args.name} to ${args.new_name}: ${count} occurrences in ${files.length} files\n${list}`;
    const display = files.map((f) => fileChangeDiff(f.path, f.before, f.after)).join('\n');
    return ok(text, { files: files.length, occurrences: count }, display);
  },
});
