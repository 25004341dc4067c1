// edit_file: replaces exact text in a file (one edit or several, all or none), keeping its line endings,
// final newline and BOM; near-misses are tolerated and named, a result that breaks the syntax is refused.
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import { withNewErrors } from './after-change.js';
import { writeFileAtomic } from './atomic-write.js';
import { syntaxCheckFor } from './edit-check.js';
import { applyEdits, type Edit } from './edit-match.js';
import { fileChangeDiff, MAX_DISPLAY_DIFF_LINES } from './file-diff.js';
import { editorText, readTextFile } from './fs-util.js';
import { putShape, takeShape, toLf } from './text-shape.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';

const edit = z.strictObject({
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});

const schema = z
  .strictObject({
    path: z.string(),
    old_string: z.string().optional(),
    new_string: z.string().optional(),
    replace_all: z.boolean().optional(),
    edits: z.array(edit).optional(),
  })
  .refine((a) => (a.edits === undefined) !== (a.old_string === undefined && a.new_string === undefined), {
    message: 'give old_string and new_string, or edits',
  })
  .refine((a) => a.edits !== undefined || (a.old_string !== undefined && a.new_string !== undefined), {
    message: 'old_string and new_string go together',
  });

type Args = z.infer<typeof schema>;

interface PlannedEdit {
  absolute: string;
  shown: string;
  before: string;
  after: string;
  replacements: number;
  notes: string[];
}

/** Reads the file and applies the edits in memory; throws with what the model needs to retry when they do not apply. */
async function planEdit(args: Args, ctx: ToolContext): Promise<PlannedEdit> {
  const absolute = await ctx.workspace.resolve(args.path);
  const shown = ctx.workspace.relative(absolute);
  const edits: Edit[] = args.edits ?? [
    { old_string: args.old_string ?? '', new_string: args.new_string ?? '', replace_all: args.replace_all },
  ];
  // An empty old_string for a file not there yet is a try at creating it: say which tool does that, rather than
  // sending the model to look for a path it means to make.
  const editorOpen = await editorText(ctx, absolute);
  if (editorOpen === undefined && edits.every((e) => e.old_string === '') && !(await exists(absolute)))
    throw new Error(`cannot edit ${shown}: there is no such file yet; use write_file to create it`);
  const before = editorOpen ?? (await readTextFile(absolute, shown, ctx.limits.maxFileReadSize));
  const { body, shape } = takeShape(before);
  const lf = edits.map((e) => ({
    ...e,
    old_string: toLf(e.old_string, shape),
    new_string: toLf(e.new_string, shape),
  }));
  const result = applyEdits(body, lf, syntaxCheckFor(absolute));
  if (!result.ok) throw new Error(`cannot edit ${shown}: ${result.error}`);
  const after = putShape(result.text, shape);
  return { absolute, shown, before, after, replacements: result.replacements, notes: result.notes };
}

const exists = (absolute: string): Promise<boolean> =>
  fs.lstat(absolute).then(
    () => true,
    () => false,
  );

function countChanges(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) added += 1;
    else if (line.startsWith('-') && !line.startsWith('---')) removed += 1;
  }
  return { added, removed };
}

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace old_string (matching once, or every match with replace_all) with new_string. edits: several, in order, all or none.',
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const plan = await planEdit(args, ctx);
    const diff = fileChangeDiff(plan.shown, plan.before, plan.after);
    const { added, removed } = countChanges(diff);
    return {
      reads: [plan.absolute],
      writes: [plan.absolute],
      diff,
      summary: `edit ${plan.shown} (+${added} -${removed})`,
    };
  },
  async execute(args, ctx) {
    let plan: PlannedEdit;
    try {
      plan = await planEdit(args, ctx);
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
    if (plan.after === plan.before) return ok(`${plan.shown} unchanged: the edit leaves the text as it was`);
    await writeFileAtomic(plan.absolute, plan.after, ctx);
    const diff = fileChangeDiff(plan.shown, plan.before, plan.after);
    const { added, removed } = countChanges(diff);
    const summary = `edited ${plan.shown} (+${added} -${removed})`;
    const count = plan.replacements === 1 ? '1 replacement' : `${plan.replacements} replacements`;
    const output = [`${summary}: ${count}`, ...plan.notes].join('\n');
    const small = diff.split('\n').length <= MAX_DISPLAY_DIFF_LINES;
    const result = ok(
      output,
      { path: plan.shown, replacements: plan.replacements, added, removed, tolerant: plan.notes.length > 0 },
      small ? `${summary}\n${diff}` : summary,
    );
    return withNewErrors(ctx, [plan], result);
  },
});
