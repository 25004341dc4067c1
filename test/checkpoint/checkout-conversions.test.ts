// Which files git converts on checkout, so a seeded shadow index must read them rather than trust their blobs: the
// core settings that turn every text file to CRLF, and the attributes that convert single files.
import { promises as fs } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutConversions,
  convertingPatterns,
  crlfCheckout,
} from '../../src/checkpoint/checkout-conversions.js';

describe('crlfCheckout', () => {
  it.each([
    ['[core]\n\tautocrlf = true\n', true],
    ['[core]\n\tautocrlf = input\n', false],
    ['[core]\n\teol = crlf\n', true],
    ['[core]\n\tEOL = "CRLF" # comment\n', true],
    ['[user]\n\tautocrlf = true\n', false],
    ['[core]\n\tbare = false\n[filter "x"]\n\teol = crlf\n', false],
    ['', false],
  ])('%j → %s', (config, expected) => {
    expect(crlfCheckout(config)).toBe(expected);
  });
});

describe('convertingPatterns', () => {
  it.each([
    ['*.psd filter=lfs diff=lfs merge=lfs -text\n', false, ['*.psd']],
    ['*.bat text eol=crlf\n*.sh text eol=lf\n', false, ['*.bat']],
    ['*.sh text eol=lf\n* text=auto\n', true, ['*.sh', '*']],
    ['*.png binary\n*.c ident\n', false, ['*.c']],
    ['[attr]lfs filter=lfs -text\n*.bin lfs\n!*.bin filter=x\n# *.x filter=y\n', false, ['*.bin']],
    ['*.txt working-tree-encoding=UTF-16\n', false, ['*.txt']],
  ])('%j (crlf %s) → %j', (text, crlf, expected) => {
    expect(convertingPatterns(text, crlf)).toEqual(expected);
  });
});

describe('checkoutConversions', () => {
  let root = '';
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'keel-conversions-')));
    const write = async (path: string, text: string) => {
      await fs.mkdir(join(root, path, '..'), { recursive: true });
      await fs.writeFile(join(root, path), text);
    };
    await write('ws/.gitattributes', '*.psd filter=lfs\n');
    await write('ws/docs/.gitattributes', 'legacy/*.txt eol=crlf\n');
    await write('git/info/attributes', 'secret.cfg filter=crypt\n');
    await write('git/config', '[core]\n\tbare = false\n');
    await write('home/.gitconfig', '[user]\n\tname = me\n');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('names the files the attributes of the repository convert, by the folder of each attributes file', async () => {
    const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'xdg') };
    const c = await checkoutConversions(
      join(root, 'ws'),
      join(root, 'git'),
      join(root, 'git'),
      ['.gitattributes', 'docs/.gitattributes'],
      env,
    );
    expect(c.all).toBe(false);
    const converted = [
      'a.psd',
      'art/b.psd',
      'docs/legacy/c.txt',
      'secret.cfg',
      'docs/legacy/deep/d.txt',
      'legacy/c.txt',
    ];
    expect(converted.map((p) => c.converts(p))).toEqual([true, true, true, true, false, false]);
    // The user's config turning every text file to CRLF: nothing can be trusted.
    await fs.writeFile(join(root, 'home/.gitconfig'), '[core]\n\tautocrlf = true\n');
    expect(
      (await checkoutConversions(join(root, 'ws'), join(root, 'git'), join(root, 'git'), [], env)).all,
    ).toBe(true);
  });
});
