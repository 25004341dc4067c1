// A line too long to show whole (minified code, a one-line data file): a window around its first match, with how
// many characters were left out on each side. Cut from the text in memory, or read from the file at rg's offsets
// when rg only said the line was too long to print, so a 2 MB line costs a small read, not a 2 MB pipe.
import { isAscii } from 'node:buffer';
import { promises as fs } from 'node:fs';

/** A line is shown whole up to this many characters (UTF-16 code units, as JavaScript counts them)… */
export const MAX_LINE_CHARS = 400;
/** …and this many UTF-8 bytes: a window never takes more, so its room in the output is known before it is read. */
export const MAX_WINDOW_BYTES = 2 * MAX_LINE_CHARS;
/** Characters kept before the match, when the line goes on far enough after it. */
const LEAD_CHARS = 80;
/** The most the notes around a window add: `[… N characters before] ` and ` [… N characters after]`. */
export const WINDOW_NOTES_BYTES = 80;

/** UTF-8 bytes of one UTF-16 code unit (a surrogate: half of its pair's four). */
const unitBytes = (unit: number): number =>
  unit < 0x80 ? 1 : unit < 0x800 ? 2 : unit >= 0xd800 && unit <= 0xdfff ? 2 : 3;

const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The part of `text` shown for a line: all of it when it fits, else a window from a little before `at` (the match;
 * 0 for a context line) of at most MAX_LINE_CHARS characters and MAX_WINDOW_BYTES bytes, between notes counting
 * what was left out. `before` and `after` are characters of the line outside `text` (when `text` is a slice of it).
 */
export function lineWindow(text: string, at: number, before = 0, after = 0): string {
  if (
    before === 0 &&
    after === 0 &&
    text.length <= MAX_LINE_CHARS &&
    Buffer.byteLength(text) <= MAX_WINDOW_BYTES
  )
    return text;
  let start = Math.min(Math.max(at, 0), text.length);
  let end = start;
  let bytes = 0;
  const fits = (i: number) => bytes + unitBytes(text.charCodeAt(i)) <= MAX_WINDOW_BYTES;
  while (start > 0 && at - start < LEAD_CHARS && fits(start - 1))
    bytes += unitBytes(text.charCodeAt(--start));
  while (end < text.length && end - start < MAX_LINE_CHARS && fits(end))
    bytes += unitBytes(text.charCodeAt(end++));
  // Near the line's end the window takes more of what comes before.
  while (start > 0 && end - start < MAX_LINE_CHARS && fits(start - 1))
    bytes += unitBytes(text.charCodeAt(--start));
  // Never half a surrogate pair at either edge.
  if (start > 0 && start < end && isLowSurrogate(text.charCodeAt(start))) start++;
  if (end < text.length && end > start && isLowSurrogate(text.charCodeAt(end))) end--;
  const left = before + start;
  const right = after + text.length - end;
  return `${left > 0 ? `[… ${left} characters before] ` : ''}${text.slice(start, end)}${right > 0 ? ` [… ${right} characters after]` : ''}`;
}

/** UTF-16 code units of UTF-8 bytes: one per character's first byte, two for a four-byte character. */
function unitsOf(bytes: Uint8Array, from = 0, to = bytes.length): number {
  // Most long lines are ASCII (minified code, data), checked natively at memory speed.
  if (isAscii(bytes.subarray(from, to))) return to - from;
  let units = 0;
  for (let i = from; i < to; i++) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/** Bytes read at a time while counting the characters of a long line's far parts. */
const CHUNK = 1 << 20;

/**
 * The window of the line starting at byte `lineStart` of an open file, around the match at byte `matchAt` (the line
 * start for a context line), exactly as lineWindow would cut it from the whole line. Reads the bytes near the match,
 * and counts the characters of the rest of the line in chunks without keeping them.
 */
export async function fileLineWindow(
  file: fs.FileHandle,
  lineStart: number,
  matchAt: number,
  signal: AbortSignal,
): Promise<string> {
  // The window lies within MAX_WINDOW_BYTES of the match; a few bytes more on each side hold whole characters.
  const sliceStart = Math.max(lineStart, matchAt - MAX_WINDOW_BYTES - 4);
  const near = Buffer.alloc(matchAt - sliceStart + MAX_WINDOW_BYTES + 4);
  const { bytesRead } = await file.read(near, 0, near.length, sliceStart);
  let slice = near.subarray(0, bytesRead);
  const newline = slice.indexOf(10, matchAt - sliceStart);
  const endsHere = newline !== -1 || bytesRead < near.length;
  if (newline !== -1) slice = slice.subarray(0, newline);
  // Whole characters only: one cut at either edge counts among those left out.
  let from = 0;
  if (sliceStart > lineStart) while (from < slice.length && isContinuation(slice[from])) from++;
  let to = slice.length;
  let after = 0;
  if (endsHere) {
    if (slice[to - 1] === 13) to--; // a CRLF line's CR, which rg's lines leave out
  } else {
    to--;
    while (to > from && isContinuation(slice[to])) to--;
    after = unitsOf(slice, to) + (await restOfLine(file, sliceStart + slice.length, slice.at(-1), signal));
  }
  const before = sliceStart > lineStart ? await countUnits(file, lineStart, sliceStart, signal) : 0;
  const at = slice.toString('utf8', from, Math.max(from, matchAt - sliceStart)).length;
  return lineWindow(slice.toString('utf8', from, to), at, before, after);
}

/** The characters of bytes `[from, to)` of the file (within one line). */
async function countUnits(
  file: fs.FileHandle,
  from: number,
  to: number,
  signal: AbortSignal,
): Promise<number> {
  const buffer = Buffer.alloc(Math.min(CHUNK, to - from));
  let units = 0;
  for (let at = from; at < to; ) {
    signal.throwIfAborted();
    const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, to - at), at);
    if (bytesRead === 0) break;
    units += unitsOf(buffer, 0, bytesRead);
    at += bytesRead;
  }
  return units;
}

/**
 * The characters from byte `from` to the end of its line (a newline or the end of the file); `previous` is the byte
 * before `from`, a CR when the line ends in CRLF right there. A CR before the newline is not counted, as rg's lines
 * leave it out.
 */
async function restOfLine(
  file: fs.FileHandle,
  from: number,
  previous: number | undefined,
  signal: AbortSignal,
): Promise<number> {
  const buffer = Buffer.alloc(CHUNK);
  let units = 0;
  let last = previous;
  for (let at = from; ; ) {
    signal.throwIfAborted();
    const { bytesRead } = await file.read(buffer, 0, CHUNK, at);
    if (bytesRead === 0) return units;
    const newline = buffer.subarray(0, bytesRead).indexOf(10);
    if (newline !== -1) {
      const cr = (newline > 0 ? buffer[newline - 1] : last) === 13 ? 1 : 0;
      return units + unitsOf(buffer, 0, newline) - cr;
    }
    units += unitsOf(buffer, 0, bytesRead);
    last = buffer[bytesRead - 1];
    at += bytesRead;
  }
}

/** A line rg would not print, kept in the output: where it starts and its first match are, in bytes of the file. */
export interface LongLine {
  file: string;
  lineStart: number;
  matchAt: number;
  set: (window: string) => void;
}

/** Fills in each long line's window, opening each file once. */
export async function fillLongLines(lines: readonly LongLine[], signal: AbortSignal): Promise<void> {
  const byFile = new Map<string, LongLine[]>();
  for (const line of lines) byFile.set(line.file, [...(byFile.get(line.file) ?? []), line]);
  for (const [file, ofFile] of byFile) {
    let handle: fs.FileHandle | undefined;
    let failure: unknown;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      failure = error;
    }
    for (const line of ofFile) {
      try {
        if (!handle) throw failure;
        line.set(await fileLineWindow(handle, line.lineStart, line.matchAt, signal));
      } catch (error) {
        if (signal.aborted) throw error;
        const why = (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
        line.set(`[a line too long to print, which could not be read again: ${why}]`);
      }
    }
    await handle?.close();
  }
}
