// Binary data told from text as git and grep tell it (a NUL byte in the first 8 KB), and what some common formats
// are by their first bytes: what the file tools refuse to read and what `keel ask` describes instead of sending.
import { imageType } from './images.js';

/** How far into the data a NUL byte marks it binary. */
export const BINARY_SNIFF_BYTES = 8192;

export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Formats by the bytes they start with (or hold at `offset`), as data; a string is its ASCII bytes. */
const SIGNATURES: readonly { kind: string; bytes: string | readonly number[]; offset?: number }[] = [
  { kind: 'an ELF executable or library', bytes: '\x7fELF' },
  { kind: 'a Windows executable', bytes: 'MZ' },
  { kind: 'a Mach-O executable', bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { kind: 'a Mach-O executable', bytes: [0xce, 0xfa, 0xed, 0xfe] },
  { kind: 'a WebAssembly module', bytes: '\0asm' },
  { kind: 'a gzip archive', bytes: [0x1f, 0x8b] },
  { kind: 'a bzip2 archive', bytes: 'BZh' },
  { kind: 'an xz archive', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { kind: 'a zstd archive', bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { kind: 'a zip archive', bytes: 'PK\x03\x04' },
  { kind: 'a 7-Zip archive', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { kind: 'a tar archive', bytes: 'ustar', offset: 257 },
  { kind: 'a PDF document', bytes: '%PDF-' },
  { kind: 'an SQLite database', bytes: 'SQLite format 3\0' },
];

/** What these bytes are (`an ELF executable or library`, `a PNG image`), or undefined when not recognised. */
export function binaryKind(bytes: Uint8Array): string | undefined {
  const image = imageType(bytes);
  if (image) return `a ${image.slice('image/'.length).toUpperCase()} image`;
  const found = SIGNATURES.find(({ bytes: signature, offset = 0 }) => {
    const expected = typeof signature === 'string' ? [...signature].map((c) => c.charCodeAt(0)) : signature;
    return expected.length > 0 && expected.every((b, i) => bytes[offset + i] === b);
  });
  return found?.kind;
}
