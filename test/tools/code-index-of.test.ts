// The code tools' index within one process: kept while the tree is unchanged, fresh after any change.
import { link, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { codeIndexOf } from '../../src/tools/code-index-of.js';
import { projectScanOf } from '../../src/tools/project-scan-of.js';
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

test('leaves a hard link to a secret file out of the index, and a project scan does not read it', async () => {
  const home = path.join(ws.base, 'home');
  await mkdir(path.join(home, '.aws'), { recursive: true });
  await writeFile(path.join(home, '.aws', 'credentials'), 'aws_secret_access_key = "CANARY"\n');
  await link(path.join(home, '.aws', 'credentials'), path.join(ws.root, 'settings.py'));
  await writeFile(path.join(ws.base, 'store.py'), 'def from_store():\n    pass\n');
  await link(path.join(ws.base, 'store.py'), path.join(ws.root, 'lib.py'));
  const index = await codeIndexOf(ws.ctx);
  expect(index.files.has('settings.py')).toBe(false);
  expect(await names('lib.py')).toEqual(['from_store']);
  const scan = await projectScanOf('.', ws.ctx);
  expect(await scan.read('settings.py')).toBeUndefined();
  expect(await scan.read('lib.py')).toContain('from_store');
});
