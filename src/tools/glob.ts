// glob: files whose path matches a glob, newest first, honouring .gitignore; listed by ripgrep (--files), or by
// the JS walk when the binary cannot run.
import { promises as fs, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import * as z from 'zod';
import { walkFiles } from '../project/file-walk.js';
import { isInside } from '../safety/workspace.js';
import { withFsErrors } from './fs-util.js';
import { bundledRgPath, RG_BASE_ARGS, RipgrepUnavailableError, runRipgrep } from './ripgrep.js';
import { defineTool, fail, ok, readPreview, type ToolContext } from './tool.js';

const schema = z.strictObject({
  pattern: z.string().describe('relative to path: *.ts only in it, **/*.ts at any depth'),
  path: z.string().optional(),
});

/** A file and its modification time (0 when it cannot be read). */
interface Dated {
  file: string;
  mtime: number;
}

const dated1 = (file: string): Dated => ({
  file,
  mtime: statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0,
});

/** Newest first; equal times by path, so the order is stable. */
const newestFirst = (a: Dated, b: Dated): number =>
  b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);

/** Files listed at most; a note says how many more matched. */
export const MAX_GLOB_FILES = 200;

const toSlash =
  path.sep === '/' ? (p: string): string => p : (p: string): string => p.split(path.sep).join('/');

/** Syntax picomatch reads and rg's globs do not (extglobs, negation, escapes), or braces spanning a `/`. */
const UNSHARED = /[()\\!]|\{[^}]*\/[^}]*\}/;

/**
 * A glob every matching file's name must match, for rg's `--type-add`, so rg prints only candidates rather than
 * every file: the pattern's last segment. (rg's `--glob` would do, but it overrides .gitignore.) Undefined when the
 * name could be anything or the syntax is not shared: then picomatch alone decides, on every file.
 */
export function rgNameFilter(pattern: string): string | undefined {
  if (UNSHARED.test(pattern)) return undefined;
  const name = pattern.slice(pattern.lastIndexOf('/') + 1);
  if (name === '' || name.includes('**') || name === '*') return undefined;
  return name;
}

/**
 * How deep below the start a match can be: a pattern without `**` has as many levels as segments (`*.ts` one,
 * `src/*.ts` two), so rg need not walk further. Undefined when any depth may match or the syntax is not shared.
 */
export function globDepth(pattern: string): number | undefined {
  if (pattern.includes('**') || UNSHARED.test(pattern)) return undefined;
  return pattern.split('/').length;
}

/** rg's argv for a glob's listing of `target` (the bench runs rg with the same, to compare). */
export function globArgv(pattern: string, target: string): string[] {
  const name = rgNameFilter(pattern);
  const byName = name ? [`--type-add=keelglob:${name}`, '--type=keelglob'] : [];
  const depth = globDepth(pattern);
  const deep = depth === undefined ? [] : [`--max-depth=${depth}`];
  // --null: each name ends in a NUL byte, as a name may hold a line break.
  return [...RG_BASE_ARGS, '--files', '--null', ...byName, ...deep, `--threads=${walkThreads}`, '--', target];
}

/** A listed file: its absolute path and its path from the glob's start, `/`-separated. */
type OnFile = (file: string, fromStart: string) => void;

/** rg's walking threads: one core is left to Keel, which reads and dates what rg prints while it walks. */
const walkThreads = Math.max(1, availableParallelism() - 1);

/**
 * Past this many matches they are listed by path, not dated: a stat each costs 5-15 µs here (0.5-1.5 s for 100k
 * files). rg's own dating (`--sortr=modified`) costs more still: it walks on one thread and stats every entry.
 */
export const MAX_DATED = 4000;

/**
 * Lists the files under `start` as rg sees them (gitignore, hidden, no .git, links not followed), in no order, each
 * to `onFile` (only those whose name `pattern` may match, when rg can tell); false without rg.
 */
async function listWithRg(
  rgPath: string | undefined,
  start: string,
  pattern: string,
  ctx: ToolContext,
  onFile: OnFile,
): Promise<boolean> {
  const { root } = ctx.workspace;
  const target = start === root ? '.' : isInside(root, start) ? path.relative(root, start) : start;
  // rg prints each file as the target, a separator, and the path below it; the start's own absolute path then
  // stands for the target (string joins: path.resolve per file costs more than the stat).
  const prefix = target.endsWith(path.sep) ? target : `${target}${path.sep}`;
  const base = start.endsWith(path.sep) ? start : `${start}${path.sep}`;
  let listed = 0;
  try {
    const binary = rgPath ?? (await bundledRgPath());
    const run = await runRipgrep(binary, globArgv(pattern, target), {
      cwd: root,
      signal: ctx.signal,
      separator: 0,
      onLine: (data, from, end) => {
        if (end <= from) return;
        listed++;
        const printed = data.toString('utf8', from, end);
        if (printed.startsWith(prefix)) {
          const below = printed.slice(prefix.length);
          onFile(base + below, toSlash(below));
        } else {
          const file = path.resolve(root, printed);
          onFile(file, toSlash(path.relative(start, file)));
        }
      },
    });
    if (run.code === 2 && listed === 0) throw new Error(`glob failed: ${run.stderr.trim().split('\n')[0]}`);
    return true;
  } catch (error) {
    if (error instanceof RipgrepUnavailableError) return false;
    throw error;
  }
}

/**
 * The glob tool; `rgPath` overrides the bundled binary (tests point it at one that cannot run), `maxDated` the
 * matches past which they are listed by path.
 */
export function createGlobTool(options: { rgPath?: string; maxDated?: number } = {}) {
  const maxDated = options.maxDated ?? MAX_DATED;
  return defineTool({
    name: 'glob',
    description: 'Find files by glob, newest first; skips gitignored.',
    schema,
    safety: 'safe',
    preview: (args, ctx) => readPreview(ctx, args.path ?? '.', (shown) => `glob ${args.pattern} in ${shown}`),
    async execute(args, ctx) {
      const start = await ctx.workspace.resolveForRead(args.path ?? '.');
      const shown = ctx.workspace.relative(start);
      const info = await withFsErrors(shown, () => fs.stat(start), start);
      if (!info.isDirectory()) return fail(`${shown} is not a directory; glob searches a directory`);
      const pattern = args.pattern.replace(/^\.\//, '');
      // As a shell reads it (and Claude Code's and Gemini CLI's glob tools): `*.ts` in the start folder alone.
      const matches = picomatch(pattern, { dot: true });

      // When rg listed only files whose name matches, at any depth, and the pattern is `**/` and that name, every
      // file listed matches.
      const nameDecides = rgNameFilter(pattern) !== undefined && /^\*\*\/[^/]+$/.test(pattern);
      const found: string[] = [];
      // Each match is dated as rg prints it, while rg walks on in its own process: on a cold cache (here the host
      // pages out what sat unused) the inode reads then overlap rg's directory reads instead of following them.
      const dated: Dated[] = [];
      let backend = 'rg';
      const take = (file: string) => {
        found.push(file);
        if (dated.length <= maxDated) dated.push(dated1(file));
      };
      const onFile = (file: string, fromStart: string) => {
        if (nameDecides || matches(fromStart)) take(file);
      };
      const listed = await listWithRg(options.rgPath, start, pattern, ctx, onFile);
      if (!listed) {
        backend = 'js';
        // A read-only root outside the workspace is walked from itself, as rg does.
        const { root } = ctx.workspace;
        for await (const file of walkFiles(isInside(root, start) ? root : start, start, ctx.signal))
          if (matches(toSlash(path.relative(start, file)))) take(file);
      }
      // Too many to date: by path, and the result says so.
      const byPath = found.length > maxDated;
      const ordered = byPath ? found.sort().map((file) => ({ file, mtime: 0 })) : dated.sort(newestFirst);
      const lines = ordered.slice(0, MAX_GLOB_FILES).map(({ file }) => ctx.workspace.relative(file));
      const leftOut = found.length - lines.length;
      if (leftOut > 0) lines.push(`[${leftOut} more files left out; narrow the pattern or path]`);
      if (byPath) lines.push(`[over ${maxDated} matches: listed by path, not newest first]`);
      if (found.length === 0) lines.push(`no files match ${pattern}${shown === '.' ? '' : ` in ${shown}`}`);
      return ok(
        lines.join('\n'),
        { files: found.length, capped: leftOut > 0, backend },
        `glob ${pattern}: ${found.length} files`,
      );
    },
  });
}

export const globTool = createGlobTool();
