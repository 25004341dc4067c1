// Background work yields to foreground work: the first checkpoint's fill pauses between jobs while a read-only tool
// call runs, and goes on after it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runFill } from '../../src/checkpoint/fill-workers.js';
import { inForeground, whenIdle } from '../../src/core/foreground.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

it('whenIdle resolves at once when nothing runs, after the last foreground work otherwise, and rejects on abort', async () => {
  await whenIdle();
  let release = () => {};
  const work = inForeground(() => new Promise<void>((resolve) => (release = resolve)));
  const nested = inForeground(async () => {});
  let idle = false;
  const waited = whenIdle().then(() => (idle = true));
  const stop = new AbortController();
  const aborted = whenIdle(stop.signal).catch((error: unknown) => error);
  await nested;
  await tick();
  expect(idle).toBe(false);
  stop.abort(new Error('given up'));
  expect(await aborted).toMatchObject({ message: 'given up' });
  release();
  await work;
  await waited;
  expect(idle).toBe(true);
});

it('a fill starts no job while a foreground call runs', async () => {
  const root = await mkdtemp(join(tmpdir(), 'keel-foreground-'));
  try {
    const paths = ['a.txt', 'b.txt', 'c.txt'];
    for (const p of paths) await writeFile(join(root, p), `${p}\n`);
    let release = () => {};
    const call = inForeground(() => new Promise<void>((resolve) => (release = resolve)));
    let taken = 0;
    const take = (result: { count: number }) => {
      taken += result.count;
    };
    const fill = runFill({ root, maxFileBytes: 1 << 20, level: 1 }, paths, take, { workers: 1 });
    await tick();
    expect(taken).toBe(0);
    release();
    await call;
    await fill;
    expect(taken).toBe(3);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
