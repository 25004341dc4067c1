// grep's long lines: a window around the first match with what was left out counted on each side, cut from the text
// or read from the file at rg's offsets, the same either way.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  fileLineWindow,
  lineWindow,
  MAX_LINE_CHARS,
  MAX_WINDOW_BYTES,
} from '../../src/tools/grep-line-window.js';

const x = (n: number) => 'x'.repeat(n);

describe('lineWindow', () => {
  const cases: [string, string, number, string][] = [
    ['a short line is shown whole', 'const a = 1;', 6, 'const a = 1;'],
    ['a line of exactly the limit is shown whole', x(MAX_LINE_CHARS), 0, x(MAX_LINE_CHARS)],
    [
      'a context line (no match) shows its start and counts the rest',
      x(1000),
      0,
      `${x(MAX_LINE_CHARS)} [… 600 characters after]`,
    ],
    [
      'a match far into a line is shown with 80 characters before it',
      `${x(5000)}needle${'y'.repeat(5000)}`,
      5000,
      `[… 4920 characters before] ${x(80)}needle${'y'.repeat(314)} [… 4686 characters after]`,
    ],
    [
      'a match near the end fills the window with what comes before',
      `${x(2_000_000)};function needleFn(){}`,
      2_000_010,
      `[… 1999622 characters before] ${x(378)};function needleFn(){}`,
    ],
    [
      'a match near the start shows the line from its start',
      `ab needle ${x(1000)}`,
      3,
      `ab needle ${x(390)} [… 610 characters after]`,
    ],
  ];
  test.each(cases)('%s', (_name, text, at, shown) => {
    expect(lineWindow(text, at)).toBe(shown);
  });

  test('a window of wide characters stops at its byte budget, and never halves a surrogate pair', () => {
    const cjk = '漢'.repeat(1000);
    const shown = lineWindow(cjk, 500);
    const window = shown.replace(/^\[… \d+ characters before\] | \[… \d+ characters after\]$/g, '');
    expect(Buffer.byteLength(window)).toBeLessThanOrEqual(MAX_WINDOW_BYTES);
    expect(window).toBe('漢'.repeat(266));
    expect(shown).toBe(`[… 420 characters before] ${window} [… 314 characters after]`);
    const emoji = '😀'.repeat(500);
    const cut = lineWindow(emoji, 501).replace(
      /^\[… \d+ characters before\] | \[… \d+ characters after\]$/g,
      '',
    );
    expect(cut).toBe('😀'.repeat(cut.length / 2));
  });
});

describe('fileLineWindow', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-window-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** The window read from a file holding `before` lines, the line, and an ending, for the match at `at` (UTF-16). */
  async function fromFile(line: string, at: number, ending: string): Promise<string> {
    const file = path.join(dir, 'f.txt');
    const head = 'first line\nsecond\n';
    await fs.writeFile(file, `${head}${line}${ending}`);
    const lineStart = Buffer.byteLength(head);
    const matchAt = lineStart + Buffer.byteLength(line.slice(0, at));
    const handle = await fs.open(file, 'r');
    try {
      return await fileLineWindow(handle, lineStart, matchAt, new AbortController().signal);
    } finally {
      await handle.close();
    }
  }

  const lines: [string, string, number][] = [
    ['short', 'a short needle line', 8],
    ['ASCII, match far in', `${x(3_000_000)}needle${x(2_000_000)}`, 3_000_000],
    ['ASCII, match near the end', `${x(2_000_000)};needleFn(){}`, 2_000_001],
    ['ASCII, context line', x(5000), 0],
    ['two-byte characters around the match', `${'é'.repeat(3000)}needle${'ü'.repeat(3000)}`, 3000],
    ['three-byte characters', `${'漢'.repeat(2000)}needle${'字'.repeat(2000)}`, 2000],
    ['emoji (surrogate pairs) on both sides', `${'😀'.repeat(700)}needle${'🎉'.repeat(700)}`, 1400],
    ['a mix, the match right after a four-byte character', `ab😀${'é漢'.repeat(900)}`, 4],
  ];
  for (const ending of ['\n', '\r\n', '']) {
    test.each(lines)(
      `%s, ending ${JSON.stringify(ending)}: the same window as cut from the whole line`,
      async (_n, line, at) => {
        expect(await fromFile(line, at, ending)).toBe(lineWindow(line, at));
      },
    );
  }
});
