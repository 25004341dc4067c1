// grep without ripgrep (its binary cannot run here): the same search in JS over the gitignore-aware walk, with
// the regex per line. Slower, but the model gets the same results in the same format.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { looksBinary } from '../core/binary.js';
import { walkFiles } from '../project/file-walk.js';
import { isInside } from '../safety/workspace.js';
import type { GrepArgs, GrepResults } from './grep-results.js';
import type { ToolContext } from './tool.js';

/** Files larger than this are skipped, as binaries are: a text search through them would stall the run. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** An include glob as rg reads it: without a slash it matches a file name anywhere, else the path from the root. */
export function includeMatcher(include: string | undefined): ((relative: string) => boolean) | undefined {
  if (!include) return undefined;
  return picomatch(include, { dot: true, basename: !include.replace(/^!/, '').includes('/') });
}

/** The 0-based lines to print for matches at `hits`, with `context` lines around; with context, runs separated by -1. */
function withContext(hits: number[], context: number, total: number): number[] {
  const shown: number[] = [];
  let last = -1;
  for (const hit of hits) {
    const from = Math.max(hit - context, last + 1);
    if (context > 0 && shown.length > 0 && from > last + 1) shown.push(-1);
    for (let i = from; i <= Math.min(total - 1, hit + context); i++) shown.push(i);
    last = Math.max(last, Math.min(total - 1, hit + context));
  }
  return shown;
}

/** Searches under `start` into `results`; returns an error message for a pattern JS cannot compile. */
export async function grepWithJs(
  args: GrepArgs,
  start: string,
  results: GrepResults,
  ctx: ToolContext,
): Promise<string | undefined> {
  let regex: RegExp;
  try {
    regex = new RegExp(args.pattern, args.case_insensitive ? 'i' : '');
  } catch (error) {
    return `invalid regex: ${error instanceof Error ? error.message : String(error)}`;
  }
  const include = includeMatcher(args.include);
  // A read-only root outside the workspace is walked from itself, as rg does.
  const root = isInside(ctx.workspace.root, start) ? ctx.workspace.root : start;
  for await (const file of walkFiles(root, start, ctx.signal)) {
    if (include && !include(path.relative(root, file).split(path.sep).join('/'))) continue;
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat || stat.size > MAX_FILE_BYTES) continue;
    // A hard link to a secret file is left out without a word, as rg's results leave it out.
    if (stat.nlink > 1 && ctx.workspace.secretLink(file) !== undefined) continue;
    const data = await fs.readFile(file).catch(() => undefined);
    if (!data || looksBinary(data)) continue;
    const lines = data.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    const hits: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
      if (regex.test(lines[i]!)) hits.push(i);
    }
    if (hits.length === 0) continue;
    const shown = ctx.workspace.relative(file);
    if (results.mode === 'files') results.file(shown);
    else if (results.mode === 'count') results.count(shown, hits.length);
    else {
      const matched = new Set(hits);
      for (const i of withContext(hits, args.context ?? 0, lines.length)) {
        if (i === -1) results.gap();
        else results.line(shown, i + 1, lines[i]!, matched.has(i));
      }
    }
  }
  return undefined;
}
