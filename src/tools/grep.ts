// grep: searches file contents with a regex on ripgrep (gitignore-aware, symlinks not followed), with a JS
// fallback when the binary cannot run; matching lines, file names or counts, capped with a note on the rest.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isInside } from '../safety/workspace.js';
import { withFsErrors } from './fs-util.js';
import { grepWithJs } from './grep-fallback.js';
import { type GrepCaps, type GrepMode, GrepResults, MAX_LINE_CHARS } from './grep-results.js';
import { bundledRgPath, RG_BASE_ARGS, RipgrepUnavailableError, runRipgrep } from './ripgrep.js';
import { defineTool, fail, ok, type ToolContext } from './tool.js';

const schema = z.object({
  pattern: z.string().min(1).describe('regex'),
  path: z.string().optional(),
  include: z.string().optional().describe('file glob, e.g. *.ts'),
  context: z.number().int().min(0).max(20).optional().describe('lines around matches'),
  output: z.enum(['content', 'files', 'count']).optional(),
  case_insensitive: z.boolean().optional(),
});

export type GrepArgs = z.infer<typeof schema>;

/** Output lines (or files) the model reads at most; past this, a note says how many more there were. */
export const MAX_GREP_LINES = 200;
const MAX_GREP_BYTES = 32_000;

/** rg's argv for a search of `target` (relative to the workspace root, where rg runs). */
export function grepArgv(args: GrepArgs, target: string): string[] {
  const mode: GrepMode = args.output ?? 'content';
  const argv = [...RG_BASE_ARGS, args.case_insensitive ? '--ignore-case' : '--case-sensitive'];
  if (mode === 'files') argv.push('--files-with-matches');
  else if (mode === 'count') argv.push('--count', '--with-filename', '--null');
  else {
    argv.push('--line-number', '--with-filename', '--null');
    argv.push(`--max-columns=${MAX_LINE_CHARS}`, '--max-columns-preview');
    if (args.context) argv.push(`--context=${args.context}`);
  }
  // `=` forms and `--`: text from the model is never read as a flag.
  if (args.include) argv.push(`--glob=${args.include}`);
  argv.push(`--regexp=${args.pattern}`, '--', target);
  return argv;
}

const stripDot = (p: string): string => (p.startsWith('./') ? p.slice(2) : p);

/** Feeds one line of rg's output (in the argv's format) to the results. */
function takeRgLine(results: GrepResults, line: string): void {
  if (results.mode === 'files') {
    if (line !== '') results.file(stripDot(line));
    return;
  }
  const nul = line.indexOf('\0');
  if (nul === -1) {
    if (line === '--') results.gap();
    return;
  }
  const file = stripDot(line.slice(0, nul));
  if (results.mode === 'count') {
    results.count(file, Number(line.slice(nul + 1)));
    return;
  }
  let i = nul + 1;
  while (i < line.length && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i++;
  const text = line.endsWith('\r') ? line.slice(i + 1, -1) : line.slice(i + 1);
  results.line(file, Number(line.slice(nul + 1, i)), text, line[i] === ':');
}

/** Runs the search with rg; undefined when rg cannot run here, an error for a failed search (bad regex, …). */
async function grepWithRg(
  rgPath: string | undefined,
  args: GrepArgs,
  target: string,
  results: GrepResults,
  ctx: ToolContext,
): Promise<{ warning?: string; error?: string } | undefined> {
  try {
    const binary = rgPath ?? (await bundledRgPath());
    const run = await runRipgrep(binary, grepArgv(args, target), {
      cwd: ctx.workspace.root,
      signal: ctx.signal,
      onLine: (line) => takeRgLine(results, line),
    });
    if (run.code !== 2) return {};
    const first = run.stderr.trim().split('\n').slice(0, 12).join('\n');
    if (results.empty) return { error: `grep failed: ${first}` };
    return { warning: `[some paths could not be searched: ${first.split('\n')[0]}]` };
  } catch (error) {
    if (error instanceof RipgrepUnavailableError) return undefined;
    throw error;
  }
}

/** rg's target: "." for the root, else the path relative to it (an absolute one for a read-only root). */
function rgTarget(absolute: string, ctx: ToolContext): string {
  const { root } = ctx.workspace;
  if (absolute === root) return '.';
  return isInside(root, absolute) ? path.relative(root, absolute) : absolute;
}

/** The grep tool; `rgPath` overrides the bundled binary (tests point it at one that cannot run). */
export function createGrepTool(options: { rgPath?: string } = {}) {
  return defineTool({
    name: 'grep',
    description:
      'Search file contents by regex (ripgrep; skips gitignored). output: content (default), files or count.',
    schema,
    safety: 'safe',
    async preview(args, ctx) {
      const absolute = await ctx.workspace.resolveForRead(args.path ?? '.');
      return {
        reads: [absolute],
        writes: [],
        summary: `grep ${JSON.stringify(args.pattern)} in ${ctx.workspace.relative(absolute)}`,
      };
    },
    async execute(args, ctx) {
      const absolute = await ctx.workspace.resolveForRead(args.path ?? '.');
      const shown = ctx.workspace.relative(absolute);
      await withFsErrors(shown, () => fs.stat(absolute), absolute);
      const caps: GrepCaps = {
        maxLines: MAX_GREP_LINES,
        maxBytes: Math.max(1024, Math.min(MAX_GREP_BYTES, ctx.limits.maxOutputSize - 512)),
      };
      const mode = args.output ?? 'content';
      let results = new GrepResults(mode, caps, args.context ?? 0);
      let backend = 'rg';
      const rg = await grepWithRg(options.rgPath, args, rgTarget(absolute, ctx), results, ctx);
      if (rg === undefined) {
        backend = 'js';
        results = new GrepResults(mode, caps, args.context ?? 0);
        const error = await grepWithJs(args, absolute, results, ctx);
        if (error) return fail(error);
      }
      if (rg?.error) return fail(rg.error);
      const found = results.render(args.pattern);
      const warning = rg?.warning ? `\n${rg.warning}` : '';
      const where = shown === '.' ? '' : ` in ${shown}`;
      return ok(
        found.output + warning,
        { matches: found.matches, files: found.files, capped: found.capped, backend },
        `grep ${JSON.stringify(args.pattern)}${where}: ${found.summary}`,
      );
    },
  });
}

export const grepTool = createGrepTool();
