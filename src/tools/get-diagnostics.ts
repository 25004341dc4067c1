// get_diagnostics: the current errors and warnings of files, from their language services (default: the files
// changed in this run).
import { z } from 'zod';
import type { Diagnostic } from '../code/language/service.js';
import { formatDiagnostics } from './after-change.js';
import { indexPath } from './code-index-of.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.object({
  paths: z.array(z.string()).optional().describe('default: files changed in this run'),
});

const MAX_SHOWN = 100;

export const getDiagnosticsTool = defineTool({
  name: 'get_diagnostics',
  description:
    'List current compiler errors and warnings of files (TS/JS and languages with a language server).',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    const reads = await Promise.all((args.paths ?? []).map((p) => ctx.workspace.resolveForRead(p)));
    return { reads: reads.length > 0 ? reads : [ctx.workspace.root], writes: [], summary: 'get diagnostics' };
  },
  async execute(args, ctx) {
    if (!ctx.languages) return fail('no language services in this run');
    const paths = args.paths
      ? await Promise.all(args.paths.map((p) => indexPath(ctx, p)))
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
