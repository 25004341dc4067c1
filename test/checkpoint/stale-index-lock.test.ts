// A shadow index.lock that no process holds (its git was killed with SIGKILL) is removed before the next stage, so
// checkpoints go on; one a live process holds open is left to it, and the checkpoint is refused as before.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCheckpointer, openCheckpointStore } from '../../src/checkpoint/checkpointer.js';
import { checkpointDir } from '../../src/checkpoint/checkpoints.js';
import { clearStaleIndexLock, heldOpen } from '../../src/checkpoint/stale-index-lock.js';
import { useCleanup } from '../support/cleanup.js';
import { shellGit } from '../support/small-shell.js';

const track = useCleanup();

async function tempDir(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  track(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function store() {
  const root = await tempDir('keel-stale-lock-ws-');
  const stateDir = await tempDir('keel-stale-lock-state-');
  await fs.writeFile(join(root, 'a.txt'), 'a\n');
  const options = { root, stateDir, env: process.env, startGit: shellGit };
  let n = 0;
  const take = async () => {
    const checkpointer = createCheckpointer({ ...options, warn: () => {} });
    checkpointer.startRun(`run-${n}`);
    try {
      await checkpointer.take({
        callId: `c${n++}`,
        tool: 'write_file',
        preview: { reads: [], writes: [], summary: 'w' },
      });
    } finally {
      await checkpointer.drained();
      checkpointer.close();
    }
  };
  await take();
  const lock = join(checkpointDir(stateDir, root), 'git', 'index.lock');
  const count = async () => (await (await openCheckpointStore(options)).list()).length;
  return { root, take, lock, count };
}

describe('a stale index.lock', () => {
  it('left by a killed git is removed, and the next checkpoint is taken', async () => {
    const t = await store();
    await fs.writeFile(t.lock, '');
    await fs.writeFile(join(t.root, 'a.txt'), 'changed\n');
    await t.take();
    await expect(fs.stat(t.lock)).rejects.toThrow();
    expect(await t.count()).toBe(2);
  });

  it('held open by a live process is left to it: the checkpoint is refused, nothing removed', async () => {
    const t = await store();
    const holder = spawn('sh', ['-c', 'exec 3>"$0"; echo ready; exec sleep 30', t.lock], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    track(async () => holder.kill('SIGKILL'));
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    expect(await heldOpen(t.lock)).toBe(true);
    await fs.writeFile(join(t.root, 'a.txt'), 'changed\n');
    await expect(t.take()).rejects.toThrow(/index\.lock/);
    expect((await fs.stat(t.lock)).isFile()).toBe(true);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('close', resolve));
    expect(await heldOpen(t.lock)).toBe(false);
  });

  it('is judged by its age where /proc cannot tell', async () => {
    const dir = await tempDir('keel-stale-lock-age-');
    const lock = join(dir, 'index.lock');
    await fs.writeFile(lock, '');
    expect(await heldOpen(lock, join(dir, 'no-proc'))).toBeUndefined();
    expect(await heldOpen(lock)).toBe(false);
    expect(await clearStaleIndexLock(dir)).toBe(true);
  });
});
