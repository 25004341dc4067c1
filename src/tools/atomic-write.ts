// Atomic file writes shared by the file tools: a temp file beside the target (journaled, so a killed run's leftover
// is removed later), then a rename, so readers see the old file or the new one, never half of it.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { withFsErrors } from './fs-util.js';
import { startTempFile } from './temp-files.js';
import type { ToolContext } from './tool.js';

type WriteContext = Pick<ToolContext, 'workspace' | 'signal' | 'stateDir' | 'files'>;

/**
 * Replaces `absolute` (a path already through the workspace jail) with a file that `fill` writes at the temp path
 * it is given, creating missing parent directories.
 */
export async function replaceFileAtomic(
  absolute: string,
  fill: (temp: string) => Promise<void>,
  ctx: WriteContext,
): Promise<void> {
  const shown = ctx.workspace.relative(absolute);
  const dir = path.dirname(absolute);
  await withFsErrors(ctx.workspace.relative(dir), () => fs.mkdir(dir, { recursive: true }));
  const temp = await startTempFile(absolute, ctx.stateDir);
  try {
    await fill(temp.path);
    await fs.rename(temp.path, absolute);
  } catch (error) {
    await fs.rm(temp.path, { force: true });
    throw new Error(`could not write ${shown}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await temp.done();
  }
}

/** Writes `content` to `absolute` atomically; an overwritten file keeps its permissions (a script stays executable). */
export async function writeFileAtomic(
  absolute: string,
  content: string | Uint8Array,
  ctx: WriteContext,
): Promise<void> {
  const throughEditor = ctx.files?.writeText;
  if (throughEditor && typeof content === 'string') {
    // An editor (keel acp) writes its buffer and the file, so what it shows is what Keel wrote.
    const dir = path.dirname(absolute);
    await withFsErrors(ctx.workspace.relative(dir), () => fs.mkdir(dir, { recursive: true }));
    await throughEditor(absolute, content, ctx.signal);
    return;
  }
  const existing = await fs.stat(absolute).catch(() => undefined);
  await replaceFileAtomic(
    absolute,
    async (temp) => {
      await fs.writeFile(temp, content, { signal: ctx.signal, flag: 'wx' });
      if (existing) await fs.chmod(temp, existing.mode & 0o7777);
    },
    ctx,
  );
}
