// A range of lines from a file of any size, read in chunks: only the bytes up to the last line wanted are read, and
// only the wanted lines are kept, so read_file's offset and limit work on files far over the whole-file read limit.
import { open } from 'node:fs/promises';

export interface LineRange {
  /** The wanted lines, newline-separated (no newline after the last). */
  data: Buffer;
  /** How many lines `data` holds (a single line cut at the byte cap counts as one). */
  count: number;
  /** The file's line count, when the read reached its end. */
  total?: number;
  /** Whether the first 8 KB hold a NUL byte (a binary file): nothing else is read. */
  binary: boolean;
}

const CHUNK = 4 * 1024 * 1024;
const SNIFF = 8192;

/**
 * Lines [start, start + limit) of the file (start 0-based), stopping before a line that would take what is kept
 * over maxBytes; a first line longer than maxBytes alone is cut there.
 */
export async function readLineRange(
  absolute: string,
  start: number,
  limit: number,
  maxBytes: number,
  signal?: AbortSignal,
  chunkSize = CHUNK,
): Promise<LineRange> {
  const file = await open(absolute, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkSize);
    /** Whole lines kept, with their newlines. */
    const done: Buffer[] = [];
    let doneBytes = 0;
    /** The wanted line being read, across chunks. */
    let partial: Buffer[] = [];
    let partialBytes = 0;
    let line = 0;
    let count = 0;
    let first = true;
    let lastByte = 10;
    const result = (total?: number): LineRange => {
      const data = Buffer.concat(done);
      const trimmed = data.length > 0 && data[data.length - 1] === 10 ? data.subarray(0, -1) : data;
      return { data: trimmed, count, binary: false, ...(total === undefined ? {} : { total }) };
    };
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await file.read(buffer, 0, chunkSize, null);
      if (first) {
        first = false;
        if (buffer.subarray(0, Math.min(bytesRead, SNIFF)).includes(0))
          return { data: Buffer.alloc(0), count: 0, binary: true };
      }
      if (bytesRead === 0) {
        // A last line without a newline is a line too.
        const unterminated = lastByte !== 10;
        if (partialBytes > 0) {
          done.push(...partial);
          count += 1;
        }
        return result(unterminated ? line + 1 : line);
      }
      const chunk = buffer.subarray(0, bytesRead);
      lastByte = chunk[bytesRead - 1]!;
      let at = 0;
      while (line < start) {
        const newline = chunk.indexOf(10, at);
        if (newline === -1) break;
        line += 1;
        at = newline + 1;
      }
      if (line < start) continue;
      while (at < bytesRead) {
        const newline = chunk.indexOf(10, at);
        const end = newline === -1 ? bytesRead : newline + 1;
        if (doneBytes + partialBytes + (end - at) > maxBytes) {
          if (count === 0) {
            // One line longer than the cap: its start is better than nothing.
            const piece = Buffer.concat([...partial, chunk.subarray(at, end)]).subarray(0, maxBytes);
            return { data: piece, count: 1, binary: false };
          }
          return result();
        }
        partial.push(Buffer.from(chunk.subarray(at, end)));
        partialBytes += end - at;
        at = end;
        if (newline === -1) break;
        done.push(...partial);
        doneBytes += partialBytes;
        partial = [];
        partialBytes = 0;
        line += 1;
        count += 1;
        if (count === limit) return result();
      }
    }
  } finally {
    await file.close();
  }
}
