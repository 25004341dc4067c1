// The map cache: a warm map answers from it, and every change since (a file edited, added in an old or a new
// directory, removed, or hidden by a .gitignore edit) shows in the next map; its file format reads back what it wrote.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cacheWrites } from '../../src/code/cache-writes.js';
import { cacheFileFor, MAX_FILE_BYTES } from '../../src/code/code-index.js';
import { loadRepoMap } from '../../src/code/map-cache.js';
import { cachedListing } from '../../src/code/map-listing.js';
import { decodeMapCache, encodeMapCache, type MapCache, readMapCacheFile } from '../../src/code/map-store.js';
import { tsLibrary } from './rank-fixtures.js';

let dir: string;
let root: string;
let cacheDir: string;
const BIG = 50_000;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keel-map-cache-'));
  root = path.join(dir, 'ts');
  cacheDir = path.join(dir, 'cache');
  for (const [file, content] of Object.entries(tsLibrary)) {
    await mkdir(path.join(root, path.dirname(file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
  await writeFile(path.join(root, '.gitignore'), 'coverage/\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const map = (mentions = '', quickAbove?: number) =>
  loadRepoMap(root, { cacheDir, ...(quickAbove === undefined ? {} : { quickAbove }) }, BIG, mentions);

describe('every change since the cache shows in the next map', () => {
  test('a warm map answers from the cache', async () => {
    await map();
    const warm = await map();
    expect(warm.parsed).toBe(0);
    expect(warm.map.text).toContain('source/utils/delay.ts:');
  });

  test('a file added to a directory the map already knows', async () => {
    await writeFile(path.join(root, 'source/utils/retry.ts'), 'export function retryLater() {}\n');
    expect((await map()).map.text).toContain('retryLater');
  });

  test('a file in a new directory', async () => {
    await mkdir(path.join(root, 'source/extra/deep'), { recursive: true });
    await writeFile(path.join(root, 'source/extra/deep/more.ts'), 'export class DeepMore {}\n');
    expect((await map()).map.text).toContain('DeepMore');
  });

  test('a file removed', async () => {
    await rm(path.join(root, 'source/utils/retry.ts'));
    expect((await map()).map.text).not.toContain('retryLater');
  });

  test('a file hidden by an edit of a .gitignore that was there already', async () => {
    await writeFile(path.join(root, '.gitignore'), 'coverage/\nsource/extra/\n');
    expect((await map()).map.text).not.toContain('DeepMore');
  });

  test('a mention on a warm map ranks as it does without a cache', async () => {
    await map();
    const mentions = 'look at delay.ts and mergeOptions';
    const warm = await map(mentions);
    const uncached = await loadRepoMap(root, {}, 2000, mentions);
    expect((await map(mentions)).parsed).toBe(0);
    expect((await loadRepoMap(root, { cacheDir }, 2000, mentions)).map.text).toBe(uncached.map.text);
    const at = (file: string) => warm.map.text.indexOf(`${file}:`);
    expect(at('source/utils/delay.ts')).toBeLessThan(at('source/index.ts'));
    expect(at('source/utils/merge.ts')).toBeLessThan(at('source/index.ts'));
  });

  test('files parsed for a map ranked from a scan are not parsed again by the next', async () => {
    await rm(cacheDir, { recursive: true, force: true });
    const first = await map('', 0);
    expect(first.scanned).toBeGreaterThan(0);
    expect(first.parsed).toBeGreaterThan(0);
    const warm = await map();
    expect(warm.parsed).toBe(0);
    expect(warm.map.text).toBe(first.map.text);
  });
});

describe('a source file too large to rank', () => {
  test('is kept in the cache as listed, so a warm map finds its listing unchanged and does not walk the tree', async () => {
    const big = `export const data = [\n${'  1,\n'.repeat(MAX_FILE_BYTES / 4)}];\n`;
    await writeFile(path.join(root, 'source/generated-data.ts'), big);
    await map();
    await cacheWrites();
    const cache = readMapCacheFile(cacheFileFor(cacheDir, root, 'map'))!;
    expect(cache.input.paths).not.toContain('source/generated-data.ts');
    expect(cache.unranked).toEqual(['source/generated-data.ts']);
    const listed = [...cache.input.paths, ...cache.unranked].sort();
    const kept = cachedListing(root, listed, cache.dirs, cache.dirTimes, cache.ignores);
    expect(kept?.fingerprint).toBe(cache.fingerprint);
    await rm(path.join(root, 'source/generated-data.ts'));
  });
});

describe('map cache file', () => {
  const cache: MapCache = {
    fingerprint: 'abc',
    input: {
      paths: ['a.ts', 'b/c.py'],
      entryPoints: ['a.ts'],
      packageEntryPoints: [],
      sizes: Int32Array.from([2, 1]),
      support: Uint8Array.from([0, 1]),
      graph: {
        offsets: Int32Array.from([0, 1, 2]),
        targets: Int32Array.from([1, 2]),
        weights: Float64Array.from([1, 1]),
        nameOffsets: Int32Array.from([0, 1]),
        definers: Int32Array.from([0]),
        names: ['helper'],
      },
    },
    quick: Uint8Array.from([1, 0]),
    base: { authority: Float64Array.from([0.6, 0.4]), hub: Float64Array.from([0.3, 0.7]) },
    unranked: ['big.ts'],
    dirs: ['.', 'b'],
    dirTimes: Float64Array.from([1.5, 2.5]),
    ignores: [],
    definitionsFile: 'x.defs',
    definitionOffsets: Float64Array.from([0, 10, 10]),
  };

  test('reads back what it wrote', () => {
    expect(decodeMapCache(encodeMapCache(cache))).toEqual(cache);
  });

  test.each([
    ['cut short', (b: Buffer) => b.subarray(0, b.length - 8)],
    ['of another format', (b: Buffer) => Buffer.concat([Buffer.from('{"v"'), b.subarray(4)])],
    [
      'with a damaged header',
      (b: Buffer) => Buffer.concat([b.subarray(0, 9), Buffer.from('!'), b.subarray(10)]),
    ],
  ])('a file %s is not a cache', (_, damage) => {
    expect(decodeMapCache(damage(encodeMapCache(cache)))).toBeUndefined();
  });
});
