// A fresh copy of a fixture workspace (`evals/fixtures/<name>/`) in a temp directory, one per eval case, so no
// case sees another's changes; beside it a state directory of its own.
import { cp, mkdir, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalFileError } from './eval-files.js';

export interface FixtureCopy {
  /** The workspace: the fixture's files (empty without a fixture). */
  root: string;
  stateDir: string;
  dispose(): Promise<void>;
}

export async function copyFixture(fixturesDir: string, fixture: string | undefined): Promise<FixtureCopy> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'keel-eval-')));
  const root = join(base, 'ws');
  const stateDir = join(base, 'state');
  const dispose = () => rm(base, { recursive: true, force: true });
  try {
    if (fixture === undefined) await mkdir(root);
    else {
      const source = join(fixturesDir, fixture);
      if (!(await stat(source).catch(() => undefined))?.isDirectory()) {
        throw new EvalFileError(`fixture not found: ${source}`);
      }
      await cp(source, root, { recursive: true, verbatimSymlinks: true });
    }
    await mkdir(stateDir);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { root, stateDir, dispose };
}
