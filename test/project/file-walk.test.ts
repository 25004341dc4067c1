// The one workspace walker: .gitignore as git reads it, skipped and .git directories, links listed but not
// followed, a listing of one directory, and a walk that stops when asked.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SKIPPED_DIRS, walkEntries, walkFiles } from '../../src/project/file-walk.js';

let root: string;

async function write(relative: string, text = ''): Promise<void> {
  const full = path.join(root, relative);
  await fs.mkdir(path.dirname(full), { recursive: true });
  await fs.writeFile(full, text);
}

async function files(start = root, skipDir?: (name: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  for await (const file of walkFiles(root, start, undefined, skipDir)) found.push(path.relative(root, file));
  return found;
}

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-walk-'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('walkFiles', () => {
  it('lists files depth first in name order, a nested .gitignore overriding the root one', async () => {
    await write('.gitignore', '*.log\nbuild/\n');
    await write('b.txt');
    await write('a/z.log');
    await write('a/.gitignore', '!keep.log\n');
    await write('a/keep.log');
    await write('build/out.js');
    await write('.git/HEAD');
    expect(await files()).toEqual(['.gitignore', 'a/.gitignore', 'a/keep.log', 'b.txt']);
  });

  it('applies the .gitignore files above a start below the root', async () => {
    await write('.gitignore', 'secret.txt\n');
    await write('src/secret.txt');
    await write('src/main.ts');
    expect(await files(path.join(root, 'src'))).toEqual(['src/main.ts']);
  });

  it('gives a file start back as itself', async () => {
    await write('one.txt');
    expect(await files(path.join(root, 'one.txt'))).toEqual(['one.txt']);
  });

  it('does not enter the directories skipDir names', async () => {
    await write('node_modules/x/index.js');
    await write('src/index.ts');
    expect(await files(root, (name) => SKIPPED_DIRS.has(name))).toEqual(['src/index.ts']);
  });

  it('neither lists nor follows symbolic links', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-walk-out-'));
    try {
      await fs.writeFile(path.join(outside, 'secret.txt'), 'x');
      await fs.symlink(outside, path.join(root, 'linkdir'));
      await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
      await write('real.txt');
      expect(await files()).toEqual(['real.txt']);
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });

  it('stops with the abort reason once the signal is aborted', async () => {
    await write('a/b.txt');
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    const walk = async () => {
      for await (const _ of walkFiles(root, root, controller.signal));
    };
    await expect(walk()).rejects.toThrow('stopped');
  });
});

describe('walkEntries', () => {
  it('lists each directory before what it holds, and links without entering them', async () => {
    await write('d/e.txt');
    await fs.symlink(path.join(root, 'd'), path.join(root, 'link'));
    const entries: string[] = [];
    for await (const entry of walkEntries(root, root)) {
      entries.push(`${path.relative(root, entry.path)}${entry.isDir ? '/' : ''}${entry.isFile ? '' : '*'}`);
    }
    expect(entries).toEqual(['d/*', 'd/e.txt', 'link*']);
  });

  it('lists only the start directory when not recursive', async () => {
    await write('d/e.txt');
    await write('f.txt');
    const entries: string[] = [];
    for await (const entry of walkEntries(root, root, { recursive: false })) {
      entries.push(path.relative(root, entry.path));
    }
    expect(entries).toEqual(['d', 'f.txt']);
  });
});
