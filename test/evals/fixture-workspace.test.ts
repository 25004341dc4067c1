// restoreFixture: a used fixture copy is put back to the fixture's tree exactly, naming the files it touched.
import { chmod, mkdir, readFile, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyFixture,
  type FixtureCopy,
  readTree,
  restoreFixture,
} from '../../src/evals/fixture-workspace.js';
import { makeWorkspace } from '../support/cli.js';

let fixtures: string;
beforeAll(async () => {
  fixtures = await makeWorkspace({
    'one/a.txt': 'A\n',
    'one/src/b.py': 'b = 1\n',
    'one/src/deep/c.rs': 'fn c() {}\n',
    'one/run.sh': 'echo hi\n',
  });
  await chmod(join(fixtures, 'one/run.sh'), 0o755);
  await mkdir(join(fixtures, 'one/empty'));
  await symlink('a.txt', join(fixtures, 'one/link'));
});
afterAll(() => rm(fixtures, { recursive: true, force: true }));

/** What a case did to the copy, and the paths restoreFixture must name. */
const changes: [string, (root: string) => Promise<unknown>, string[]][] = [
  ['nothing', async () => {}, []],
  ['a changed file', (r) => writeFile(join(r, 'src/b.py'), 'b = 2\n'), ['src/b.py']],
  ['a removed file', (r) => unlink(join(r, 'src/deep/c.rs')), ['src/deep/c.rs']],
  ['a removed directory', (r) => rm(join(r, 'src'), { recursive: true }), ['src/b.py', 'src/deep/c.rs']],
  ['a new file', (r) => writeFile(join(r, 'new.txt'), 'x'), ['new.txt']],
  [
    'a new directory with a file',
    async (r) => {
      await mkdir(join(r, 'made/inner'), { recursive: true });
      await writeFile(join(r, 'made/inner/x.py'), 'x');
    },
    ['made/inner/x.py'],
  ],
  ['a file made executable', (r) => chmod(join(r, 'a.txt'), 0o755), ['a.txt']],
  ['a file lost its executable bit', (r) => chmod(join(r, 'run.sh'), 0o644), ['run.sh']],
  ['a removed empty directory', (r) => rm(join(r, 'empty'), { recursive: true }), []],
  [
    'a link pointed elsewhere',
    async (r) => {
      await unlink(join(r, 'link'));
      await symlink('src/b.py', join(r, 'link'));
    },
    ['link'],
  ],
  [
    'a file where a directory was',
    async (r) => {
      await rm(join(r, 'src/deep'), { recursive: true });
      await writeFile(join(r, 'src/deep'), 'file now');
    },
    ['src/deep', 'src/deep/c.rs'],
  ],
];

describe('restoreFixture', () => {
  it.each(changes)('puts back %s and names what it touched', async (_, change, touched) => {
    let copy: FixtureCopy | undefined;
    try {
      copy = await copyFixture(fixtures, 'one');
      const tree = await readTree(join(fixtures, 'one'));
      await change(copy.root);
      expect((await restoreFixture(copy.root, tree)).sort()).toEqual(touched.sort());
      expect(await readTree(copy.root)).toEqual(tree);
      expect((await stat(join(copy.root, 'run.sh'))).mode & 0o777).toBe(0o755);
      expect(await readFile(join(copy.root, 'link'), 'utf8')).toBe('A\n');
    } finally {
      await copy?.dispose();
    }
  });

  it('empties the workspace of a case without a fixture', async () => {
    const copy = await copyFixture(fixtures, undefined);
    try {
      await writeFile(join(copy.root, 'x.txt'), 'x');
      expect(await restoreFixture(copy.root, await readTree(undefined))).toEqual(['x.txt']);
      expect((await readTree(copy.root)).size).toBe(0);
    } finally {
      await copy.dispose();
    }
  });
});
