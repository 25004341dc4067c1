// diff_files: a unified diff between two text files in the workspace.
import { createTwoFilesPatch } from 'diff';
import * as z from 'zod';
import { readTextFile } from './fs-util.js';
import { defineTool, ok } from './tool.js';

const schema = z.strictObject({ path_a: z.string(), path_b: z.string() });

/** Diffs up to this size are also shown to the user; larger ones get a one-line summary. */
const MAX_DISPLAY_BYTES = 8192;

export const diffFilesTool = defineTool({
  name: 'diff_files',
  description: 'Show a unified diff between two text files.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    const reads = await Promise.all([args.path_a, args.path_b].map((p) => ctx.workspace.resolve(p)));
    return { reads, writes: [], summary: `diff ${args.path_a} ${args.path_b}` };
  },
  async execute(args, ctx) {
    const [a, b] = await Promise.all(
      [args.path_a, args.path_b].map(async (requested) => {
        const absolute = await ctx.workspace.resolve(requested);
        const shown = ctx.workspace.relative(absolute);
        return { shown, text: await readTextFile(absolute, shown, ctx.limits.maxFileReadSize) };
      }),
    );
    if (!a || !b) throw new Error('diff_files needs two files');
    if (a.text === b.text) return ok('files are identical', { identical: true });
    const patch = createTwoFilesPatch(a.shown, b.shown, a.text, b.text, undefined, undefined, { context: 3 });
    const body = patch.replace(/^=+\n/, '');
    const lines = body.split('\n');
    const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
    const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
    const summary = `${a.shown} → ${b.shown}: +${added} -${removed} lines`;
    const display = Buffer.byteLength(body) <= MAX_DISPLAY_BYTES ? body : summary;
    return ok(body, { identical: false, added, removed }, display);
  },
});
