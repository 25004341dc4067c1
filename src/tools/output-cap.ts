// Bounds what the model reads of one tool result. Output over the cap keeps its beginning and end; the whole
// of it is saved to a file under Keel's state dir, and the model is told where and how to read further.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { utf8Prefix, utf8Suffix } from '../core/text.js';
import type { ToolResult } from './tool.js';

/** Of the kept bytes, this share comes from the end: errors and summaries tend to be last. */
const TAIL_SHARE = 0.2;

export async function capOutput(
  result: ToolResult,
  callId: string,
  maxBytes: number,
  save?: (callId: string, text: string) => Promise<string>,
): Promise<ToolResult> {
  const size = Buffer.byteLength(result.output);
  if (size <= maxBytes) return result;
  const saved = save ? await save(callId, result.output).catch(() => undefined) : undefined;
  const tailBytes = Math.floor(maxBytes * TAIL_SHARE);
  const head = utf8Prefix(result.output, maxBytes - tailBytes);
  const tail = utf8Suffix(result.output, tailBytes);
  const omitted = size - Buffer.byteLength(head) - Buffer.byteLength(tail);
  const where = saved
    ? `; the full output is saved in ${saved}: read parts of it with read_file (offset and limit, in lines) or search it with grep`
    : '';
  return {
    ...result,
    output: `${head}\n[... ${omitted} bytes omitted: output truncated to ${maxBytes} of ${size} bytes${where} ...]\n${tail}`,
    truncated: true,
    metadata: { ...result.metadata, original_size: size, ...(saved ? { saved_output: saved } : {}) },
  };
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
