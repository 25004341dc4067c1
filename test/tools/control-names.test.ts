// File names holding a line break (or another control character) in listings: glob, grep (every output mode, rg and
// its JS fallback) and list_files show them quoted with escapes, one line per path, and the tools take that form back.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { listedPath, shownPath } from '../../src/core/shown-path.js';
import { buildDependencyGraphTool } from '../../src/tools/build-dependency-graph.js';
import { findReferencesTool } from '../../src/tools/find-references.js';
import { getCodebaseMapTool } from '../../src/tools/get-codebase-map.js';
import { createGlobTool } from '../../src/tools/glob.js';
import { createGrepTool } from '../../src/tools/grep.js';
import { inspectSymbolTool } from '../../src/tools/inspect-symbol.js';
import { listFilesTool } from '../../src/tools/list-files.js';
import { readFileTool } from '../../src/tools/read-file.js';
import { searchCodeTool } from '../../src/tools/search-code.js';
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

// The code index's paths: every code tool names a file with a control character in the quoted form, on one line.
describe('code tools name a file with a control character quoted', () => {
  const setUp = async () => {
    await ws.write('we\nird.ts', 'export function computeTotal(n: number): number {\n  return n * 2;\n}\n');
    await ws.write('tab\there.ts', 'export const rate = 3;\n');
    await ws.write(
      'main.ts',
      "import { computeTotal } from './we\\nird';\nimport { rate } from './tab\there';\nexport const total = computeTotal(rate);\n",
    );
  };

  test('get_codebase_map', async () => {
    await setUp();
    const result = await ws.run(getCodebaseMapTool as Tool, {});
    expect(result.output).toContain('"we\\nird.ts":');
    expect(result.output).not.toMatch(/^ird\.ts:/m);
  });

  test('search_code', async () => {
    await setUp();
    const result = await ws.run(searchCodeTool as Tool, { query: 'computeTotal' });
    expect(result.output).toMatch(/^"we\\nird\.ts":1 function computeTotal/m);
  });

  test('find_references', async () => {
    await setUp();
    const result = await ws.run(findReferencesTool as Tool, { name: 'computeTotal' });
    expect(result.output).toMatch(/^"we\\nird\.ts":1:\d+ \(definition\): export function computeTotal/m);
    expect(result.output).toMatch(/^main\.ts:3:\d+/m);
  });

  test('inspect_symbol, and the quoted form taken back as its path', async () => {
    await setUp();
    const result = await ws.run(inspectSymbolTool as Tool, { name: 'computeTotal', path: '"we\\nird.ts"' });
    expect(result.output).toContain('function computeTotal at "we\\nird.ts":1-3');
    const none = await ws.run(inspectSymbolTool as Tool, { name: 'missing', path: '"we\\nird.ts"' });
    expect(none.error ?? none.output).toContain('no definition of missing in "we\\nird.ts"');
  });

  test('build_dependency_graph', async () => {
    await setUp();
    const result = await ws.run(buildDependencyGraphTool as Tool, {});
    expect(result.output).toContain('main.ts → ');
    const edge = result.output.split('\n').find((line) => line.startsWith('main.ts → '));
    expect(edge?.split(' → ')[1]?.split(', ')).toContain('"tab\\there.ts"');
  });
});
