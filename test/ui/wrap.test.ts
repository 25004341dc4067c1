// Lines wrap at word boundaries at any width: escapes take no room, continuation lines keep the indent.
import { describe, expect, it } from 'vitest';
import { visibleWidth, wrapLine, wrapText } from '../../src/ui/wrap.js';

const dim = (t: string) => `\x1b[2m${t}\x1b[22m`;
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing the escapes the test made.
const plain = (t: string) => t.replace(/\x1b\[[0-9;]*m/g, '');

describe('wrapLine', () => {
  it.each<[string, string, number, string | undefined, string]>([
    ['a line that fits is unchanged', 'short line', 30, undefined, 'short line'],
    [
      'breaks at the last space that fits',
      'alpha bravo charlie delta echo foxtrot',
      20,
      undefined,
      'alpha bravo charlie\ndelta echo foxtrot',
    ],
    [
      'keeps the leading indent on continuation lines',
      '  alpha bravo charlie delta echo',
      20,
      undefined,
      '  alpha bravo\n  charlie delta echo',
    ],
    [
      'takes a given hanging indent',
      '• alpha bravo charlie delta echo',
      20,
      '  ',
      '• alpha bravo\n  charlie delta echo',
    ],
    [
      'cuts only a word wider than the line',
      'see /a/very/long/path/that/cannot/fit/anywhere ok',
      20,
      undefined,
      'see\n/a/very/long/path/th\nat/cannot/fit/anywhe\nre ok',
    ],
    [
      'drops the spaces at the break',
      'alpha     bravo charlie delta',
      20,
      undefined,
      'alpha     bravo\ncharlie delta',
    ],
    ['leaves a terminal too narrow alone', 'alpha bravo charlie', 10, undefined, 'alpha bravo charlie'],
  ])('%s', (_name, line, width, indent, wrapped) => {
    expect(wrapLine(line, width, indent)).toBe(wrapped);
  });

  it('counts colour escapes as no width and keeps them', () => {
    const line = `${dim('alpha bravo')} charlie ${dim('delta')} echo foxtrot`;
    const wrapped = wrapLine(line, 20);
    expect(plain(wrapped)).toBe('alpha bravo charlie\ndelta echo foxtrot');
    expect(wrapped).toContain(dim('delta'));
  });

  it.each([20, 37, 60, 80])('no line is wider than %d columns and no word is split', (width) => {
    const words = 'the quick brown fox jumps over the lazy dog and keeps running far away'.split(' ');
    const text = Array.from({ length: 6 }, () => words.join(' ')).join(' ');
    const lines = wrapLine(`  ${text}`, width).split('\n');
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
    expect(lines.flatMap((l) => l.trim().split(' '))).toEqual(text.split(' '));
  });
});

describe('wrapText', () => {
  it('wraps each line and keeps the line breaks', () => {
    expect(wrapText('alpha bravo charlie delta\n\necho', 20)).toBe('alpha bravo charlie\ndelta\n\necho');
  });
});
