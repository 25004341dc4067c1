// Files written inside nested git repositories, held apart and written back by undo: never through a folder
// replaced by a link out of the workspace since, nor through a hard link, never over a folder that now stands where
// the file was.
import { link, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdNested, nestedTargets, restoreNested } from '../../src/checkpoint/nested-files.js';

let base: string;
let root: string;
let store: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'keel-nested-')));
  root = join(base, 'ws');
  store = join(base, 'store');
  await mkdir(join(root, 'lib', '.git'), { recursive: true });
  await writeFile(join(root, 'lib', 'a.txt'), 'A\n');
  await writeFile(join(root, 'top.txt'), 'top\n');
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('nested files', () => {
  it('holds only paths inside nested repositories, by content or absence, and writes them back', async () => {
    const { held, skipped } = await holdNested(root, store, ['lib/a.txt', 'lib/new.txt', 'top.txt'], 1 << 20);
    expect(skipped).toEqual([]);
    expect(held.map((f) => [f.path, f.sha256 !== undefined])).toEqual([
      ['lib/a.txt', true],
      ['lib/new.txt', false],
    ]);
    await writeFile(join(root, 'lib', 'a.txt'), 'changed\n');
    await writeFile(join(root, 'lib', 'new.txt'), 'new\n');
    const changes = await restoreNested(root, store, nestedTargets([{ nested: held }]));
    expect(changes).toEqual([
      { status: 'M', path: 'lib/a.txt' },
      { status: 'D', path: 'lib/new.txt' },
    ]);
    expect(await readFile(join(root, 'lib', 'a.txt'), 'utf8')).toBe('A\n');
  });

  it('names a file over the size limit as not held', async () => {
    const { held, skipped } = await holdNested(root, store, ['lib/a.txt'], 1);
    expect(held).toEqual([]);
    expect(skipped).toEqual([{ path: 'lib/a.txt', reason: 'nested', repo: 'lib/' }]);
  });

  it('writes nothing through a folder replaced by a link out of the workspace, nor over a folder now there', async () => {
    const { held } = await holdNested(root, store, ['lib/a.txt', 'lib/b/c.txt'], 1 << 20);
    const outside = join(base, 'outside');
    await mkdir(outside);
    await rm(join(root, 'lib'), { recursive: true });
    await symlink(outside, join(root, 'lib'));
    expect(await restoreNested(root, store, nestedTargets([{ nested: held }]))).toEqual([]);
    await rm(join(root, 'lib'));
    await mkdir(join(root, 'lib', 'a.txt'), { recursive: true });
    await writeFile(join(root, 'lib', 'a.txt', 'kept.txt'), 'kept\n');
    expect(await restoreNested(root, store, nestedTargets([{ nested: held }]))).toEqual([]);
    expect(await readFile(join(root, 'lib', 'a.txt', 'kept.txt'), 'utf8')).toBe('kept\n');
  });

  it('writes nothing through a file now another name of one outside (a hard link): it is replaced', async () => {
    const { held } = await holdNested(root, store, ['lib/a.txt'], 1 << 20);
    const outside = join(base, 'outside.txt');
    await writeFile(outside, 'outside\n');
    await rm(join(root, 'lib', 'a.txt'));
    await link(outside, join(root, 'lib', 'a.txt'));
    expect(await restoreNested(root, store, nestedTargets([{ nested: held }]))).toEqual([
      { status: 'M', path: 'lib/a.txt' },
    ]);
    expect(await readFile(join(root, 'lib', 'a.txt'), 'utf8')).toBe('A\n');
    expect(await readFile(outside, 'utf8')).toBe('outside\n');
  });

  it('takes for each path the oldest record from the target on', () => {
    const want = nestedTargets([
      { nested: [{ path: 'lib/a.txt', sha256: 'first' }] },
      { nested: [{ path: 'lib/a.txt', sha256: 'second' }, { path: 'lib/b.txt' }] },
    ]);
    expect([...want.values()]).toEqual([{ path: 'lib/a.txt', sha256: 'first' }, { path: 'lib/b.txt' }]);
  });
});
