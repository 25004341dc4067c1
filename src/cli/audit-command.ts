// `keel audit [--tail N] [--json]`: the last lines of the audit log, as written or as JSON objects.
import { open } from 'node:fs/promises';
import { stateDir } from '../config/paths.js';
import { ExitCode } from '../core/errors.js';
import { type AuditEntry, auditLogPath, parseAuditLine } from '../safety/audit.js';
import { sanitize } from '../ui/sanitize.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure } from './report.js';

export interface AuditOptions extends GlobalOptions {
  tail?: number;
  json?: boolean;
}

const CHUNK = 64 * 1024;

/** The last `count` lines of a file, read backwards a chunk at a time (the log only grows); undefined if missing. */
async function lastLines(file: string, count: number): Promise<string[] | undefined> {
  const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return undefined;
  try {
    const { size } = await handle.stat();
    let position = size;
    let buffer = Buffer.alloc(0);
    // One more newline than lines wanted: the line before them is then complete, and ignored.
    while (position > 0 && countNewlines(buffer) <= count) {
      const length = Math.min(CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      buffer = Buffer.concat([chunk, buffer]);
    }
    const lines = buffer.toString('utf8').split('\n').filter(Boolean);
    return lines.slice(-count);
  } finally {
    await handle.close();
  }
}

function countNewlines(buffer: Buffer): number {
  let n = 0;
  for (let i = buffer.indexOf(10); i >= 0; i = buffer.indexOf(10, i + 1)) n++;
  return n;
}

export async function auditCommand(options: AuditOptions): Promise<number> {
  try {
    const file = auditLogPath(stateDir(process.env));
    const lines = await lastLines(file, options.tail ?? 20);
    if (lines === undefined) {
      process.stderr.write(`no audit log yet at ${file}\n`);
      if (options.json) process.stdout.write('[]\n');
      return ExitCode.ok;
    }
    if (options.json) {
      const entries = lines.map(parseAuditLine).filter((e): e is AuditEntry => e !== undefined);
      process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    } else {
      // Escaped when written; sanitized again in case the file was edited by hand.
      for (const line of lines) process.stdout.write(`${sanitize(line)}\n`);
    }
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: Boolean(options.json) });
  }
}
