import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findOnPath, keepAnswer, keptAnswer, probeKey } from '../../src/exec/probe-cache.js';
import { probeBubblewrap } from '../../src/exec/sandbox-choice.js';

let base: string;
let bin: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'keel-probe-cache-'));
  bin = join(base, 'bin');
  await mkdir(bin);
  // A stand-in bwrap that fails as a kernel without user namespaces would, and says it ran.
  await writeFile(
    join(bin, 'bwrap'),
    `#!/bin/sh\necho ran >> "${join(base, 'runs')}"\necho "bwrap: no namespaces" >&2\nexit 1\n`,
  );
  await chmod(join(bin, 'bwrap'), 0o755);
  env = { PATH: bin, HOME: base, XDG_CACHE_HOME: join(base, 'cache') };
});

afterAll(() => rm(base, { recursive: true, force: true }));

const runs = async () =>
  (await readFile(join(base, 'runs'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

describe('the sandbox probe kept between runs', () => {
  test('findOnPath finds an executable file and nothing else', async () => {
    expect(findOnPath('bwrap', `/nonexistent:${bin}`)).toBe(join(bin, 'bwrap'));
    expect(findOnPath('bwrap', '/nonexistent')).toBeUndefined();
    expect(findOnPath('bin', base)).toBeUndefined(); // a directory is no program
  });

  test('the key changes with the network setting and with the bwrap file', async () => {
    const key = probeKey(join(bin, 'bwrap'), false);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(probeKey(join(bin, 'bwrap'), false)).toBe(key);
    expect(probeKey(join(bin, 'bwrap'), true)).not.toBe(key);
    const other = join(base, 'other-bwrap');
    await writeFile(other, '#!/bin/sh\n');
    expect(probeKey(other, false)).not.toBe(key);
  });

  test('an answer kept for a key is read back, "works" included', async () => {
    const cacheEnv = { HOME: base, XDG_CACHE_HOME: join(base, 'kept') };
    expect(keptAnswer(cacheEnv, 'k1')).toBeUndefined();
    await keepAnswer(cacheEnv, 'k1', 'broken here');
    await keepAnswer(cacheEnv, 'k2', undefined);
    expect(keptAnswer(cacheEnv, 'k1')).toEqual({ answer: 'broken here' });
    expect(keptAnswer(cacheEnv, 'k2')).toEqual({ answer: undefined });
  });

  test('a second process reuses the answer without running bwrap; keel doctor runs it again', async () => {
    const first = await probeBubblewrap(false, env);
    expect(first).toMatch(/^bubblewrap cannot create its namespaces here \(bwrap: no namespaces\)/);
    expect(await runs()).toBe(1);
    // The in-process memo is keyed by PATH: a PATH spelled differently is a new lookup, as in a new process.
    expect(await probeBubblewrap(false, { ...env, PATH: `${bin}:` })).toBe(first);
    expect(await runs()).toBe(1);
    expect(await probeBubblewrap(false, env, true)).toBe(first);
    expect(await runs()).toBe(2);
  });

  test('bwrap missing from PATH is said without spawning anything', async () => {
    expect(await probeBubblewrap(false, { ...env, PATH: '/nonexistent' })).toBe(
      'bubblewrap (bwrap) is not installed or not on PATH',
    );
  });
});
