// list_files: lists a directory (optionally recursive and filtered by a glob), honouring .gitignore files.
import type { Dirent } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { type IgnoreScope, isIgnored, loadGitignore, scopesAbove } from '../project/file-walk.js';
import { withFsErrors } from './fs-util.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.object({
  path: z.string().default('.'),
  pattern: z.string().optional().describe('glob, e.g. *.ts or src/**/*.ts'),
  recursive: z.boolean().default(false),
});

/** Entries listed at most; a whole-repo listing beyond this costs more tokens than it helps. */
export const MAX_LIST_ENTRIES = 2000;

export const listFilesTool = defineTool({
  name: 'list_files',
  description: 'List files in a directory (relative paths, dirs end in /); skips .git and gitignored files.',
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

    // .gitignore files between the root and the listed directory apply too.
    const scopes = await scopesAbove(ctx.workspace.root, start);
    const pattern = args.pattern;
    const matches = pattern ? picomatch(pattern, { dot: true, basename: !pattern.includes('/') }) : undefined;
    const lines: string[] = [];
    let capped = false;

    const walk = async (dir: string, inherited: IgnoreScope[]): Promise<void> => {
      ctx.signal.throwIfAborted();
      const own = await loadGitignore(dir);
      const active = own ? [...inherited, own] : inherited;
      const entries: Dirent[] = await withFsErrors(ctx.workspace.relative(dir), () =>
        fs.readdir(dir, { withFileTypes: true }),
      );
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (entry.name === '.git') continue;
        const full = path.join(dir, entry.name);
        const isDir = entry.isDirectory();
        if (isIgnored(active, full, isDir)) continue;
        if (!matches || matches(path.relative(start, full).split(path.sep).join('/'))) {
          if (lines.length >= MAX_LIST_ENTRIES) {
            capped = true;
            return;
          }
          lines.push(`${ctx.workspace.relative(full)}${isDir ? '/' : ''}`);
        }
        // Symlinked directories are not followed: they may lead out of the workspace or loop.
        if (isDir && args.recursive) await walk(full, active);
        if (capped) return;
      }
    };
    await walk(start, scopes);

    const count = lines.length;
    if (capped) lines.push(`[stopped at ${MAX_LIST_ENTRIES} entries; narrow the path or pattern]`);
    if (count === 0) lines.push(pattern ? `(nothing in ${shown} matches ${pattern})` : `(${shown} is empty)`);
    return ok(lines.join('\n'), { entries: count, capped }, `listed ${count} entries in ${shown}`);
  },
});
