// File-change diffs: only the region between the lines both texts share is diffed, with the same result as diffing
// the whole texts, so a one-line edit of a big file is diffed like a small one.
import { createTwoFilesPatch } from 'diff';
import { describe, expect, test } from 'vitest';
import { fileChangeDiff } from '../../src/tools/file-diff.js';

/** The diff of the whole texts, as fileChangeDiff printed it before. */
const whole = (shown: string, before?: string, after?: string) =>
  createTwoFilesPatch(
    before === undefined ? '/dev/null' : `a/${shown}`,
    after === undefined ? '/dev/null' : `b/${shown}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 3 },
  )
    .replace(/^=+\n/, '')
    .trimEnd();

const lines = (n: number, line = (i: number) => `line ${i}`) =>
  `${Array.from({ length: n }, (_, i) => line(i + 1)).join('\n')}\n`;

describe('fileChangeDiff', () => {
  const cases: [string, string | undefined, string | undefined][] = [
    ['a changed middle line', lines(50), lines(50).replace('line 25\n', 'line twenty-five\n')],
    ['the first line', lines(50), lines(50).replace('line 1\n', 'first\n')],
    ['the last line', lines(50), lines(50).replace('line 50\n', 'last\n')],
    ['text added to a last line without newline', lines(20).trimEnd(), `${lines(20).trimEnd()} more`],
    ['the final newline removed', lines(20), lines(20).trimEnd()],
    ['lines inserted', lines(30), lines(30).replace('line 10\n', 'line 10\nnew a\nnew b\n')],
    ['lines deleted', lines(30), lines(30).replace('line 10\nline 11\n', '')],
    [
      'two changes far apart',
      lines(80),
      lines(80).replace('line 5\n', 'five\n').replace('line 70\n', 'seventy\n'),
    ],
    ['a new file', undefined, lines(3)],
    ['a deleted file', lines(3), undefined],
    ['no change', lines(5), lines(5)],
    ['an empty file filled', '', 'a\n'],
    ['a file emptied', 'a\n', ''],
    ['CRLF lines', 'a\r\nb\r\nc\r\n', 'a\r\nB\r\nc\r\n'],
    ['a repeated line added', 'x\nx\nx\nx\nx\n', 'x\nx\nx\nx\nx\nx\n'],
    ['a repeated line removed', 'abc\nabc\n', 'abc\n'],
    ['one character, no newline', 'a', 'b'],
  ];
  for (const [name, before, after] of cases)
    test(`${name}: as the whole texts' diff`, () => {
      expect(fileChangeDiff('f.txt', before, after)).toBe(whole('f.txt', before, after));
    });

  test('a one-line edit of a 100,000-line file: its hunk, at its line numbers', () => {
    const big = lines(100_000, (i) => `const value_${i} = ${i};`);
    const diff = fileChangeDiff(
      'big.js',
      big,
      big.replace('const value_50000 = 50000;', 'const value_50000 = 1;'),
    );
    expect(diff).toBe(
      [
        '--- a/big.js',
        '+++ b/big.js',
        '@@ -49997,7 +49997,7 @@',
        ' const value_49997 = 49997;',
        ' const value_49998 = 49998;',
        ' const value_49999 = 49999;',
        '-const value_50000 = 50000;',
        '+const value_50000 = 1;',
        ' const value_50001 = 50001;',
        ' const value_50002 = 50002;',
        ' const value_50003 = 50003;',
      ].join('\n'),
    );
  });
});
