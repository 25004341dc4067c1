import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { replaceFile } from '../../src/core/replace-file.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keel-replace-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('replaceFile', () => {
  test('replaces the file whole, the user alone may read a new one, and the directory is made with dirMode', async () => {
    const file = path.join(dir, 'made', 'inner', 'kept.json');
    await replaceFile(file, 'one', { dirMode: 0o700 });
    await replaceFile(file, 'two');
    expect(await readFile(file, 'utf8')).toBe('two');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await readdir(path.dirname(file))).toEqual(['kept.json']);
  });

  test('writes an iterable of strings piece by piece', async () => {
    const file = path.join(dir, 'pieces.json');
    await replaceFile(file, ['{"a":', '1', '}']);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ a: 1 });
  });

  test('concurrent writes in one process each use a temp file of their own: all succeed, one whole text stays', async () => {
    const file = path.join(dir, 'busy.json');
    const texts = Array.from({ length: 20 }, (_, i) => `${'x'.repeat(10_000)}${i}`);
    await Promise.all(texts.map((text) => replaceFile(file, text)));
    expect(texts).toContain(await readFile(file, 'utf8'));
    expect((await readdir(dir)).filter((name) => name.startsWith('busy.json'))).toEqual(['busy.json']);
  });

  test('a failed rename throws and leaves no temp file', async () => {
    const target = path.join(dir, 'a-directory');
    await mkdir(path.join(target, 'inside'), { recursive: true });
    await expect(replaceFile(target, 'text')).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect((await readdir(dir)).filter((name) => name.startsWith('a-directory'))).toEqual(['a-directory']);
  });

  test('a directory that cannot be made throws, as fs does', async () => {
    const blocker = path.join(dir, 'plain-file');
    await replaceFile(blocker, 'x');
    await expect(replaceFile(path.join(blocker, 'sub', 'f'), 'y', { dirMode: 0o700 })).rejects.toThrow(
      /ENOTDIR|EEXIST/,
    );
  });
});
