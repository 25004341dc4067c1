// sanitize(): control characters and bidi overrides from untrusted text are shown escaped, never acted on.
import { describe, expect, test } from 'vitest';
import { sanitize } from '../../src/ui/sanitize.js';

describe('sanitize', () => {
  test('keeps ordinary text, newlines, tabs and non-ASCII letters as they are', () => {
    expect(sanitize('héllo\twörld\n— ✓ 日本\n')).toBe('héllo\twörld\n— ✓ 日本\n');
  });

  test('shows ESC sequences escaped: cursor moves, OSC 8 links, OSC 52 clipboard writes, titles', () => {
    expect(sanitize('\x1b[2J\x1b[H')).toBe('\\x1b[2J\\x1b[H');
    expect(sanitize('\x1b]8;;https://evil.example\x07click\x1b]8;;\x07')).toBe(
      '\\x1b]8;;https://evil.example\\x07click\\x1b]8;;\\x07',
    );
    expect(sanitize('\x1b]52;c;cm0gLXJmIH4=\x1b\\')).toBe('\\x1b]52;c;cm0gLXJmIH4=\\x1b\\');
    expect(sanitize('\x1b]0;owned\x07')).toBe('\\x1b]0;owned\\x07');
  });

  test('shows BEL, backspace, DEL, a lone carriage return and other C0 controls escaped', () => {
    expect(sanitize('a\x07b\x08c\x7fd\x00e\x0bf\x0cg')).toBe('a\\x07b\\x08c\\x7fd\\x00e\\x0bf\\x0cg');
    expect(sanitize('rm -rf ~\rls')).toBe('rm -rf ~\\rls');
  });

  test('turns a Windows line end into a plain newline', () => {
    expect(sanitize('one\r\ntwo\r\n')).toBe('one\ntwo\n');
  });

  test('shows C1 controls (a one-character CSI) escaped', () => {
    expect(sanitize('\u009b2J\u0085\u0090')).toBe('\\x9b2J\\x85\\x90');
  });

  test('shows bidi embeddings, overrides and isolates escaped', () => {
    expect(sanitize('ls \u202egnp.exe\u202c')).toBe('ls \\u202egnp.exe\\u202c');
    expect(sanitize('\u202a\u202b\u202d\u2066\u2067\u2068\u2069')).toBe(
      '\\u202a\\u202b\\u202d\\u2066\\u2067\\u2068\\u2069',
    );
  });
});
