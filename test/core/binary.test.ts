// Binary data told from text (a NUL byte in the first 8 KB) and what common formats are, by their first bytes.
import { describe, expect, it } from 'vitest';
import { BINARY_SNIFF_BYTES, binaryKind, looksBinary } from '../../src/core/binary.js';

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('looksBinary', () => {
  it.each([
    ['text', bytes('hello\nworld\n'), false],
    ['UTF-8 text', Buffer.from('é ü 漢字\n'), false],
    ['a NUL byte in the head', bytes('abc', [0], 'def'), true],
    ['a NUL byte past the first 8 KB only', bytes('a'.repeat(BINARY_SNIFF_BYTES), [0]), false],
    ['empty', Buffer.alloc(0), false],
  ])('%s → %s', (_label, data, expected) => {
    expect(looksBinary(data)).toBe(expected);
  });
});

describe('binaryKind', () => {
  const tar = Buffer.alloc(512);
  tar.write('ustar', 257, 'latin1');
  it.each([
    ['ELF', bytes('\x7fELF', [2, 1, 1, 0]), 'an ELF executable or library'],
    ['PE', bytes('MZ', [0x90, 0]), 'a Windows executable'],
    ['Mach-O', bytes([0xcf, 0xfa, 0xed, 0xfe, 7, 0]), 'a Mach-O executable'],
    ['wasm', bytes([0], 'asm', [1, 0, 0, 0]), 'a WebAssembly module'],
    ['gzip', bytes([0x1f, 0x8b, 8, 0]), 'a gzip archive'],
    ['zip', bytes('PK', [3, 4, 20, 0]), 'a zip archive'],
    ['xz', bytes([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0]), 'an xz archive'],
    ['tar', tar, 'a tar archive'],
    ['PDF', bytes('%PDF-1.7\n'), 'a PDF document'],
    ['SQLite', bytes('SQLite format 3', [0]), 'an SQLite database'],
    ['PNG', bytes([0x89], 'PNG\r\n', [0x1a, 0x0a, 0]), 'a PNG image'],
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0, 0]), 'a JPEG image'],
    ['unknown', bytes([1, 2, 3, 0, 4]), undefined],
    ['too short for any', bytes('M'), undefined],
  ])('%s', (_label, data, expected) => {
    expect(binaryKind(data)).toBe(expected);
  });
});
