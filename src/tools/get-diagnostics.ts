// get_diagnostics: the current errors and warnings of files, from their language services (default: the files
// changed in this run); Go files no language server reads are checked with `go vet` when go is installed.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
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
    if (shown.endsWith('.go') || (await ctx.languages?.forFile(shown))) files.push(shown);
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
    let checked = 0;
    for (const path of paths) {
      const service = await ctx.languages.forFile(path);
      if (!service) without.push(path);
      else {
        found.push(...(await service.diagnostics([path], ctx.signal)));
        checked += 1;
      }
    }
    const others = without.filter((p) => !p.endsWith('.go'));
    // A server that is there but failed to start (a broken install) is named, not passed off as missing.
    const failures = new Set<string>();
    for (const path of others) {
      const why = await ctx.languages.failure(path);
      if (why) failures.add(why);
    }
    const because = failures.size > 0 ? `: ${[...failures].join('; ')}` : '';
    const notes = others.length > 0 ? [`(no language service for ${listed(others)}${because})`] : [];
    const go = without.filter((p) => p.endsWith('.go'));
    if (go.length > 0) {
      const vetted = await vetGo(ctx, go);
      found.push(...vetted.found);
      checked += vetted.checked;
      notes.push(...vetted.notes);
    }
    const errors = found.filter((d) => d.severity === 'error').length;
    const lines = [
      `${errors} errors, ${found.length - errors} warnings in ${checked} file${checked === 1 ? '' : 's'}`,
      ...formatDiagnostics(found, MAX_SHOWN),
      ...notes,
    ];
    return ok(lines.join('\n'), { errors, warnings: found.length - errors, files: checked });
  },
});

/** Files named in a note: the first few, then how many more. */
const listed = (files: readonly string[]) =>
  files.length <= 5 ? files.join(', ') : `${files.slice(0, 5).join(', ')} and ${files.length - 5} more`;

/**
 * Go files no language server reads (gopls is not on PATH), through `go vet` as the check after a change does
 * (go-check.ts): its findings, how many files it checked, and notes saying which check ran and what it could not.
 */
async function vetGo(ctx: ToolContext, files: readonly string[]) {
  const { goVetFiles } = await import('./go-check.js');
  const report = await goVetFiles(ctx, files, ctx.limits.commandTimeoutMs);
  if (!report)
    return {
      found: [],
      checked: 0,
      notes: [`(no language service for ${listed(files)}: install gopls, or the go command for go vet)`],
    };
  const notes: string[] = [];
  if (report.checked.length > 0)
    notes.push(`(checked with go vet, as gopls is not on PATH: ${listed(report.checked)})`);
  const [first] = report.elsewhere;
  if (first)
    notes.push(
      `(go vet also reports ${report.elsewhere.length} finding${report.elsewhere.length === 1 ? '' : 's'} in other files of the module, first ${first.path}:${first.line}: ${first.message}; give their paths to list them)`,
    );
  const reasons = new Map<string, string[]>();
  for (const { path, why } of report.unchecked) reasons.set(why, [...(reasons.get(why) ?? []), path]);
  for (const [why, paths] of reasons) notes.push(`(not checked, ${why}: ${listed(paths)})`);
  return { found: report.found, checked: report.checked.length, notes };
}
