// A small file of Keel's own (a cache, a record, a config file) replaced whole: written beside itself under a name of
// this process's and renamed over it, so a reader — another run, another process — sees the old file or the new one,
// never part of either, and a failed write leaves no temp file behind. The file tools write through
// tools/atomic-write.ts instead (inside the jail, temp files in the state directory); credentials add an fsync.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface ReplaceOptions {
  /** The file's mode when it is made (default 0o600: Keel's files are the user's alone). */
  mode?: number;
  /** Makes the directory first (with its parents), with this mode. */
  dirMode?: number;
}

/**
 * A name beside `file` for this process's write of it: `<file>.<pid>-<random hex>.<suffix>`. The pid lets a later
 * run remove what a writer that is gone left (code/cache-writes.ts `removeLeftovers`). Math.random, not node:crypto:
 * some of these writes are on the way to the first model request, which loads no crypto.
 */
export function ownName(file: string, suffix: string): string {
  const random = Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0');
  return `${file}.${process.pid}-${random}.${suffix}`;
}

/** Replaces `file` with `data` (text is UTF-8; an iterable of strings is written piece by piece); throws as fs does. */
export async function replaceFile(
  file: string,
  data: string | Uint8Array | Iterable<string>,
  options: ReplaceOptions = {},
): Promise<void> {
  if (options.dirMode !== undefined) await mkdir(dirname(file), { recursive: true, mode: options.dirMode });
  const temp = ownName(file, 'tmp');
  try {
    await writeFile(temp, data, { mode: options.mode ?? 0o600 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}
