// Writes several files as one change: every new content goes to a journaled temp file first, then each is renamed
// over its target; if any step fails, the files already replaced get their old content back (all or none).
import { promises as fs } from 'node:fs';
import { startTempFile, type TempFile } from './temp-files.js';
import type { ToolContext } from './tool.js';

export interface FileChange {
  absolute: string;
  /** The content before (undefined: a new file), restored if the change fails part way. */
  before: string | undefined;
  after: string;
}

export async function writeFilesAtomic(changes: readonly FileChange[], ctx: ToolContext): Promise<void> {
  const temps: TempFile[] = [];
  try {
    for (const change of changes) {
      const temp = await startTempFile(change.absolute, ctx.stateDir);
      temps.push(temp);
      await fs.writeFile(temp.path, change.after, { signal: ctx.signal, flag: 'wx' });
      // An overwritten file keeps its permissions.
      const mode = await fs.stat(change.absolute).then(
        (s) => s.mode & 0o7777,
        () => undefined,
      );
      if (mode !== undefined) await fs.chmod(temp.path, mode);
    }
    const done: FileChange[] = [];
    try {
      for (const [i, change] of changes.entries()) {
        await fs.rename(temps[i]!.path, change.absolute);
        done.push(change);
      }
    } catch (error) {
      for (const change of done.reverse()) {
        if (change.before === undefined) await fs.rm(change.absolute, { force: true }).catch(() => {});
        else await fs.writeFile(change.absolute, change.before).catch(() => {});
      }
      throw error;
    }
  } finally {
    for (const temp of temps) {
      await fs.rm(temp.path, { force: true }).catch(() => {});
      await temp.done();
    }
  }
}
