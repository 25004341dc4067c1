// Pure parts of the LSP side: TextEdits on text (UTF-16, line ends), which servers a config gives, finding a
// program on PATH, and the messages of a bad `code.language_servers`.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { languageServiceFactories } from '../../../src/code/language/factories.js';
import { applyTextEdits, editsByUri } from '../../../src/code/language/lsp-edits.js';
import { findProgram, serverDefinitions } from '../../../src/code/language/lsp-servers.js';
import { configSchema } from '../../../src/config/schema.js';
import { requiresTrust } from '../../../src/config/trust.js';

const edit = (line: number, character: number, endLine: number, endCharacter: number, newText: string) => ({
  range: { start: { line, character }, end: { line: endLine, character: endCharacter } },
  newText,
});

describe('applyTextEdits', () => {
  test.each([
    ['one edit', 'let a = 1;', [edit(0, 4, 0, 5, 'b')], 'let b = 1;'],
    ['columns count UTF-16 units', '😀 a\n', [edit(0, 3, 0, 4, 'b')], '😀 b\n'],
    ['edits given out of order', 'a a a', [edit(0, 4, 0, 5, 'c'), edit(0, 0, 0, 1, 'c')], 'c a c'],
    ['CRLF line ends', 'x\r\na\r\n', [edit(1, 0, 1, 1, 'b')], 'x\r\nb\r\n'],
    ['inserts at one place keep their order', 'ab', [edit(0, 1, 0, 1, '1'), edit(0, 1, 0, 1, '2')], 'a12b'],
    ['a character past the line end is clamped to it', 'ab\ncd', [edit(0, 9, 0, 9, '!')], 'ab!\ncd'],
    ['an edit spanning lines', 'a\nb\nc', [edit(0, 1, 2, 0, '-')], 'a-c'],
  ])('%s', (_name, text, edits, expected) => {
    expect(applyTextEdits(text, edits)).toBe(expected);
  });

  test('overlapping edits are refused', () => {
    expect(() => applyTextEdits('abcdef', [edit(0, 0, 0, 3, 'x'), edit(0, 2, 0, 4, 'y')])).toThrow(
      /overlapping/,
    );
  });

  test('a workspace edit that renames a file is refused', () => {
    expect(
      editsByUri({ documentChanges: [{ kind: 'rename', oldUri: 'file:///a', newUri: 'file:///b' }] }),
    ).toMatch(/would rename files/);
  });
});

describe('serverDefinitions', () => {
  const ids = (config?: Parameters<typeof serverDefinitions>[0]) =>
    serverDefinitions(config).map((d) => d.id);

  test.each([
    [
      'no config: pyright, then the servers looked up on PATH',
      undefined,
      ['pyright', 'gopls', 'rust-analyzer', 'clangd', 'jdtls', 'dart'],
    ],
    [
      'false turns a built-in server off',
      { clangd: false as const, pyright: false as const },
      ['gopls', 'rust-analyzer', 'jdtls', 'dart'],
    ],
    [
      'a configured server comes first, replacing the built-in of its name',
      { gopls: { command: ['/opt/gopls', 'serve'], extensions: ['.go'], env: {} } },
      ['gopls', 'pyright', 'rust-analyzer', 'clangd', 'jdtls', 'dart'],
    ],
  ])('%s', (_name, config, expected) => {
    expect(ids(config)).toEqual(expected);
  });

  test('a configured server for .py wins over pyright', () => {
    const factories = languageServiceFactories({
      code: { language_servers: { pylsp: { command: ['pylsp'], extensions: ['.py'], env: {} } } },
    });
    expect(factories.find((f) => f.handles('pkg/a.py'))?.id).toBe('pylsp');
    expect(factories.find((f) => f.handles('pkg/a.pyi'))?.id).toBe('pyright');
    expect(factories.find((f) => f.handles('src/x.HPP'))?.id).toBe('clangd');
  });
});

describe('findProgram', () => {
  test('finds an executable in an absolute PATH entry and never in a relative one', async () => {
    const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'keel-path-')));
    try {
      await fs.mkdir(path.join(dir, 'bin'));
      await fs.writeFile(path.join(dir, 'bin', 'fake-ls'), '#!/bin/sh\n', { mode: 0o755 });
      await fs.writeFile(path.join(dir, 'bin', 'not-exec'), '', { mode: 0o644 });
      const cwd = process.cwd();
      expect(await findProgram('fake-ls', `/nonexistent:${dir}/bin`)).toBe(path.join(dir, 'bin', 'fake-ls'));
      expect(await findProgram('not-exec', `${dir}/bin`)).toBeUndefined();
      expect(await findProgram('fake-ls', path.relative(cwd, path.join(dir, 'bin')))).toBeUndefined();
      expect(await findProgram(path.join(dir, 'bin', 'fake-ls'), '')).toBe(path.join(dir, 'bin', 'fake-ls'));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('code.language_servers config', () => {
  const problem = (value: unknown) => {
    const result = configSchema.safeParse({ code: { language_servers: value } });
    return result.success ? undefined : result.error.issues.map((i) => i.message).join('; ');
  };

  test.each([
    [
      'a server with its command and extensions',
      { gopls: { command: ['gopls'], extensions: ['.go'] } },
      undefined,
    ],
    ['false for a built-in', { clangd: false }, undefined],
    ['an empty command', { x: { command: [], extensions: ['.x'] } }, 'give the program and its arguments'],
    [
      'an extension without its dot',
      { x: { command: ['x'], extensions: ['go'] } },
      'extensions start with a dot',
    ],
    ['true instead of a server', { clangd: true }, 'a language server is false (off) or'],
    [
      'a command given as a string',
      { x: { command: 'x', extensions: ['.x'] } },
      'a language server is false (off) or',
    ],
  ])('%s', (_name, value, message) => {
    const found = problem(value);
    if (message === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(message);
  });

  test('a project file sets language servers only in a trusted folder (they are programs Keel starts)', () => {
    expect(requiresTrust('code.language_servers')).toBe(true);
  });
});
