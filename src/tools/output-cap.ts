// Bounds what the model reads of one tool result, and of one turn's results together. Output over the cap keeps its
// beginning and end; the whole of it is saved to a file under Keel's state dir, and the model is told where and how
// to read further.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { utf8Prefix, utf8Suffix } from '../core/text.js';
import type { ToolResult } from './tool.js';

/** Of the kept bytes, this share comes from the end: errors and summaries tend to be last. */
const TAIL_SHARE = 0.2;

type Save = (callId: string, text: string) => Promise<string>;

/** How the model reads on in a saved output. */
const readOn = (saved: string) =>
  `the full output is saved in ${saved}: read parts of it with read_file (offset and limit, in lines) or search it with grep`;

/** `text`'s head and tail within `maxBytes`, the note `why(omitted)` between them. */
function headAndTail(text: string, maxBytes: number, why: (omitted: number) => string): string {
  const tailBytes = Math.floor(maxBytes * TAIL_SHARE);
  const head = utf8Prefix(text, maxBytes - tailBytes);
  const tail = utf8Suffix(text, tailBytes);
  const omitted = Buffer.byteLength(text) - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return `${head}\n[... ${why(omitted)} ...]\n${tail}`;
}

export async function capOutput(
  result: ToolResult,
  callId: string,
  maxBytes: number,
  save?: Save,
): Promise<ToolResult> {
  const size = Buffer.byteLength(result.output);
  if (size <= maxBytes) return result;
  const saved = save ? await save(callId, result.output).catch(() => undefined) : undefined;
  const where = saved ? `; ${readOn(saved)}` : '';
  return {
    ...result,
    output: headAndTail(
      result.output,
      maxBytes,
      (omitted) => `${omitted} bytes omitted: output truncated to ${maxBytes} of ${size} bytes${where}`,
    ),
    truncated: true,
    metadata: { ...result.metadata, original_size: size, ...(saved ? { saved_output: saved } : {}) },
  };
}

/** One result of a turn, as the model would read it. */
export interface TurnResult {
  callId: string;
  content: string;
  /** Where capOutput saved the whole output, and its size, when it cut this result. */
  saved?: { path: string; size: number };
}

/** Room for the note a cut result carries, beside the bytes kept of it. */
const NOTE_ROOM = 400;
/** A result is never cut below this: its start and end still say what it was. */
const MIN_KEPT = 160;

/** The largest level L with sum(min(size, L)) <= budget: sizes under it stay whole. */
function fillLevel(sizes: readonly number[], budget: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let left = budget;
  for (const [i, size] of sorted.entries()) {
    const share = Math.floor(left / (sorted.length - i));
    if (size > share) return share;
    left -= size;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * Bounds what the model reads of one turn's results together: each is within the per-result cap, but a turn may
 * hold any number of them. Over `maxBytes`, the largest are cut first, all to one level (the smaller ones stay
 * whole), each to its head and tail with a note saying where its whole output is: the file capOutput saved, else
 * one saved now. Returns the contents in the same order.
 */
export async function capTurn(
  results: readonly TurnResult[],
  maxBytes: number,
  save?: Save,
): Promise<string[]> {
  const sizes = results.map((result) => Buffer.byteLength(result.content));
  if (sizes.reduce((sum, size) => sum + size, 0) <= maxBytes) return results.map((result) => result.content);
  // Each cut result's note takes room too: settle the level and the number cut together.
  let cut = 0;
  let level = fillLevel(sizes, maxBytes);
  for (let round = 0; round < 4; round++) {
    const count = sizes.filter((size) => size > level).length;
    if (count === cut) break;
    cut = count;
    level = fillLevel(sizes, maxBytes - cut * NOTE_ROOM);
  }
  level = Math.max(MIN_KEPT, level);
  const many = results.length;
  return Promise.all(
    results.map(async (result, i) => {
      const size = sizes[i]!;
      // Within a note of the level: cutting it would save nothing.
      if (size <= level + NOTE_ROOM) return result.content;
      const saved =
        result.saved ??
        (save
          ? await save(result.callId, result.content).then(
              (path) => ({ path, size }),
              () => undefined,
            )
          : undefined);
      // Short: a turn may cut many results, each note paid again on every request.
      const where = saved
        ? `; the whole ${saved.size} bytes are saved in ${saved.path} (read_file with offset/limit, or grep)`
        : '';
      return headAndTail(
        result.content,
        level,
        (omitted) =>
          `${omitted} bytes omitted: this turn's ${many} results were over ${maxBytes} bytes together${where}`,
      );
    }),
  );
}

/** Saves full outputs as `<dir>/<call id>.txt` (0600: output may hold anything the command printed). */
export function createOutputStore(dir: string): (callId: string, text: string) => Promise<string> {
  return async (callId, text) => {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `${callId.replace(/[^\w-]/g, '_') || 'output'}.txt`);
    await fs.writeFile(file, text, { mode: 0o600 });
    return file;
  };
}

/** Removes the saved outputs of runs older than maxAgeMs (each run has one directory under root). */
export async function removeOldOutputs(root: string, maxAgeMs: number, now = Date.now()): Promise<void> {
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(root, entry.name);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (stat && now - stat.mtimeMs > maxAgeMs) await fs.rm(dir, { recursive: true, force: true });
  }
}
