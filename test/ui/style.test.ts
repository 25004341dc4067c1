// When Keel colours its output: a TTY, unless NO_COLOR, FORCE_COLOR or TERM=dumb says otherwise; under NO_COLOR a
// terminal still gets bold, underline, dim and italic (no-color.org asks only that no colour is added).
import { describe, expect, it } from 'vitest';
import { colorEnabled, createStyle, styleLevel } from '../../src/ui/style.js';

describe('colorEnabled', () => {
  it.each([
    [true, {}, true],
    [true, { TERM: 'xterm-256color' }, true],
    [true, { TERM: 'dumb' }, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { TERM: 'dumb', FORCE_COLOR: '1' }, true],
    [false, {}, false],
    [false, { FORCE_COLOR: '1' }, true],
  ] as const)('a %s TTY with %j: %s', (isTTY, env, expected) => {
    expect(colorEnabled({ isTTY }, env)).toBe(expected);
  });
});

describe('styleLevel', () => {
  it.each([
    [true, {}, 'color'],
    [true, { NO_COLOR: '1' }, 'attributes'],
    [true, { NO_COLOR: '1', TERM: 'xterm-256color' }, 'attributes'],
    [true, { NO_COLOR: '1', TERM: 'dumb' }, 'none'],
    [true, { NO_COLOR: '1', FORCE_COLOR: '1' }, 'attributes'],
    [false, { NO_COLOR: '1' }, 'none'],
    [false, { NO_COLOR: '1', FORCE_COLOR: '1' }, 'none'],
    [true, { TERM: 'dumb' }, 'none'],
    [false, {}, 'none'],
  ] as const)('a %s TTY with %j: %s', (isTTY, env, expected) => {
    expect(styleLevel({ isTTY }, env)).toBe(expected);
  });
});

describe('createStyle', () => {
  it('with attributes only keeps bold, underline, dim and italic and adds no colour', () => {
    const style = createStyle('attributes');
    expect(style.bold('a')).toBe('\x1b[1ma\x1b[22m');
    expect(style.underline('a')).toBe('\x1b[4ma\x1b[24m');
    expect(style.dim('a')).toBe('\x1b[2ma\x1b[22m');
    expect(style.italic('a')).toBe('\x1b[3ma\x1b[23m');
    for (const colour of [style.red, style.green, style.yellow, style.cyan, style.magenta, style.blue])
      expect(colour('a')).toBe('a');
  });

  it('off adds nothing', () => {
    const style = createStyle('none');
    expect(style.bold('a') + style.red('b') + style.dim('c')).toBe('abc');
  });
});
