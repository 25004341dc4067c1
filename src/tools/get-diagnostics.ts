// get_diagnostics: the current errors and warnings of files, from their language services (default: the files
// changed in this run).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Diagnostic } from '../code/language/service.js';
import { SKIPPED_DIRS, walkFiles } from '../project/file-walk.js';
import { indexPath } from './code-index-of.js';
import { formatDiagnostics } from './diagnostics-diff.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';

const schema = z.strictObject({
  paths: z.array(z.string()).optional().describe('default: files changed in this run'),
});

const MAX_SHOWN = 100;
/** A directory given as a path is checked file by file, up to this many. */
const MAX_FILES = 200;

/** The workspace-relative files a requested path stands for: itself, or a directory's files a service handles. */
async function filesOf(ctx: ToolContext, requested: string): Promise<string[]> {
  const rel = await indexPath(ctx, requested);
  const absolute = path.join(ctx.workspace.root, rel);
  if (!(await fs.stat(absolute).catch(() => undefined))?.isDirectory()) return [rel];
  const files: string[] = [];
  const skip = (name: string) => SKIPPED_DIRS.has(name);
  for await (const file of walkFiles(ctx.workspace.root, absolute, ctx.signal, skip)) {
    const shown = ctx.workspace.relative(file).split(path.sep).join('/');
    if (await ctx.languages?.forFile(shown)) files.push(shown);
    if (files.length >= MAX_FILES) break;
  }
  return files;
}

export const getDiagnosticsTool = defineTool({
  name: 'get_diagnostics',
  description: 'List compiler errors and warnings of files.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    const reads = await Promise.all((args.paths ?? []).map((p) => ctx.workspace.resolveForRead(p)));
    return { reads: reads.length > 0 ? reads : [ctx.workspace.root], writes: [], summary: 'get diagnostics' };
  },
  async execute(args, ctx) {
    if (!ctx.languages) return fail('no language services in this run');
    const paths = args.paths
      ? (await Promise.all(args.paths.map((p) => filesOf(ctx, p)))).flat()
      : ctx.languages.changedFiles();
    if (paths.length === 0) return fail('no files changed in this run yet; give paths');
    const found: Diagnostic[] = [];
    const without: string[] = [];
    for (const path of paths) {
      const service = await ctx.languages.forFile(path);
      if (!service) without.push(path);
      else found.push(...(await service.diagnostics([path], ctx.signal)));
    }
    const errors = found.filter((d) => d.severity === 'error').length;
    const checked = paths.length - without.length;
    const lines = [
      `${errors} errors, ${found.length - errors} warnings in ${checked} file${checked === 1 ? '' : 's'}`,
      ...formatDiagnostics(found, MAX_SHOWN),
    ];
    if (without.length > 0) lines.push(`(no language service for ${without.join(', ')})`);
    return ok(lines.join('\n'), { errors, warnings: found.length - errors, files: checked });
  },
});
