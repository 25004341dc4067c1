// spawnGit told to end: a git that does not exit on SIGTERM (git can loop re-raising a SIGTERM that lands while it
// sets up its signal handlers) is killed soon after, and the call rejects with the AbortError instead of hanging.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGit } from '../../src/checkpoint/shadow-git.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keel-spawn-git-'));
  // A `git` that ignores SIGTERM and would run for a minute, writing its pid for the test to look for.
  await writeFile(join(dir, 'git'), `#!/bin/sh\ntrap '' TERM\necho $$ > "${dir}/pid"\nexec sleep 60\n`);
  await chmod(join(dir, 'git'), 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('spawnGit ended by its signal', () => {
  it('kills a git that ignores SIGTERM, and rejects with the AbortError once it is gone', async () => {
    const controller = new AbortController();
    const env = { PATH: `${dir}:${process.env.PATH}` };
    const started = Date.now();
    const run = spawnGit(env, dir, ['update-index', '-q', '--refresh'], undefined, controller.signal);
    // Told to end once it is running (its pid written).
    for (let i = 0; i < 400; i++) {
      const pid = await readFile(join(dir, 'pid'), 'utf8').catch(() => '');
      if (pid) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(10_000);
    const pid = Number((await readFile(join(dir, 'pid'), 'utf8')).trim());
    expect(alive(pid)).toBe(false);
  });
});
