// vitest's globalSetup: every temp file and directory the tests make (mkdtemp under os.tmpdir(), the processes they
// start) goes under one directory for this run, removed when the run ends. Without it each run left a few thousand
// directories in /tmp: a test that fails or is stopped does not reach its own cleanup, and many never had one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default async function setup(): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), 'keel-test-'));
  // Workers, and the processes they start, inherit it; os.tmpdir() reads it at every call.
  process.env.TMPDIR = root;
  return async () => {
    await rm(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
