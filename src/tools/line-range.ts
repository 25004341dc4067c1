// A range of lines from a file of any size: the lines before it are counted a block at a time (newline-count.ts)
// without keeping them, from the nearest point the run's line index knows (line-index.ts), then only the wanted
// lines are kept, so read_file's offset and limit work on files far over the whole-file read limit.
import { type FileHandle, open } from 'node:fs/promises';
import type { LineIndex, LineIndexes } from './line-index.js';
import { type NewlineCounter, newlineCounter } from './newline-count.js';

export interface LineRange {
  /** The wanted lines, newline-separated (no newline after the last). */
  data: Buffer;
  /** How many lines `data` holds (a single line cut at the byte cap counts as one). */
  count: number;
  /** The one line in `data` was longer than the byte cap: only its start is there, ending on a whole character. */
  cut?: boolean;
  /** The file's line count, when the read reached its end. */
  total?: number;
  /** Whether the first 8 KB hold a NUL byte (a binary file): nothing else is read. */
  binary: boolean;
}

export interface LineRangeOptions {
  signal?: AbortSignal;
  /** Bytes read at a time (tests make it tiny). */
  chunkSize?: number;
  /** The run's line indexes: the read starts near its line and leaves what it counted for the next read. */
  indexes?: LineIndexes;
}

const CHUNK = 2 * 1024 * 1024;
const SNIFF = 8192;
/**
 * Reads under way at once while lines are skipped: the thread pool copies the next blocks from the page cache while
 * this thread counts one (a 500 MB file in about 0.6× the time of reading it a block after another).
 */
const READS_AHEAD = 4;

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
    const stat = await file.stat({ bigint: true });
    const size = Number(stat.size);
    const buffers = counter.buffers(start > 0 && size > chunkSize ? READS_AHEAD : 1, chunkSize);
    const buffer = buffers[0]!;
    const index = indexes?.of(absolute, stat, chunkSize);
    const found = await seekLine(file, start, buffers, counter, index, size, signal);
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
            // One line longer than the cap: its start is better than nothing, cut before a character, not inside
            // one (a line of non-ASCII text would otherwise read as invalid UTF-8).
            const line = Buffer.concat([...partial, chunk.subarray(at, end)]);
            let cut = maxBytes;
            while (cut > 0 && (line[cut]! & 0xc0) === 0x80) cut--;
            return { data: line.subarray(0, cut), count: 1, binary: false, cut: true };
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
 * and skipped; the block holding the start is searched line by line. Up to one read per buffer is under way (the
 * window grows from one, so a start in the first block costs one read); blocks are counted in file order.
 */
async function seekLine(
  file: FileHandle,
  start: number,
  buffers: readonly Buffer[],
  counter: NewlineCounter,
  index: LineIndex | undefined,
  size: number,
  signal: AbortSignal | undefined,
): Promise<{ offset: number } | { total: number }> {
  if (start === 0) return { offset: 0 };
  let { offset: position, line } = index?.before(start) ?? { offset: 0, line: 0 };
  const block = buffers[0]!.length;
  /** Reads under way, oldest first; each fills its own buffer at `position` + its place × block. */
  const pending: { buffer: Buffer; read: Promise<number> }[] = [];
  let issued = 0;
  const issue = () => {
    const buffer = buffers[issued % buffers.length]!;
    const read = file.read(buffer, 0, block, position + pending.length * block).then((r) => r.bytesRead);
    read.catch(() => {});
    pending.push({ buffer, read });
    issued += 1;
  };
  try {
    issue();
    for (;;) {
      signal?.throwIfAborted();
      const { buffer, read: reading } = pending.shift()!;
      const read = await reading;
      if (read === 0) {
        // A last line without a newline is a line too.
        const last = Buffer.alloc(1, 10);
        if (position > 0) await file.read(last, 0, 1, position - 1);
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
      if (read < block) {
        // Short of a block (the end, or a file that changed under the read): the reads ahead assumed a full one.
        await Promise.allSettled(pending.splice(0).map((p) => p.read));
      }
      // Two reads for each one done until every buffer has one: a start far on is reached at full speed.
      for (let more = 0; more < 2 && pending.length < buffers.length; more++) issue();
    }
  } finally {
    // No read may still be filling a buffer the caller goes on to use.
    await Promise.allSettled(pending.map((p) => p.read));
  }
}
