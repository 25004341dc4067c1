// Hard links to secrets, told by inode: a second name of a file in a secret location is named with the secret; a
// file with one link, and a hard link to any other file (pnpm's node_modules), is nothing.
import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretLinks, userSecretLinks } from '../../src/safety/secret-links.js';

let root: string;
let home: string;
let ws: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'keel-secret-links-')));
  home = join(root, 'home');
  ws = join(home, 'project');
  await mkdir(join(home, '.ssh'), { recursive: true });
  await mkdir(ws, { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), 'KEY');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('secretLinks', () => {
  const cases: [string, () => Promise<void>, string | undefined][] = [
    ['a hard link to the SSH key', () => link(join(home, '.ssh', 'id_rsa'), join(ws, 'f')), '~/.ssh/id_rsa'],
    [
      'a hard link to a file deep in a secret directory',
      async () => {
        await mkdir(join(home, '.gnupg', 'private-keys-v1.d'), { recursive: true });
        await writeFile(join(home, '.gnupg', 'private-keys-v1.d', 'k.key'), 'GPG');
        await link(join(home, '.gnupg', 'private-keys-v1.d', 'k.key'), join(ws, 'f'));
      },
      '~/.gnupg/private-keys-v1.d/k.key',
    ],
    [
      'a hard link to a secret file location (~/.git-credentials)',
      async () => {
        await writeFile(join(home, '.git-credentials'), 'https://u:tok@host');
        await link(join(home, '.git-credentials'), join(ws, 'f'));
      },
      '~/.git-credentials',
    ],
    [
      'a hard link to the file a link in a secret directory points to',
      async () => {
        await writeFile(join(root, 'kept-key'), 'KEY2');
        await symlink(join(root, 'kept-key'), join(home, '.ssh', 'id_ed25519'));
        await link(join(root, 'kept-key'), join(ws, 'f'));
      },
      '~/.ssh/id_ed25519',
    ],
    [
      "a hard link to another file (pnpm's store)",
      async () => {
        await mkdir(join(home, '.pnpm-store'));
        await writeFile(join(home, '.pnpm-store', 'index.js'), 'module.exports = 1');
        await link(join(home, '.pnpm-store', 'index.js'), join(ws, 'f'));
      },
      undefined,
    ],
    ['a file with one name', () => writeFile(join(ws, 'f'), 'KEY'), undefined],
    ['nothing there', async () => {}, undefined],
  ];
  it.each(cases)('%s', async (_name, make, expected) => {
    await make();
    expect(secretLinks(home)(join(ws, 'f'))).toBe(expected);
  });

  it.each(cases)('%s, in a search', async (_name, make, expected) => {
    await make();
    const search = secretLinks(home).search?.();
    // No check at all (no file stat) unless some secret has a second name.
    if (expected === undefined) expect(search).toBeUndefined();
    else expect(search?.(join(ws, 'f'))).toBe(expected);
  });

  it('sees in a search a link made to a secret after the one before', async () => {
    const of = secretLinks(home);
    expect(of.search?.()).toBeUndefined();
    await link(join(home, '.ssh', 'id_rsa'), join(ws, 'later'));
    expect(of.search?.()?.(join(ws, 'later'))).toBe('~/.ssh/id_rsa');
    expect(of.search?.()?.(join(ws, 'other'))).toBeUndefined();
  });

  it('checks each file of a search itself when there are too many secret files to stat at each search', async () => {
    await mkdir(join(home, '.kube', 'cache'), { recursive: true });
    for (let i = 0; i < 205; i++) await writeFile(join(home, '.kube', 'cache', `c${i}.json`), '{}');
    await link(join(home, '.ssh', 'id_rsa'), join(ws, 'f'));
    const search = secretLinks(home).search?.();
    expect(search?.(join(ws, 'f'))).toBe('~/.ssh/id_rsa');
    expect(search?.(join(ws, 'missing'))).toBeUndefined();
  });

  it('knows a directory, whose link count is its subdirectories, as no hard link', async () => {
    await mkdir(join(ws, 'src', 'a'), { recursive: true });
    expect(secretLinks(home)(join(ws, 'src'))).toBeUndefined();
  });

  it("knows Keel's credentials file wherever XDG_CONFIG_HOME puts it", async () => {
    const config = join(root, 'xdg');
    await mkdir(join(config, 'keel'), { recursive: true });
    await writeFile(join(config, 'keel', 'credentials.yaml'), 'openai: sk-x');
    await link(join(config, 'keel', 'credentials.yaml'), join(ws, 'creds.yaml'));
    const of = userSecretLinks({ HOME: home, XDG_CONFIG_HOME: config });
    expect(of(join(ws, 'creds.yaml'))).toBe(join(config, 'keel', 'credentials.yaml'));
  });
});
