// The init analyses' walk of a project: cut short in a big one, it still holds the root's own files, which say
// most about the project (a monorepo's packages/ comes before tsconfig.json and yarn.lock in name order).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { scanProject } from '../../src/project/scan.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'keel-scan-'));
  await mkdir(join(root, 'packages'));
  for (let i = 0; i < 8; i++) await writeFile(join(root, 'packages', `m${i}.ts`), '');
  for (const file of ['package.json', 'tsconfig.json', 'yarn.lock', 'ignored.log'])
    await writeFile(join(root, file), '{}');
  await writeFile(join(root, '.gitignore'), '*.log\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

it("keeps the root's own files when the walk is cut short, ignored ones still left out", async () => {
  const scan = await scanProject(root, new AbortController().signal, 5);
  expect(scan.truncated).toBe(true);
  expect(scan.files.filter((f) => f.startsWith('packages/'))).toHaveLength(3);
  expect(scan.files.filter((f) => !f.includes('/')).sort()).toEqual([
    '.gitignore',
    'package.json',
    'tsconfig.json',
    'yarn.lock',
  ]);
  expect(await scan.read('tsconfig.json')).toBe('{}');
});
