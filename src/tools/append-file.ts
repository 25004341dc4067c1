// append_file: adds text to the end of a file (created when missing), in the file's line endings.
import { promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { withNewErrors } from './after-change.js';
import { replaceFileAtomic, writeFileAtomic } from './atomic-write.js';
import { fileChangeDiff } from './file-diff.js';
import { editorText, readTextFile, withFsErrors } from './fs-util.js';
import { takeShape, toLf } from './text-shape.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';

const schema = z.strictObject({ path: z.string(), content: z.string() });

interface PlannedAppend {
  absolute: string;
  shown: string;
  /** The file's text when it could be read as text (undefined: missing, or too large or binary to diff). */
  before: string | undefined;
  exists: boolean;
  /** The file's stat (following links), when it exists. */
  stat: Stats | undefined;
  /** What is appended: the content in the file's line endings. */
  added: string;
}

async function planAppend(args: z.infer<typeof schema>, ctx: ToolContext): Promise<PlannedAppend> {
  const absolute = await ctx.workspace.resolve(args.path);
  const shown = ctx.workspace.relative(absolute);
  const stat = await fs.stat(absolute).catch(() => undefined);
  // An editor's unsaved buffer (keel acp) is the file's text, as edit_file reads it.
  const before = stat?.isFile()
    ? ((await editorText(ctx, absolute)) ??
      (await readTextFile(absolute, shown, ctx.limits.maxFileReadSize).catch(() => undefined)))
    : undefined;
  const shape = before === undefined ? undefined : takeShape(before).shape;
  const added =
    shape === undefined || shape.eol === '\n'
      ? args.content
      : toLf(args.content, shape).replaceAll('\n', shape.eol);
  return { absolute, shown, before, exists: stat !== undefined, stat, added };
}

export const appendFileTool = defineTool({
  name: 'append_file',
  description: 'Append content to the end of a file (created if missing).',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const plan = await planAppend(args, ctx);
    const from = plan.exists ? plan.before : undefined;
    const diff =
      !plan.exists || plan.before !== undefined
        ? fileChangeDiff(plan.shown, from, (from ?? '') + plan.added)
        : undefined;
    const bytes = Buffer.byteLength(plan.added);
    return {
      reads: [],
      writes: [plan.absolute],
      ...(diff !== undefined ? { diff } : {}),
      summary: `append ${bytes} bytes to ${plan.shown}${plan.exists ? '' : ' (new file)'}`,
    };
  },
  async execute(args, ctx) {
    const plan = await planAppend(args, ctx);
    if (plan.absolute === ctx.workspace.root) return fail('cannot append to the workspace root; name a file');
    const { stat } = plan;
    if (stat?.isDirectory()) return fail(`${plan.shown} is a directory; name a file inside it`);
    const dir = path.dirname(plan.absolute);
    await withFsErrors(ctx.workspace.relative(dir), () => fs.mkdir(dir, { recursive: true }));
    // A file with another name (a hard link: pnpm's node_modules, a file linked in from outside the workspace) is
    // replaced by a copy with the text added, as edit_file and write_file replace files: appending in place would
    // change the other name's file too, wherever it is.
    // With an editor, the whole text goes through it (its buffer stays what the file holds), as edit_file's does.
    const throughEditor = ctx.files?.writeText !== undefined && (plan.before !== undefined || !plan.exists);
    const linked = !throughEditor && stat !== undefined && stat.nlink > 1;
    if (throughEditor) await writeFileAtomic(plan.absolute, (plan.before ?? '') + plan.added, ctx);
    else if (linked) {
      await replaceFileAtomic(
        plan.absolute,
        async (temp) => {
          await fs.copyFile(plan.absolute, temp);
          await fs.appendFile(temp, plan.added);
          await fs.chmod(temp, stat.mode & 0o7777);
        },
        ctx,
      );
    } else await withFsErrors(plan.shown, () => fs.appendFile(plan.absolute, plan.added));
    const bytes = Buffer.byteLength(plan.added);
    // The model may expect a new line; say so when the content continued the last one.
    const joined =
      plan.before !== undefined &&
      plan.before !== '' &&
      !/[\r\n]$/.test(plan.before) &&
      !/^[\r\n]/.test(plan.added);
    const note =
      (joined ? ' (the file did not end with a newline, so the content continues its last line)' : '') +
      (linked ? ' (it had another name, a hard link, which keeps the text it had)' : '');
    const result = ok(`appended ${bytes} bytes to ${plan.shown}${plan.exists ? '' : ' (new file)'}${note}`, {
      path: plan.shown,
      bytes,
      created: !plan.exists,
    });
    const after = (plan.before ?? '') + plan.added;
    return withNewErrors(ctx, plan.before === undefined && plan.exists ? [] : [{ ...plan, after }], result);
  },
});
