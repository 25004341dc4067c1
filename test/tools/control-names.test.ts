// File names holding a line break (or another control character) in listings: glob, grep (every output mode, rg and
// its JS fallback) and list_files show them quoted with escapes, one line per path, and the tools take that form back.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { listedPath, shownPath } from '../../src/core/shown-path.js';
import { createGlobTool } from '../../src/tools/glob.js';
import { createGrepTool } from '../../src/tools/grep.js';
import { listFilesTool } from '../../src/tools/list-files.js';
import { readFileTool } from '../../src/tools/read-file.js';
import type { Tool } from '../../src/tools/tool.js';
import { useToolWorkspace } from './helpers.js';

const ws = useToolWorkspace();

describe('shownPath and listedPath', () => {
  test.each([
    ['src/a.ts', 'src/a.ts'],
    ['a\nb.txt', '"a\\nb.txt"'],
    ['tab\there', '"tab\\there"'],
    ['bell\u0007', '"bell\\u0007"'],
    ['"quoted".txt', '"quoted".txt'], // no control character: as it is
  ])('%j is shown as %s, and read back', (name, shown) => {
    expect(shownPath(name)).toBe(shown);
    expect(listedPath(shown) ?? shown).toBe(name);
  });

  test('a quoted name without a control character is no listed form', () => {
    expect(listedPath('"plain.txt"')).toBeUndefined();
    expect(listedPath('"a\\nb')).toBeUndefined();
  });
});

const unrunnableRg = async (): Promise<string> => {
  const fake = path.join(ws.base, 'fake-rg');
  await fs.writeFile(fake, 'not a program', { mode: 0o644 });
  return fake;
};

describe.each([
  ['rg', async () => undefined],
  ['js', unrunnableRg],
])('names with a line break (%s)', (_backend, rgPath) => {
  const setUp = async () => {
    await ws.write('a\nb.txt', 'needle one\n');
    await ws.write('plain.txt', 'needle two\n');
  };

  test('glob lists the name once, quoted', async () => {
    await setUp();
    const glob = createGlobTool({ rgPath: await rgPath() }) as Tool;
    const result = await ws.run(glob, { pattern: '*.txt' });
    expect(result.output.split('\n').sort()).toEqual(['"a\\nb.txt"', 'plain.txt']);
  });

  test.each(['files', 'count', 'content'] as const)('grep (%s) shows the name quoted', async (output) => {
    await setUp();
    const grep = createGrepTool({ rgPath: await rgPath() }) as Tool;
    const result = await ws.run(grep, { pattern: 'needle', output });
    const lines = result.output
      .split('\n')
      .filter((line) => line.length > 0 && !line.startsWith('[') && !line.startsWith('total:'));
    const expected = {
      files: ['"a\\nb.txt"', 'plain.txt'],
      count: ['"a\\nb.txt":1', 'plain.txt:1'],
      content: ['"a\\nb.txt":1:needle one', 'plain.txt:1:needle two'],
    }[output];
    expect(lines.sort()).toEqual(expected);
  });
});

test('list_files shows the name quoted, and read_file takes the quoted form back', async () => {
  await ws.write('a\nb.txt', 'inside\n');
  const listed = await ws.run(listFilesTool, {});
  expect(listed.output.split('\n')).toContain('"a\\nb.txt"');
  const read = await ws.run(readFileTool, { path: '"a\\nb.txt"' });
  expect(read.success).toBe(true);
  expect(read.output).toContain('inside');
});
