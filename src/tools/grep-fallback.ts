// grep without ripgrep (its binary cannot run here): the same search in JS over the gitignore-aware walk, the
// pattern translated from rg's syntax (grep-regex.ts) and matched a line at a time as each file streams in, so a
// file of any size is searched. Slower, but the model gets the same results in the same format.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { looksBinary } from '../core/binary.js';
import { walkFiles } from '../project/file-walk.js';
import { isSecretFileName } from '../safety/secret-files.js';
import { isInside } from '../safety/workspace.js';
import { jsRegex } from './grep-regex.js';
import type { GrepArgs, GrepResults } from './grep-results.js';
import type { ToolContext } from './tool.js';

/** Bytes read from a file at a time. */
const CHUNK = 1 << 20;

/** An include glob as rg reads it: without a slash it matches a file name anywhere, else the path from the root. */
export function includeMatcher(include: string | undefined): ((relative: string) => boolean) | undefined {
  if (!include) return undefined;
  return picomatch(include, { dot: true, basename: !include.replace(/^!/, '').includes('/') });
}

/**
 * One file's lines, matched as they come: in content mode each match with `context` lines around (a gap between
 * runs that do not touch, as rg prints `--`), in count mode only counted, in files mode only whether one matches.
 */
class LineSearch {
  matches = 0;
  private before: { index: number; text: string }[] = [];
  private afterLeft = 0;
  private lastShown = -1;

  constructor(
    private readonly regex: RegExp,
    private readonly results: GrepResults,
    private readonly shown: string,
    private readonly context: number,
  ) {}

  /** Done with this file: files mode needs one match only. */
  get done(): boolean {
    return this.results.mode === 'files' && this.matches > 0;
  }

  push(index: number, text: string): void {
    const match = this.regex.exec(text);
    if (match) this.matches++;
    if (this.results.mode !== 'content') return;
    if (match) {
      const first = this.before[0]?.index ?? index;
      if (this.context > 0 && this.lastShown >= 0 && first > this.lastShown + 1) this.results.gap();
      for (const line of this.before) this.results.line(this.shown, line.index + 1, line.text, false);
      this.before = [];
      this.results.line(this.shown, index + 1, text, true, match.index);
      this.lastShown = index;
      this.afterLeft = this.context;
    } else if (this.afterLeft > 0) {
      this.results.line(this.shown, index + 1, text, false);
      this.lastShown = index;
      this.afterLeft--;
    } else if (this.context > 0) {
      this.before.push({ index, text });
      if (this.before.length > this.context) this.before.shift();
    }
  }
}

/**
 * Streams `file` through `search` a line at a time (without its `\n`, or `\r\n`); a binary file (a NUL in its
 * first bytes, as rg tells) is skipped. Stops early when the search is done or `stopping` says so.
 */
async function searchFile(
  file: string,
  search: LineSearch,
  buffer: Buffer,
  signal: AbortSignal,
  stopping: () => boolean,
): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    let pending: Buffer[] = [];
    let index = 0;
    const take = (text: string) => search.push(index++, text.endsWith('\r') ? text.slice(0, -1) : text);
    for (let first = true; ; first = false) {
      signal.throwIfAborted();
      if (search.done || stopping()) return;
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (first && looksBinary(chunk)) return;
      let from = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, from)) {
        if (pending.length > 0) {
          take(Buffer.concat([...pending, chunk.subarray(from, newline)]).toString('utf8'));
          pending = [];
        } else take(chunk.toString('utf8', from, newline));
        from = newline + 1;
        if (search.done) return;
      }
      // The start of a line the next chunk ends (the buffer is read into again: keep a copy).
      if (from < bytesRead) pending.push(Buffer.from(chunk.subarray(from)));
    }
    if (pending.length > 0) take(Buffer.concat(pending).toString('utf8'));
  } finally {
    await handle.close();
  }
}

/**
 * Searches under `start` into `results`; returns an error message for a pattern JS cannot search. Once enough is
 * found to show, it goes on counting for `countPastCapMs` at most, as the rg search does.
 */
export async function grepWithJs(
  args: GrepArgs,
  start: string,
  results: GrepResults,
  ctx: ToolContext,
  countPastCapMs: number,
  /** Gets the files left out because they hold secrets (.env, keys). */
  secrets: Set<string> = new Set(),
): Promise<string | undefined> {
  const compiled = jsRegex(args.pattern, args.case_insensitive === true);
  if ('error' in compiled) return compiled.error;
  const include = includeMatcher(args.include);
  // A read-only root outside the workspace is walked from itself, as rg does.
  const root = isInside(ctx.workspace.root, start) ? ctx.workspace.root : start;
  const buffer = Buffer.allocUnsafe(CHUNK);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // Whether to stop now; once enough is found, the clock starts.
  const stopping = () => {
    if (timer === undefined && results.enough)
      timer = setTimeout(() => {
        stopped = true;
        results.stop();
      }, countPastCapMs);
    return stopped;
  };
  try {
    for await (const file of walkFiles(root, start, ctx.signal)) {
      if (stopping()) break;
      if (include && !include(path.relative(root, file).split(path.sep).join('/'))) continue;
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat) continue;
      // A hard link to a secret file is left out without a word, as rg's results leave it out.
      if (stat.nlink > 1 && ctx.workspace.secretLink(file) !== undefined) continue;
      const shown = ctx.workspace.relative(file);
      if (isSecretFileName(path.basename(file))) {
        secrets.add(shown);
        continue;
      }
      const search = new LineSearch(compiled.regex, results, shown, args.context ?? 0);
      try {
        await searchFile(file, search, buffer, ctx.signal, stopping);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        results.note(`${shown}: not searched (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
        continue;
      }
      if (search.matches === 0) continue;
      if (results.mode === 'files') results.file(shown);
      else if (results.mode === 'count') results.count(shown, search.matches);
    }
  } finally {
    clearTimeout(timer);
  }
  return undefined;
}
