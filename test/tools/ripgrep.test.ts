import { describe, expect, it } from 'vitest';
import { runRipgrep } from '../../src/tools/ripgrep.js';

// runRipgrep splits any program's output into lines: node stands in for rg, writing lines cut across chunks.
const writer = `
const parts = JSON.parse(process.argv[1]);
let i = 0;
const next = () => { if (i < parts.length) process.stdout.write(parts[i++], () => setTimeout(next, 15)); };
next();
`;

async function linesOf(parts: string[]): Promise<string[]> {
  const lines: string[] = [];
  const run = await runRipgrep(process.execPath, ['-e', writer, JSON.stringify(parts)], {
    cwd: process.cwd(),
    signal: new AbortController().signal,
    onLine: (data, start, end) => lines.push(data.toString('utf8', start, end)),
  });
  expect(run.code).toBe(0);
  return lines;
}

describe('runRipgrep', () => {
  it.each([
    [['a\nb\n'], ['a', 'b']],
    [
      ['ab', 'c\nd', 'e\n'],
      ['abc', 'de'],
    ],
    [['a', 'b', 'c', '\n'], ['abc']],
    [
      ['one\ntw', 'o\nthr', 'ee'],
      ['one', 'two', 'three'],
    ],
    [
      ['x\n', '\n', 'y\n'],
      ['x', '', 'y'],
    ],
    [['é', '\u00e8\n'], ['éè']],
  ])('%j gives the lines %j', async (parts, expected) => {
    expect(await linesOf(parts)).toEqual(expected);
  });
});
