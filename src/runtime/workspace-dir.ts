// The workspace directory a run or command works in, checked; apart from config.ts so commands that only need the
// directory (keel sessions list) do not load the config schema.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';

export async function resolveWorkspaceDir(cwd: string | undefined): Promise<string> {
  const dir = resolve(cwd ?? process.cwd());
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined) {
    throw new UsageError(`workspace directory not found: ${dir}`, {
      hint: 'pass an existing directory with --cwd',
    });
  }
  if (!info.isDirectory()) {
    throw new UsageError(`--cwd is not a directory: ${dir}`, {
      hint: 'pass the directory to work in, not a file',
    });
  }
  return dir;
}
