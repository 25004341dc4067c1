// list_files: lists a directory (optionally recursive and filtered by a glob), honouring .gitignore files.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import * as z from 'zod';
import { walkEntries } from '../project/file-walk.js';
import { withFsErrors } from './fs-util.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.strictObject({
  path: z.string().default('.'),
  pattern: z.string().optional().describe('glob, e.g. *.ts'),
  recursive: z.boolean().default(false),
});

/** Entries listed at most; a whole-repo listing beyond this costs more tokens than it helps. */
export const MAX_LIST_ENTRIES = 2000;

export const listFilesTool = defineTool({
  name: 'list_files',
  description: 'List a directory (dirs end in /; skips gitignored).',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    const absolute = await ctx.workspace.resolve(args.path);
    return { reads: [absolute], writes: [], summary: `list ${ctx.workspace.relative(absolute)}` };
  },
  async execute(args, ctx) {
    const start = await ctx.workspace.resolve(args.path);
    const shown = ctx.workspace.relative(start);
    const stat = await withFsErrors(shown, () => fs.stat(start), start);
    if (!stat.isDirectory()) return fail(`${shown} is not a directory; use read_file to read a file`);

    const pattern = args.pattern;
    const matches = pattern ? picomatch(pattern, { dot: true, basename: !pattern.includes('/') }) : undefined;
    // `**/*.ts` or `src/*.ts` names entries below the folder: a top-level listing could never match them.
    const recursive = args.recursive || (pattern !== undefined && /\*\*|\//.test(pattern));
    const lines: string[] = [];
    let capped = false;
    const entries = walkEntries(ctx.workspace.root, start, {
      signal: ctx.signal,
      recursive,
      // An unreadable directory fails the listing with the reason, rather than looking empty.
      unreadable: (dir, error) => withFsErrors(ctx.workspace.relative(dir), () => Promise.reject(error)),
    });
    for await (const entry of entries) {
      if (matches && !matches(path.relative(start, entry.path).split(path.sep).join('/'))) continue;
      if (lines.length >= MAX_LIST_ENTRIES) {
        capped = true;
        break;
      }
      lines.push(`${ctx.workspace.relative(entry.path)}${entry.isDir ? '/' : ''}`);
    }

    const count = lines.length;
    if (capped) lines.push(`[stopped at ${MAX_LIST_ENTRIES} entries; narrow the path or pattern]`);
    if (count === 0) lines.push(pattern ? `(nothing in ${shown} matches ${pattern})` : `(${shown} is empty)`);
    return ok(lines.join('\n'), { entries: count, capped }, `listed ${count} entries in ${shown}`);
  },
});
