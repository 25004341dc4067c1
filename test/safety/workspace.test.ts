// Tests for the workspace path jail: containment, symlinks, and the refused path forms.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { secretLinks } from '../../src/safety/secret-links.js';
import {
  openWorkspace,
  PathEscapeError,
  SecretLinkError,
  type Workspace,
} from '../../src/safety/workspace.js';

let base: string;
let root: string;
let ws: Workspace;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-ws-')));
  root = path.join(base, 'work');
  await fs.mkdir(path.join(root, 'src'), { recursive: true });
  await fs.writeFile(path.join(root, 'src', 'a.ts'), 'a');
  await fs.mkdir(path.join(base, 'outside'));
  await fs.writeFile(path.join(base, 'outside', 'secret.txt'), 'TOP SECRET');
  ws = await openWorkspace(root);
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function refused(p: string): Promise<PathEscapeError> {
  const error = await ws.resolve(p).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${p} to be refused`).toBeInstanceOf(PathEscapeError);
  return error as PathEscapeError;
}

describe('openWorkspace', () => {
  test('root is the realpath of the given directory', async () => {
    await fs.symlink(root, path.join(base, 'alias'));
    const aliased = await openWorkspace(path.join(base, 'alias'));
    expect(aliased.root).toBe(root);
  });

  test('a file or a missing path is refused with a UsageError', async () => {
    await expect(openWorkspace(path.join(root, 'src', 'a.ts'))).rejects.toBeInstanceOf(UsageError);
    await expect(openWorkspace(path.join(base, 'missing'))).rejects.toBeInstanceOf(UsageError);
  });
});

describe('resolve', () => {
  test('relative paths resolve against the root', async () => {
    expect(await ws.resolve('src/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
    expect(await ws.resolve('.')).toBe(root);
    expect(await ws.resolve('new/dir/file.txt')).toBe(path.join(root, 'new', 'dir', 'file.txt'));
  });

  test('absolute paths inside the root are allowed', async () => {
    expect(await ws.resolve(path.join(root, 'src', 'a.ts'))).toBe(path.join(root, 'src', 'a.ts'));
  });

  test('.. inside the root is fine, escaping it is refused', async () => {
    expect(await ws.resolve('src/../src/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
    await refused('../outside/secret.txt');
    await refused('src/../../outside');
  });

  test('absolute paths outside are refused; the error names the path and not the content', async () => {
    const error = await refused(path.join(base, 'outside', 'secret.txt'));
    expect(error.message).toContain('secret.txt');
    expect(error.message).toContain('outside the workspace');
    expect(error.message).not.toContain('TOP SECRET');
    await refused('/etc/passwd');
  });

  test('a sibling directory sharing the prefix is outside (/a/work2 is not in /a/work)', async () => {
    await fs.mkdir(path.join(base, 'work2'));
    await refused(path.join(base, 'work2'));
    await refused('../work2/x');
  });

  test('symlinks pointing out are refused: file, directory, middle component, new file below', async () => {
    await fs.symlink(path.join(base, 'outside', 'secret.txt'), path.join(root, 'file-link'));
    await fs.symlink(path.join(base, 'outside'), path.join(root, 'dir-link'));
    await refused('file-link');
    await refused('dir-link');
    await refused('dir-link/secret.txt');
    await refused('dir-link/not-yet-created.txt');
  });

  test('a dangling symlink is refused', async () => {
    await fs.symlink(path.join(base, 'outside', 'nope.txt'), path.join(root, 'dangling'));
    await refused('dangling');
  });

  test('symlinks pointing inside resolve to their target', async () => {
    await fs.symlink(path.join(root, 'src'), path.join(root, 'src-link'));
    expect(await ws.resolve('src-link/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
  });

  test('NUL bytes, ~, file:// URLs and empty paths are refused', async () => {
    await refused('src/a.ts\0.png');
    await refused('~/x');
    await refused('~');
    await refused(`file://${root}/src/a.ts`);
    await refused('');
  });

  test('relative() gives the path from the root, "." for the root', () => {
    expect(ws.relative(path.join(root, 'src', 'a.ts'))).toBe(path.join('src', 'a.ts'));
    expect(ws.relative(root)).toBe('.');
  });
});

describe("Keel's own directories", () => {
  test('are refused by absolute path even when the workspace holds them, except the read-only root', async () => {
    const state = path.join(root, '.state', 'keel');
    const mine = path.join(state, 'tool-output', 'work-1', 'run');
    const other = path.join(state, 'tool-output', 'other-2', 'run');
    for (const dir of [mine, other]) {
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, 'out.txt'), 'saved');
    }
    const jailed = await openWorkspace(root, [path.join(state, 'tool-output', 'work-1')], [state]);
    expect(await jailed.resolveForRead(path.join(mine, 'out.txt'))).toBe(path.join(mine, 'out.txt'));
    for (const p of [path.join(other, 'out.txt'), '.state/keel/tool-output/other-2/run/out.txt']) {
      await expect(jailed.resolveForRead(p)).rejects.toThrow(/Keel's own directory/);
    }
    await expect(jailed.resolve(path.join(mine, 'out.txt'))).rejects.toThrow(/Keel's own directory/);
  });

  test('a workspace inside a Keel directory is the user choosing to work there', async () => {
    const jailed = await openWorkspace(root, [], [base]);
    expect(await jailed.resolve('src/a.ts')).toBe(path.join(root, 'src', 'a.ts'));
  });
});

describe('hard links to secret files', () => {
  test('are refused for every use, naming the secret; other hard links resolve as any file', async () => {
    const home = path.join(base, 'home');
    await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
    await fs.writeFile(path.join(home, '.ssh', 'id_rsa'), 'KEY');
    await fs.link(path.join(home, '.ssh', 'id_rsa'), path.join(root, 'hardkey'));
    // pnpm's node_modules: files hard-linked from its store.
    await fs.mkdir(path.join(root, 'node_modules', 'x'), { recursive: true });
    await fs.link(path.join(base, 'outside', 'secret.txt'), path.join(root, 'node_modules', 'x', 'index.js'));
    const jailed = await openWorkspace(root, [], [], secretLinks(home));
    for (const use of [jailed.resolve, jailed.resolveForRead]) {
      const error = await use.call(jailed, 'hardkey').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SecretLinkError);
      expect((error as Error).message).toBe(
        'path "hardkey" is a hard link to the secret file ~/.ssh/id_rsa, which is protected: tools never read or change it',
      );
      expect(await use.call(jailed, 'node_modules/x/index.js')).toBe(
        path.join(root, 'node_modules', 'x', 'index.js'),
      );
    }
    expect(jailed.secretLink(path.join(root, 'hardkey'))).toBe('~/.ssh/id_rsa');
    expect(jailed.secretLink(path.join(root, 'src', 'a.ts'))).toBeUndefined();
  });
});
