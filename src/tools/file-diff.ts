// The unified diff of a file change, for previews and approvals: the old text (none for a new file) against the new.
// Only the part between the lines both sides share at their start and end is diffed (with its context), so a one-line
// edit of a 5 MB file costs a scan of the file, not Myers' diff of it.
import { formatPatch, structuredPatch } from 'diff';

/** Beyond this many characters of changed region on either side the diff is not computed (Myers' diff grows with N×D). */
const MAX_DIFF_CHARS = 1_000_000;
const CONTEXT = 3;

/** Diffs up to this many lines are shown to the user in full (edits, overwrites); larger ones as a one-line summary. */
export const MAX_DISPLAY_DIFF_LINES = 40;

/** Where the two texts stop sharing whole lines: the changed region of each, with `CONTEXT` lines around it. */
interface Window {
  /** Lines before the window (the same count on both sides). */
  skippedLines: number;
  before: string;
  after: string;
}

/** Index just past the `count`-th newline before `at` (0 when there are fewer), walking back. */
function backLines(text: string, at: number, count: number): number {
  let i = at;
  for (let n = 0; n <= count; n++) {
    const newline = text.lastIndexOf('\n', i - 1);
    if (newline < 0) return 0;
    i = newline;
  }
  return i + 1;
}

/** Index just past the `count`-th newline at or after `at` (the text's end when there are fewer). */
function forwardLines(text: string, at: number, count: number): number {
  let i = at;
  for (let n = 0; n < count; n++) {
    const newline = text.indexOf('\n', i);
    if (newline < 0) return text.length;
    i = newline + 1;
  }
  return i;
}

function countLines(text: string, end: number): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

/** The changed region of `before` → `after`, cut at line boundaries with context around it. */
function changedWindow(before: string, after: string): Window {
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix++;
  // Whole lines only: the shared start ends at a line start, the shared end begins after a newline.
  const start = backLines(before, prefix, CONTEXT);
  const beforeEnd = forwardLines(before, before.length - suffix, CONTEXT + 1);
  const afterEnd = forwardLines(after, after.length - suffix, CONTEXT + 1);
  // The shared tail is the same text on both sides: what is cut from one is cut from the other.
  const tail = Math.min(before.length - beforeEnd, after.length - afterEnd);
  return {
    skippedLines: countLines(before, start),
    before: before.slice(start, before.length - tail),
    after: after.slice(start, after.length - tail),
  };
}

/** A unified diff of `shown` going from `before` to `after` (undefined: the file does not exist on that side). */
export function fileChangeDiff(shown: string, before: string | undefined, after: string | undefined): string {
  const window =
    before !== undefined && after !== undefined
      ? changedWindow(before, after)
      : { skippedLines: 0, before: before ?? '', after: after ?? '' };
  if (window.before.length > MAX_DIFF_CHARS || window.after.length > MAX_DIFF_CHARS) {
    return `(${shown}: too large to diff)`;
  }
  const patch = structuredPatch(
    before === undefined ? '/dev/null' : `a/${shown}`,
    after === undefined ? '/dev/null' : `b/${shown}`,
    window.before,
    window.after,
    undefined,
    undefined,
    { context: CONTEXT },
  );
  for (const hunk of patch.hunks) {
    // A side with no lines in the hunk starts at the line before it, which shifts the same way.
    hunk.oldStart += window.skippedLines;
    hunk.newStart += window.skippedLines;
  }
  return formatPatch(patch).replace(/^=+\n/, '').trimEnd();
}
