// A CommonJS file required through a V8 code cache under Keel's cache dir (the TypeScript compiler, in use).
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { requireCached } from '../../../src/code/language/compiler-cache.js';

let dir: string;
let file: string;
const cache = () => path.join(dir, 'cache');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keel-compiler-cache-'));
  file = path.join(dir, 'lib.js');
  // What the wrapper must give a CommonJS file: module.exports, require, __filename and __dirname.
  await writeFile(
    file,
    "const { sep } = require('node:path');\nfunction twice(n) { return n * 2; }\nmodule.exports = { twice, file: __filename, dir: __dirname, sep };\n",
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('the first load compiles and saves a cache, which the next load takes; the exports are the same', async () => {
  const first = requireCached(file, cache());
  expect(first.fromCache).toBe(false);
  expect(first.exports).toMatchObject({ file, dir, sep: path.sep });
  expect((first.exports as { twice: (n: number) => number }).twice(21)).toBe(42);
  first.save();
  const written = await readdir(cache());
  expect(written).toHaveLength(1);
  expect(written[0]).toMatch(/^lib-[0-9a-f]{16}\.v8$/);

  const second = requireCached(file, cache());
  expect(second.fromCache).toBe(true);
  expect((second.exports as { twice: (n: number) => number }).twice(4)).toBe(8);
  second.save();
  expect(await readdir(cache())).toEqual(written);
});

test('a changed file gets a cache of its own, and saving it removes the old one', async () => {
  const before = await readdir(cache());
  await utimes(file, new Date(), new Date(Date.now() + 5000));
  const changed = requireCached(file, cache());
  expect(changed.fromCache).toBe(false);
  changed.save();
  const after = await readdir(cache());
  expect(after).toHaveLength(1);
  expect(after).not.toEqual(before);
});

test('without a cache dir it is a plain require, and nothing is written', () => {
  const plain = requireCached(file, undefined);
  expect(plain.fromCache).toBe(false);
  expect((plain.exports as { file: string }).file).toBe(file);
  plain.save();
});
