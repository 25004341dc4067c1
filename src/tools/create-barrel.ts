// create_barrel: writes a barrel file (index.ts, or <dir>.dart) exporting a directory's public modules.
import { promises as fs } from 'node:fs';
import * as z from 'zod';
import { planBarrel } from '../code/barrel.js';
import { withNewErrors } from './after-change.js';
import { codeIndexOf, indexPath } from './code-index-of.js';
import { fileChangeDiff } from './file-diff.js';
import { withFsErrors } from './fs-util.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';
import { writeFilesAtomic } from './write-files-atomic.js';

const schema = z.strictObject({ dir: z.string() });

async function plan(args: z.infer<typeof schema>, ctx: ToolContext) {
  const dir = await indexPath(ctx, args.dir);
  // A directory that is not there has no modules, but saying so hid the mistyped path.
  const absoluteDir = await ctx.workspace.resolveForRead(args.dir);
  const stat = await withFsErrors(args.dir, () => fs.stat(absoluteDir), absoluteDir).catch(
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  if (typeof stat === 'string') return stat;
  if (!stat.isDirectory())
    return `${args.dir} is a file; give the directory whose modules the barrel exports`;
  const barrel = planBarrel(await codeIndexOf(ctx), dir);
  if (typeof barrel === 'string') return barrel;
  const absolute = await ctx.workspace.resolve(barrel.path);
  const before = await fs.readFile(absolute, 'utf8').catch(() => undefined);
  if (before === undefined) return { ...barrel, absolute, before };
  // A file of its own (p-queue's source/index.ts holds the PQueue class; a barrel naming what it exports, with
  // aliases) is never replaced by a list of `export *` lines.
  const own = ownLine(before);
  if (own !== undefined)
    return `${barrel.path} already exists with more than \`export *\` lines (line ${own.line}: ${own.text}); create_barrel would replace it: add the exports it lacks with edit_file instead`;
  // Its header comment (a license) stays.
  const header = before.match(/^(?:[ \t]*(?:\/\/.*|\/\*.*|\*.*)?\r?\n)*/)?.[0] ?? '';
  return { ...barrel, absolute, before, content: `${header}${barrel.content}` };
}

/** A barrel this tool may rewrite holds only `export * from '…'` (Dart: `export '…'`) lines, comments and blank lines. */
const BARREL_LINE =
  /^\s*(?:$|\/\/|\/\*|\*|export\s*\*\s*from\s*(['"])[^'"]+\1\s*;?\s*$|export\s+(['"])[^'"]+\2\s*;\s*$)/;

/** The first line of `text` that is not one create_barrel writes, or undefined. */
export function ownLine(text: string): { line: number; text: string } | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((line) => !BARREL_LINE.test(line));
  if (at < 0) return undefined;
  const shown = lines[at]!.trim();
  return { line: at + 1, text: shown.length > 80 ? `${shown.slice(0, 77)}...` : shown };
}

export const createBarrelTool = defineTool({
  name: 'create_barrel',
  description: "Write index.ts (or <dir>.dart) exporting a directory's public modules.",
  schema,
  safety: 'caution',
  async preview(args, ctx) {
    const p = await plan(args, ctx);
    if (typeof p === 'string') return { reads: [], writes: [], summary: `create a barrel in ${args.dir}` };
    return {
      reads: [],
      writes: [p.absolute],
      diff: fileChangeDiff(p.path, p.before, p.content),
      summary: `write ${p.path} exporting ${p.modules.length} modules`,
    };
  },
  async execute(args, ctx) {
    const p = await plan(args, ctx);
    if (typeof p === 'string') return fail(p);
    if (p.before === p.content) return ok(`${p.path} is up to date`, { changed: false });
    await writeFilesAtomic([{ absolute: p.absolute, before: p.before, after: p.content }], ctx);
    const text = `wrote ${p.path} exporting ${p.modules.join(', ')}`;
    const result = ok(
      text,
      { changed: true, modules: p.modules.length },
      fileChangeDiff(p.path, p.before, p.content),
    );
    return withNewErrors(ctx, [{ absolute: p.absolute, before: p.before, after: p.content }], result);
  },
});
