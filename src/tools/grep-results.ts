// What grep is asked and what it gives the model, whichever backend found it: matching lines grouped by file (or file
// names, or counts), capped in lines and bytes, with a note saying how much was left out.
import * as z from 'zod';
import { lineWindow, MAX_WINDOW_BYTES, WINDOW_NOTES_BYTES } from './grep-line-window.js';

export const grepArgsSchema = z.strictObject({
  pattern: z.string(),
  path: z.string().optional(),
  include: z.string().optional().describe('file glob, e.g. *.ts'),
  context: z.number().int().min(0).max(20).optional().describe('lines around'),
  output: z.enum(['content', 'files', 'count']).optional(),
  case_insensitive: z.boolean().optional(),
});

export type GrepArgs = z.infer<typeof grepArgsSchema>;

export type GrepMode = 'content' | 'files' | 'count';

export interface GrepCaps {
  /** Output lines (matches and context) or files listed. */
  maxLines: number;
  maxBytes: number;
}

/** rg's own words about a file (shown after the results) are cut to this many characters. */
const MAX_NOTE_CHARS = 400;

const clipNote = (text: string): string =>
  text.length <= MAX_NOTE_CHARS
    ? text
    : `${text.slice(0, MAX_NOTE_CHARS)} [… ${text.length - MAX_NOTE_CHARS} more characters]`;

export class GrepResults {
  private readonly groups = new Map<string, string[]>();
  private readonly counts: { path: string; count: number }[] = [];
  private readonly fileList: string[] = [];
  private kept = 0;
  private bytes = 0;
  private capped = false;
  private matches = 0;
  private leftOutMatches = 0;
  private leftOutFiles = 0;
  private pendingGap = false;
  private readonly notes: string[] = [];
  private lastPath: string | undefined;
  /** The search was stopped past the cap: the numbers left out are lower bounds. */
  private stopped = false;

  constructor(
    readonly mode: GrepMode,
    private readonly caps: GrepCaps,
    private readonly context: number,
  ) {}

  /**
   * A matching (or, with context, a neighbouring) line of `path`; a file's lines come together, in order. A long line
   * is shown as a window around `at`, its first match (0: its start).
   */
  line(path: string, lineNumber: number, text: string, isMatch: boolean, at = 0): void {
    const shown = lineWindow(text, at);
    this.add(path, lineNumber, isMatch, shown)?.(shown);
  }

  /**
   * A line too long for the search to print: its window, read from the file afterwards, goes to the setter returned
   * (undefined past the cap). The room it may take is kept for it now.
   */
  longLine(path: string, lineNumber: number, isMatch: boolean): ((window: string) => void) | undefined {
    return this.add(path, lineNumber, isMatch, undefined);
  }

  /** Counts the line and keeps its place in the output when it fits; the setter fills in its text. */
  private add(
    path: string,
    lineNumber: number,
    isMatch: boolean,
    text: string | undefined,
  ): ((text: string) => void) | undefined {
    const newFile = path !== this.lastPath;
    this.lastPath = path;
    if (this.capped) {
      this.skipped(newFile, isMatch);
      return undefined;
    }
    if (isMatch) this.matches += 1;
    const mark = isMatch ? ':' : '-';
    const head = `${path}${mark}${lineNumber}${mark}`;
    const room = text === undefined ? MAX_WINDOW_BYTES + WINDOW_NOTES_BYTES : Buffer.byteLength(text);
    const size = Buffer.byteLength(head) + room + 1;
    if (this.kept >= this.caps.maxLines || this.bytes + size > this.caps.maxBytes) {
      this.capped = true;
      if (isMatch) this.leftOutMatches += 1;
      if (newFile) this.leftOutFiles += 1;
      return undefined;
    }
    let lines = this.groups.get(path);
    if (!lines) {
      lines = [];
      this.groups.set(path, lines);
    } else if (this.pendingGap) lines.push('--');
    this.pendingGap = false;
    const index = lines.push(head) - 1;
    this.kept += 1;
    this.bytes += size;
    const group = lines;
    return (shown) => {
      group[index] = head + shown;
    };
  }

  /** Past the cap lines are only counted, so a reader may skip decoding them. */
  get full(): boolean {
    return this.capped;
  }

  /** Enough to show is found, the rest would only be counted: lines past the cap, or files past it (not counts). */
  get enough(): boolean {
    if (this.mode === 'content') return this.capped;
    return this.mode === 'files' && this.fileList.length > this.caps.maxLines;
  }

  /** The search stops here: what was left out is said as "more than". */
  stop(): void {
    this.stopped = true;
  }

  /** A line past the cap: whether it starts a file not seen before, and whether it matches. */
  skipped(newFile: boolean, isMatch: boolean): void {
    if (isMatch) {
      this.matches += 1;
      this.leftOutMatches += 1;
    }
    if (newFile) this.leftOutFiles += 1;
  }

  /** A remark of the search tool about a file, shown after the results (a few at most). */
  note(text: string): void {
    if (this.notes.length < 5) this.notes.push(clipNote(text));
  }

  /** A break between non-adjacent runs of lines of one file (rg's `--`). */
  gap(): void {
    this.pendingGap = true;
  }

  file(path: string): void {
    this.fileList.push(path);
  }

  count(path: string, count: number): void {
    this.counts.push({ path, count });
    this.matches += count;
  }

  get empty(): boolean {
    return this.matches === 0 && this.fileList.length === 0 && this.notes.length === 0;
  }

  /** The text for the model, a one-line summary for the user, and numbers for the metadata. */
  render(pattern: string): {
    output: string;
    summary: string;
    matches: number;
    files: number;
    capped: boolean;
  } {
    if (this.mode === 'files') return this.renderFiles(pattern);
    if (this.mode === 'count') return this.renderCounts(pattern);
    const files = this.groups.size + this.leftOutFiles;
    const paths = [...this.groups.keys()].sort();
    const blocks = paths.map((p) => this.groups.get(p)!.join('\n'));
    const out = blocks.length > 0 ? [blocks.join(this.context > 0 ? '\n--\n' : '\n')] : [];
    out.push(...this.notes);
    const over = this.stopped ? 'over ' : '';
    if (this.capped) {
      out.push(
        `[${over}${this.leftOutMatches} more matching lines left out` +
          `${this.leftOutFiles > 0 ? `, in ${over}${files} files in all (${over}${this.leftOutFiles} not shown)` : ''}` +
          `${this.stopped ? ', counting stopped' : ''}; narrow the pattern, path or include]`,
      );
    }
    const summary = `${over}${this.matches} matching lines in ${over}${files} files`;
    if (this.matches === 0 && this.notes.length === 0) return this.none(pattern);
    return { output: out.join('\n'), summary, matches: this.matches, files, capped: this.capped };
  }

  private none(pattern: string) {
    const output = `no matches for ${JSON.stringify(pattern)}`;
    return { output, summary: output, matches: 0, files: 0, capped: false };
  }

  /** The first entries that fit the caps, and how many did not. */
  private fit(lines: string[]): { shown: string[]; leftOut: number } {
    const shown: string[] = [];
    let bytes = 0;
    for (const line of lines) {
      bytes += Buffer.byteLength(line) + 1;
      if (shown.length >= this.caps.maxLines || bytes > this.caps.maxBytes) break;
      shown.push(line);
    }
    return { shown, leftOut: lines.length - shown.length };
  }

  private renderFiles(pattern: string) {
    if (this.fileList.length === 0) return this.none(pattern);
    const { shown, leftOut } = this.fit(this.fileList.sort());
    const over = this.stopped ? 'over ' : '';
    if (leftOut > 0)
      shown.push(
        `[${over}${leftOut} more files left out${this.stopped ? ', counting stopped' : ''}; narrow the pattern, path or include]`,
      );
    const files = this.fileList.length;
    return {
      output: shown.join('\n'),
      summary: `${over}${files} files match`,
      matches: files,
      files,
      capped: leftOut > 0,
    };
  }

  private renderCounts(pattern: string) {
    if (this.counts.length === 0) return this.none(pattern);
    const sorted = this.counts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const { shown, leftOut } = this.fit(sorted.map((c) => `${c.path}:${c.count}`));
    if (leftOut > 0) shown.push(`[${leftOut} more files left out; narrow the pattern, path or include]`);
    const files = this.counts.length;
    const summary = `${this.matches} matching lines in ${files} files`;
    shown.push(`total: ${summary}`);
    return { output: shown.join('\n'), summary, matches: this.matches, files, capped: leftOut > 0 };
  }
}
