// Tests for strict UTF-8 decoding: where the first invalid byte is, and what a decoding error says.
import { describe, expect, test } from 'vitest';
import { decodeUtf8, invalidUtf8Offset } from '../../src/tools/utf8.js';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('invalidUtf8Offset', () => {
  test.each([
    ['ASCII', bytes(0x61, 0x0a)],
    ['two, three and four-byte characters', new TextEncoder().encode('é€𝄞')],
    ['the largest code point U+10FFFF', bytes(0xf4, 0x8f, 0xbf, 0xbf)],
    ['the last code point before the surrogates', bytes(0xed, 0x9f, 0xbf)],
  ])('accepts %s', (_name, data) => {
    expect(invalidUtf8Offset(data)).toBeUndefined();
  });

  test.each([
    ['a lone continuation byte', bytes(0x61, 0x80), 1],
    ['a Latin-1 byte', bytes(0x63, 0x61, 0x66, 0xe9, 0x0a), 3],
    ['an overlong two-byte form', bytes(0xc0, 0xaf), 0],
    ['an overlong three-byte form', bytes(0x61, 0xe0, 0x80, 0xaf), 1],
    ['an overlong four-byte form', bytes(0xf0, 0x80, 0x80, 0xaf), 0],
    ['a surrogate', bytes(0xed, 0xa0, 0x80), 0],
    ['a code point past U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['a byte that never appears', bytes(0x61, 0x62, 0xff), 2],
    ['a sequence cut short by the end', bytes(0x61, 0xe2, 0x82), 1],
    ['a sequence cut short by ASCII', bytes(0xe2, 0x82, 0x61), 0],
  ])('finds %s', (_name, data, offset) => {
    expect(invalidUtf8Offset(data)).toBe(offset);
  });

  test('agrees with a fatal TextDecoder on where decoding fails', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const prefix = new TextEncoder().encode('ok\nstill ok\n');
    const data = Uint8Array.from([...prefix, 0xe2, 0x28, 0xa1]);
    expect(() => decoder.decode(data)).toThrow();
    expect(() => decoder.decode(data.subarray(0, invalidUtf8Offset(data)))).not.toThrow();
  });
});

describe('decodeUtf8', () => {
  test('names the file, the byte, its offset and line, and how to go on', () => {
    const data = Uint8Array.from([...new TextEncoder().encode('a\nb\n'), 0x92]);
    expect(() => decodeUtf8(data, 'notes.txt')).toThrow(
      /^notes\.txt is not valid UTF-8: byte 0x92 at offset 4 \(line 3\).*`file notes\.txt`.*iconv/s,
    );
  });
});
