// The code tools' index within one process: kept while the tree is unchanged, fresh after any change.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { codeIndexOf } from '../../src/tools/code-index-of.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const names = async (path: string) =>
  ((await codeIndexOf(ws.ctx)).files.get(path)?.definitions ?? []).map((d) => d.name);

test('the same index while nothing changed; a changed file, a new one and a removed one are seen', async () => {
  await ws.write('src/a.ts', 'export function first() {}\n');
  const index = await codeIndexOf(ws.ctx);
  expect(await codeIndexOf(ws.ctx)).toBe(index);
  // A file's content changed (its folder did not): its new definitions.
  await ws.write('src/a.ts', 'export function first() {}\nexport function second() {}\n');
  expect(await names('src/a.ts')).toEqual(['first', 'second']);
  // A file added and one removed: the folder changed, the tree is walked again.
  await ws.write('src/b.ts', 'export function third() {}\n');
  expect(await names('src/b.ts')).toEqual(['third']);
  await rm(path.join(ws.root, 'src/a.ts'));
  expect((await codeIndexOf(ws.ctx)).files.has('src/a.ts')).toBe(false);
});

test('a process keeps the indexes of its last two workspaces only', async () => {
  const others = [await makeWorkspace(), await makeWorkspace()];
  try {
    await ws.write('a.ts', 'export const a = 1;\n');
    const first = await codeIndexOf(ws.ctx);
    for (const other of others) {
      await other.write('b.ts', 'export const b = 1;\n');
      await codeIndexOf(other.ctx);
    }
    // Two others came after: the first workspace's index is loaded again.
    expect(await codeIndexOf(ws.ctx)).not.toBe(first);
    const last = await codeIndexOf(others[1]!.ctx);
    expect(await codeIndexOf(others[1]!.ctx)).toBe(last);
  } finally {
    for (const other of others) await other.cleanup();
  }
});
