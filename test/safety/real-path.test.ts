// The one path resolver: paths resolved as the kernel resolves them (links before `..`), checked against the
// kernel itself (fs.realpath) where the path exists, and against `realpath -m` rules where it does not.
import { promises as fs, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kernelPath } from '../../src/safety/real-path.js';
import { openWorkspace, PathEscapeError } from '../../src/safety/workspace.js';

let base: string;
let root: string;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-realpath-')));
  root = path.join(base, 'proj');
  await fs.mkdir(path.join(root, 'packages', 'lib', 'src'), { recursive: true });
  await fs.mkdir(path.join(root, 'node_modules', '@acme'), { recursive: true });
  await fs.mkdir(path.join(base, '.ssh'));
  await fs.writeFile(path.join(base, '.ssh', 'id_rsa'), 'canary');
  await fs.writeFile(path.join(root, 'a.txt'), 'a');
  await fs.symlink('.', path.join(root, 'here'));
  await fs.symlink('../../packages/lib', path.join(root, 'node_modules', '@acme', 'lib'));
  await fs.symlink('missing/deeper', path.join(root, 'dangling'));
  await fs.symlink('../outside-new', path.join(root, 'dangling-out'));
  await fs.symlink('loop-b', path.join(root, 'loop-a'));
  await fs.symlink('loop-a', path.join(root, 'loop-b'));
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const fail = (detail: string): never => {
  throw new Error(detail);
};
const resolve = async (p: string) => (await kernelPath(root, p, fail)).real;

describe('kernelPath', () => {
  test.each([
    ['here/../.ssh/id_rsa', '.ssh/id_rsa'],
    ['here/here/../.ssh', '.ssh'],
    ['node_modules/@acme/lib/../../../.ssh/id_rsa', '.ssh/id_rsa'],
    ['node_modules/@acme/lib/src/../../../a.txt', 'proj/a.txt'],
    ['packages/lib/../../a.txt', 'proj/a.txt'],
    ['./here/a.txt', 'proj/a.txt'],
  ])('%s resolves as the kernel does, to <base>/%s', async (requested, expected) => {
    const real = await resolve(requested);
    expect(real).toBe(path.join(base, expected));
    // The kernel agrees wherever the path exists.
    expect(real).toBe(realpathSync.native(`${root}/${requested}`));
  });

  test.each([
    ['new/file.txt', 'proj/new/file.txt'],
    ['new/../b.txt', 'proj/b.txt'],
    ['here/../new.txt', 'new.txt'],
    ['node_modules/@acme/lib/new/../../x', 'proj/packages/x'],
  ])(
    'a missing part of %s is appended lexically, its .. folding only missing names',
    async (requested, expected) => {
      expect(await resolve(requested)).toBe(path.join(base, expected));
    },
  );

  test('a dangling link is followed as far as it goes and reported', async () => {
    expect(await kernelPath(root, 'dangling-out/x', fail)).toEqual({
      real: path.join(base, 'outside-new', 'x'),
      dangling: true,
    });
    expect(await kernelPath(root, 'dangling', fail)).toEqual({
      real: path.join(root, 'missing', 'deeper'),
      dangling: true,
    });
    expect((await kernelPath(root, 'here/new', fail)).dangling).toBe(false);
  });

  test('a link loop fails', async () => {
    await expect(kernelPath(root, 'loop-a/x', fail)).rejects.toThrow('symbolic link loop');
  });

  test('an absolute path ignores the directory it is resolved from', async () => {
    expect(await kernelPath('/nonexistent', `${root}/here/../.ssh`, fail)).toEqual({
      real: path.join(base, '.ssh'),
      dangling: false,
    });
  });
});

describe('the workspace jail shares the resolver', () => {
  test.each(['here/../.ssh/id_rsa', 'node_modules/@acme/lib/../../../.ssh/id_rsa', 'here/../proj2/x'])(
    'refuses %s (a link before ..)',
    async (requested) => {
      const ws = await openWorkspace(root);
      await expect(ws.resolve(requested)).rejects.toBeInstanceOf(PathEscapeError);
    },
  );

  test('allows a link whose .. lands back inside', async () => {
    const ws = await openWorkspace(root);
    expect(await ws.resolve('node_modules/@acme/lib/../../a.txt')).toBe(path.join(root, 'a.txt'));
  });
});
