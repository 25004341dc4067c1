// write_file: writes a whole file atomically (temp file in the same directory, then rename).
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import { withNewErrors } from './after-change.js';
import { writeFileAtomic } from './atomic-write.js';
import { fileChangeDiff, MAX_DISPLAY_DIFF_LINES } from './file-diff.js';
import { editorText } from './fs-util.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.strictObject({ path: z.string(), content: z.string() });

/** An overwritten file up to this size is read first, for the diff shown to the user. */
const MAX_SHOWN_BEFORE_BYTES = 1_000_000;

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create or overwrite a file (parent dirs made).',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    const before =
      (await editorText(ctx, absolute)) ?? (await fs.readFile(absolute, 'utf8').catch(() => undefined));
    // "a\nb\n" is two lines: a final newline ends the last line, it starts none.
    const lines =
      args.content === '' ? 0 : args.content.split('\n').length - (args.content.endsWith('\n') ? 1 : 0);
    return {
      reads: [],
      writes: [absolute],
      diff: fileChangeDiff(shown, before, args.content),
      summary: `write ${shown} (${lines} line${lines === 1 ? '' : 's'}${before === undefined ? ', new file' : ''})`,
    };
  },
  async execute(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(absolute);
    if (absolute === ctx.workspace.root) return fail('cannot write to the workspace root; name a file');
    const existing = await fs.stat(absolute).catch(() => undefined);
    if (existing?.isDirectory()) return fail(`${shown} is a directory; name a file inside it`);
    // The text before: the user sees an overwrite's diff, and a language service the errors this write introduces.
    const before =
      existing && (ctx.languages || existing.size <= MAX_SHOWN_BEFORE_BYTES)
        ? await fs.readFile(absolute, 'utf8').catch(() => undefined)
        : undefined;
    await writeFileAtomic(absolute, args.content, ctx);
    const bytes = Buffer.byteLength(args.content);
    const verb = existing ? 'overwrote' : 'created';
    const summary = `${verb} ${shown} (${bytes} bytes)`;
    const diff =
      before === undefined || before === args.content ? '' : fileChangeDiff(shown, before, args.content);
    const shownDiff = diff !== '' && diff.split('\n').length <= MAX_DISPLAY_DIFF_LINES;
    const result = ok(
      summary,
      { path: shown, bytes, created: !existing },
      shownDiff ? `${summary}\n${diff}` : undefined,
    );
    return withNewErrors(ctx, [{ absolute, before, after: args.content }], result);
  },
});
