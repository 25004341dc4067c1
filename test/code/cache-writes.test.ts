// The code caches' writes: what a writer that is gone left (a `keel run` ended mid-write) is removed by the next
// write, never what a live process is writing nor the definitions file the current cache names.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeLeftovers } from '../../src/code/cache-writes.js';
import { writeCache } from '../../src/code/code-index.js';
import { ownName } from '../../src/core/replace-file.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keel-cache-writes-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A pid no process has (above Linux's largest). */
const GONE = 99_999_999;
const LIVE = process.ppid;

describe('removeLeftovers', () => {
  test.each([
    ['a temp file of a writer that is gone', `abc.json.${GONE}-1a2b3c4d.tmp`, false],
    ['a definitions file of a writer that is gone', `abc.${GONE}-1a2b3c4d.defs`, false],
    ['a definitions file named the older way', 'abc-0123456789ab-1a2b3c4d.defs', false],
    ["a live process's temp file", `abc.json.${LIVE}-1a2b3c4d.tmp`, true],
    ["this process's own temp file", `abc.json.${process.pid}-1a2b3c4d.tmp`, true],
    ['the definitions file the cache names', `abc.${GONE}-feedbeef.defs`, true],
    ['the cache itself', 'abc.json', true],
    ["another repository's leftover", `xyz.json.${GONE}-1a2b3c4d.tmp`, true],
  ])('%s: kept %s', async (_, name, kept) => {
    const folder = await mkdtemp(path.join(dir, 'case-'));
    await writeFile(path.join(folder, name), 'x');
    await removeLeftovers(path.join(folder, 'abc.json'), `abc.${GONE}-feedbeef.defs`);
    expect(await readdir(folder)).toEqual(kept ? [name] : []);
  });

  test("a write names its temp file for this process and removes a gone writer's", async () => {
    const folder = await mkdtemp(path.join(dir, 'write-'));
    const file = path.join(folder, 'abc.json');
    expect(path.basename(ownName(file, 'tmp'))).toMatch(
      new RegExp(`^abc\\.json\\.${process.pid}-[0-9a-f]{8}\\.tmp$`),
    );
    await writeFile(path.join(folder, `abc.json.${GONE}-1a2b3c4d.tmp`), 'half a cache');
    await writeCache(file, { version: 1 });
    expect(await readdir(folder)).toEqual(['abc.json']);
  });
});
