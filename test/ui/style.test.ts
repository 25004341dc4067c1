// When Keel colours its output: a TTY, unless NO_COLOR, FORCE_COLOR or TERM=dumb says otherwise.
import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../src/ui/style.js';

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
