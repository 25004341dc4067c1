// A range of lines from a file of any size: the lines before it are counted a block at a time (newline-count.ts)
// without keeping them, from the nearest point the run's line index knows (line-index.ts), then only the wanted
// lines are kept, so read_file's offset and limit work on files far over the whole-file read limit.
import { readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { LineIndex, LineIndexes } from './line-index.js';
import { type NewlineCounter, newlineCounter } from './newline-count.js';

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

export interface LineRangeOptions {
  signal?: AbortSignal;
  /** Bytes read at a time (tests make it tiny); the default fits a core's cache, where counting is fastest. */
  chunkSize?: number;
  /** The run's line indexes: the read starts near its line and leaves what it counted for the next read. */
  indexes?: LineIndexes;
}

const CHUNK = 256 * 1024;
const SNIFF = 8192;
/** Bytes counted between two turns of the event loop (where an abort is seen): a few milliseconds' worth. */
const YIELD_BYTES = 32 * 1024 * 1024;

/**
 * Lines [start, start + limit) of the file (start 0-based), stopping before a line that would take what is kept
 * over maxBytes; a first line longer than maxBytes alone is cut there.
 */
export async function readLineRange(
  absolute: string,
  start: number,
  limit: number,
  maxBytes: number,
  options: LineRangeOptions = {},
): Promise<LineRange> {
  const { signal, chunkSize = CHUNK, indexes } = options;
  const file = await open(absolute, 'r');
  let counter: NewlineCounter | undefined;
  try {
    const sniff = Buffer.allocUnsafe(SNIFF);
    const { bytesRead: sniffed } = await file.read(sniff, 0, SNIFF, 0);
    if (sniff.subarray(0, sniffed).includes(0)) return { data: Buffer.alloc(0), count: 0, binary: true };
    counter = newlineCounter();
    const [buffer] = counter.buffers(1, chunkSize) as [Buffer];
    const stat = await file.stat({ bigint: true });
    const index = indexes?.of(absolute, stat, chunkSize);
    const found = await seekLine(file.fd, start, buffer, counter, index, Number(stat.size), signal);
    if ('total' in found) return { data: Buffer.alloc(0), count: 0, binary: false, total: found.total };

    /** Whole lines kept, with their newlines. */
    const done: Buffer[] = [];
    let doneBytes = 0;
    /** The wanted line being read, across chunks. */
    let partial: Buffer[] = [];
    let partialBytes = 0;
    let line = start;
    let count = 0;
    let position = found.offset;
    // The byte before the found offset is a newline (or there is none).
    let lastByte = 10;
    const result = (total?: number): LineRange => {
      const data = Buffer.concat(done);
      const trimmed = data.length > 0 && data[data.length - 1] === 10 ? data.subarray(0, -1) : data;
      return { data: trimmed, count, binary: false, ...(total === undefined ? {} : { total }) };
    };
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await file.read(buffer, 0, chunkSize, position);
      if (bytesRead === 0) {
        // A last line without a newline is a line too.
        const unterminated = lastByte !== 10;
        if (partialBytes > 0) {
          done.push(...partial);
          count += 1;
        }
        return result(unterminated ? line + 1 : line);
      }
      position += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      lastByte = chunk[bytesRead - 1]!;
      let at = 0;
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
    counter?.release();
    await file.close();
  }
}

/**
 * Where line `start` (0-based) begins, or the file's line count when it has fewer lines. Whole blocks are counted
 * and skipped; the block holding the start is searched line by line. Synchronous reads into the counter's own
 * memory (a block is counted while still in the cache), with a turn of the event loop every YIELD_BYTES.
 */
async function seekLine(
  fd: number,
  start: number,
  buffer: Buffer,
  counter: NewlineCounter,
  index: LineIndex | undefined,
  size: number,
  signal: AbortSignal | undefined,
): Promise<{ offset: number } | { total: number }> {
  if (start === 0) return { offset: 0 };
  let { offset: position, line } = index?.before(start) ?? { offset: 0, line: 0 };
  let sinceYield = 0;
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read === 0) {
      // A last line without a newline is a line too.
      const last = Buffer.alloc(1, 10);
      if (position > 0) readSync(fd, last, 0, 1, position - 1);
      return { total: last[0] === 10 ? line : line + 1 };
    }
    const newlines = counter.count(buffer, 0, read);
    if (line + newlines >= start) {
      let at = -1;
      for (let need = start - line; need > 0; need--) at = buffer.indexOf(10, at + 1);
      return { offset: position + at + 1 };
    }
    line += newlines;
    position += read;
    // Points past the size the index is keyed by belong to a later version of the file.
    if (position <= size) index?.record(position, line);
    sinceYield += read;
    if (sinceYield >= YIELD_BYTES) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
  }
}
