// What a write_file call is about to overwrite, for the diff the editor shows and asks permission with: the
// file's text read as the tool reads it (the editor's buffer, else the disk, inside the workspace jail), through
// the run's redactor as the call's arguments are. Read when the call is announced, before the tool runs.
import { promises as fs } from 'node:fs';
import type { FileAccess } from '../core/file-access.js';
import type { Run } from '../runtime/assemble.js';
import { editorText, readTextFile } from '../tools/fs-util.js';

/**
 * The text the call replaces; null when it makes a new file; undefined when that cannot be said (not text, too
 * large, outside the workspace), and then the editor is shown no diff.
 */
export async function replacedText(
  run: Pick<Run, 'workspace' | 'redact' | 'loaded'>,
  files: FileAccess | undefined,
  args: unknown,
  signal: AbortSignal,
): Promise<string | null | undefined> {
  const path = typeof args === 'object' && args !== null && 'path' in args ? args.path : undefined;
  if (typeof path !== 'string') return undefined;
  try {
    const absolute = await run.workspace.resolve(path);
    const limits = { maxFileReadSize: run.loaded.config.agent.tools.max_file_read_size };
    const buffer = await editorText({ files, signal, limits }, absolute);
    if (buffer !== undefined) return run.redact(buffer);
    const missing = await fs.stat(absolute).then(
      () => false,
      (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
    );
    if (missing) return null;
    return run.redact(await readTextFile(absolute, path, limits.maxFileReadSize));
  } catch {
    return undefined;
  }
}
