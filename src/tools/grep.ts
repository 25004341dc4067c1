// grep: searches file contents with a regex on ripgrep (gitignore-aware, symlinks not followed), with a JS
// fallback when the binary cannot run; matching lines, file names or counts, capped with a note on the rest.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { shownPath } from '../core/shown-path.js';
import { isSecretFileName } from '../safety/secret-files.js';
import { isInside } from '../safety/workspace.js';
import { withFsErrors } from './fs-util.js';
import { grepWithJs } from './grep-fallback.js';
import { fillLongLines, type LongLine, MAX_LINE_CHARS } from './grep-line-window.js';
import { type GrepArgs, type GrepCaps, type GrepMode, GrepResults, grepArgsSchema } from './grep-results.js';
import { bundledRgPath, RG_BASE_ARGS, RipgrepUnavailableError, runRipgrep } from './ripgrep.js';
import { defineTool, fail, ok, readPreview, type ToolContext } from './tool.js';

/** Output lines (or files) the model reads at most; past this, a note says how many more there were. */
export const MAX_GREP_LINES = 200;
const MAX_GREP_BYTES = 32_000;
/**
 * How long rg goes on only to count what is left out, once enough is found to show: a capped search of a home
 * directory (gigabytes) would otherwise take as long as reading all of it. The note then says "over".
 */
export const COUNT_PAST_CAP_MS = 1000;
/**
 * Lines up to this many bytes come whole from rg (an ASCII line of MAX_LINE_CHARS characters does); rg prints a
 * longer one as a note, and its window is read from the file at the offsets rg gives, so a minified bundle is not
 * piped. As small as the window: every byte rg pipes is read here, and 4× as many made a capped search of a
 * node_modules tree 15% slower than rg.
 */
export const RG_MAX_COLUMNS = MAX_LINE_CHARS;

/** rg's argv for a search of `target` (relative to the workspace root, where rg runs). */
export function grepArgv(args: GrepArgs, target: string): string[] {
  const mode: GrepMode = args.output ?? 'content';
  const argv = [...RG_BASE_ARGS, args.case_insensitive ? '--ignore-case' : '--case-sensitive'];
  // Look-around and backreferences (which models write, used to JavaScript and PCRE) need PCRE2, which the bundled
  // binary has: without it rg refused them with advice about a flag the model cannot pass. Other patterns keep rg's
  // own engine, and a mistake in one its short error (--engine=auto would add PCRE2's beside it).
  if (needsPcre2(args.pattern)) argv.push('--pcre2');
  // --null: a name ends in a NUL byte, as it may hold a line break.
  if (mode === 'files') argv.push('--files-with-matches', '--null');
  else if (mode === 'count') argv.push('--count', '--with-filename', '--null');
  else {
    // Each line with its byte offset in the file, and a match's with its first match's column (bytes, from 1).
    argv.push('--line-number', '--column', '--byte-offset', '--with-filename', '--null', '--heading');
    argv.push(`--max-columns=${RG_MAX_COLUMNS}`);
    if (args.context) argv.push(`--context=${args.context}`);
  }
  // `=` forms and `--`: text from the model is never read as a flag.
  if (args.include) argv.push(`--glob=${args.include}`);
  argv.push(`--regexp=${args.pattern}`, '--', target);
  return argv;
}

/** Look-around (`(?=`, `(?!`, `(?<=`, `(?<!`) or a backreference (`\1`, `\k<name>`): what rg's own engine lacks. */
export function needsPcre2(pattern: string): boolean {
  // Escaped backslashes first, so `\\1` (a backslash, then 1) is no backreference.
  const bare = pattern.replace(/\\\\/g, '');
  return /\(\?<?[=!]/.test(bare) || /\\[1-9]|\\k[<{']/.test(bare);
}

const stripDot = (p: string): string => (p.startsWith('./') ? p.slice(2) : p);

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 48 && byte <= 57;

/** What rg prints instead of a line longer than --max-columns. */
const OMITTED = /^\[Omitted long (line with \d+ matches|context line)\]$/;

/** The decimal number at `data[at]`, and where it ends. */
function numberAt(data: Buffer, at: number): { value: number; end: number } {
  let end = at;
  let value = 0;
  // Digits read as a number in place: no string a line (past the cap, tens of thousands are only counted).
  for (let byte = data[end]; isDigit(byte); byte = data[++end]) value = value * 10 + (byte as number) - 48;
  return { value, end };
}

/**
 * Reads rg's output, a line at a time as bytes. Content comes in --heading form: `path\0` opens a file and runs
 * straight into its first line, then `N:COLUMN:OFFSET:text` (a match) or `N-OFFSET-text` (context), `--` between
 * runs, an empty line between files. Paths start with `./` or `/` (see rgTarget), never a digit, so a line starting
 * with a digit is always a numbered line. Past the cap, lines are only counted, never decoded. A line rg left out
 * as too long is kept in `long`, to be read from the file. A file `hidden` names (a hard link to a secret) is left
 * out whole, its lines and counts too: nothing of it, not even that it matched.
 */
function rgLineReader(
  results: GrepResults,
  hidden: (file: string) => boolean,
  long: LongLine[],
  root: string,
): { read: (data: Buffer, start: number, end: number) => void; flush: () => void } {
  let file = '';
  let shown = '';
  let hiding = false;
  /**
   * A line that is neither numbered nor a file's heading: rg's word on a file, or the start of a name holding a line
   * break, whose heading (`rest\0`) comes next. Held until the next line tells.
   */
  let pending: string | undefined;
  const flush = () => {
    if (pending !== undefined && !hiding) results.note(shownPath(stripDot(pending.trimEnd())));
    pending = undefined;
  };
  const read = (data: Buffer, start: number, end: number) => {
    if (start === end && pending === undefined) return;
    if (results.mode === 'files') {
      const name = stripDot(data.toString('utf8', start, end));
      if (!hidden(name)) results.file(shownPath(name));
      return;
    }
    let at = start;
    let newFile = false;
    // A numbered line of the file being read (nearly every line) is no heading: no NUL is looked for in it, and the
    // look is bounded by the line (unbounded, it ran on to the next file's heading at every line).
    const found = pending === undefined && isDigit(data[at]) ? -1 : data.subarray(at, end).indexOf(0);
    const nul = found === -1 ? -1 : at + found;
    const heading = nul !== -1;
    if (pending !== undefined) {
      // Every path rg prints starts with `./` or `/` (rgTarget): a line that does is a file of its own.
      const text = data.toString('utf8', at, heading ? nul : end);
      if (isDigit(data[at]) || /^(--$|\.?\/)/.test(text)) flush();
      else {
        // The rest of a name: its heading when the NUL is here, else a line break more inside it.
        pending = `${pending}\n${text}`;
        if (!heading) return;
      }
    }
    if (pending !== undefined || !isDigit(data[at])) {
      if (pending === undefined && end - at === 2 && data[at] === 45 && data[at + 1] === 45) {
        if (!hiding) results.gap();
        return;
      }
      if (pending === undefined && !heading) {
        pending = data.toString('utf8', at, end);
        return;
      }
      newFile = true;
      const name = stripDot(pending ?? data.toString('utf8', at, nul));
      pending = undefined;
      hiding = hidden(name);
      if (!results.full) {
        file = name;
        shown = shownPath(name);
      }
      at = nul + 1;
    }
    if (hiding) return;
    if (results.full && results.mode !== 'count') {
      let i = at;
      while (isDigit(data[i])) i++;
      results.skipped(newFile, data[i] === 58);
      return;
    }
    const line = numberAt(data, at);
    if (results.mode === 'count') {
      results.count(shown, line.value);
      return;
    }
    const isMatch = data[line.end] === 58;
    const column = isMatch ? numberAt(data, line.end + 1) : undefined;
    const offset = numberAt(data, (column?.end ?? line.end) + 1);
    const textStart = offset.end + 1;
    const textEnd = data[end - 1] === 13 ? end - 1 : end;
    const firstMatch = column ? column.value - 1 : 0;
    if (
      data[textStart] === 91 &&
      textEnd - textStart < 64 &&
      OMITTED.test(data.toString('latin1', textStart, textEnd))
    ) {
      const set = results.longLine(shown, line.value, isMatch);
      if (set)
        long.push({
          file: path.resolve(root, file),
          lineStart: offset.value,
          matchAt: offset.value + firstMatch,
          set,
        });
      return;
    }
    // Where the match starts in the text, in characters: needed only for a line that may be cut.
    const matchChar =
      firstMatch > 0 && textEnd - textStart > MAX_LINE_CHARS
        ? data.toString('utf8', textStart, textStart + firstMatch).length
        : 0;
    results.line(shown, line.value, data.toString('utf8', textStart, textEnd), isMatch, matchChar);
  };
  return { read, flush };
}

/** Runs the search with rg; undefined when rg cannot run here, an error for a failed search (bad regex, …). */
async function grepWithRg(
  rgPath: string | undefined,
  args: GrepArgs,
  target: string,
  results: GrepResults,
  ctx: ToolContext,
  countPastCapMs: number,
  secrets: Set<string>,
): Promise<{ warning?: string; error?: string } | undefined> {
  const stop = new AbortController();
  // Read at every line: a plain flag (an AbortSignal's `aborted` getter checks its receiver each time).
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const binary = rgPath ?? (await bundledRgPath());
    const { workspace } = ctx;
    const long: LongLine[] = [];
    const secretLink = workspace.secretLinkSearch();
    const hidden = (file: string): boolean => {
      if (isSecretFileName(path.basename(file))) {
        secrets.add(file);
        return true;
      }
      return secretLink !== undefined && secretLink(path.resolve(workspace.root, file)) !== undefined;
    };
    const reader = rgLineReader(results, hidden, long, workspace.root);
    const run = await runRipgrep(binary, grepArgv(args, target), {
      cwd: ctx.workspace.root,
      signal: AbortSignal.any([ctx.signal, stop.signal]),
      ...(results.mode === 'files' ? { separator: 0 as const } : {}),
      onLine: (data, start, end) => {
        if (stopped) return;
        reader.read(data, start, end);
        if (timer === undefined && results.enough)
          timer = setTimeout(() => {
            results.stop();
            stopped = true;
            stop.abort();
          }, countPastCapMs);
      },
    }).catch((error: unknown) => {
      // Stopped past the cap by the timer above: what was found stands.
      if (stop.signal.aborted && !ctx.signal.aborted) return { code: 0, stderr: '' };
      throw error;
    });
    reader.flush();
    await fillLongLines(long, ctx.signal);
    if (run.code !== 2) return {};
    const first = run.stderr.trim().split('\n').slice(0, 12).join('\n');
    if (results.empty) return { error: `grep failed: ${first}` };
    return { warning: `[some paths could not be searched: ${first.split('\n')[0]}]` };
  } catch (error) {
    if (error instanceof RipgrepUnavailableError) return undefined;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The line naming the files a search left out because they hold secrets, or ''. */
export function secretNote(secrets: ReadonlySet<string>): string {
  if (secrets.size === 0) return '';
  const names = [...secrets].sort().map(shownPath);
  const shown =
    names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  return `\n[not searched: ${shown} (files that hold secrets are never read by tools; ask the user for what you need)]`;
}

/**
 * rg's target: "." for the root, else `./` and the path relative to it (absolute for a read-only root), so every
 * path rg prints starts with `./` or `/`.
 */
function rgTarget(absolute: string, ctx: ToolContext): string {
  const { root } = ctx.workspace;
  if (absolute === root) return '.';
  return isInside(root, absolute) ? `./${path.relative(root, absolute)}` : absolute;
}

/**
 * The grep tool; `rgPath` overrides the bundled binary (tests point it at one that cannot run), `countPastCapMs`
 * how long rg may go on counting once the cap is reached.
 */
export function createGrepTool(options: { rgPath?: string; countPastCapMs?: number } = {}) {
  return defineTool({
    name: 'grep',
    description: 'Regex search of file contents (ripgrep; skips gitignored).',
    schema: grepArgsSchema,
    safety: 'safe',
    preview: (args, ctx) =>
      readPreview(ctx, args.path ?? '.', (shown) => `grep ${JSON.stringify(args.pattern)} in ${shown}`),
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
      const countPastCapMs = options.countPastCapMs ?? COUNT_PAST_CAP_MS;
      /** Files that hold secrets (.env, keys): never searched, as no command may name them; named in the result. */
      const secrets = new Set<string>();
      const rg = await grepWithRg(
        options.rgPath,
        args,
        rgTarget(absolute, ctx),
        results,
        ctx,
        countPastCapMs,
        secrets,
      );
      if (rg === undefined) {
        backend = 'js';
        results = new GrepResults(mode, caps, args.context ?? 0);
        secrets.clear();
        const error = await grepWithJs(args, absolute, results, ctx, countPastCapMs, secrets);
        if (error) return fail(error);
      }
      if (rg?.error) return fail(rg.error);
      const found = results.render(args.pattern);
      const warning = (rg?.warning ? `\n${rg.warning}` : '') + secretNote(secrets);
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
