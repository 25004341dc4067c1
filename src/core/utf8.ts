// Whether bytes given as text (piped on stdin, a plan file, an @file) are UTF-8, and where they stop being: a file in
// another encoding is refused with one clear message rather than shown as U+FFFD for each byte Keel cannot read;
// piped text has each such byte read as Windows-1252 (`git diff` of a Latin-1 file among UTF-8 ones keeps every
// letter). UTF-16 with a byte-order mark is decoded.

/**
 * The offset of the first byte that does not start a well-formed UTF-8 sequence (Unicode table 3-7: no overlong
 * forms, surrogates or code points past U+10FFFF), or undefined when all of `bytes` is well formed.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    let length: number;
    // The allowed range of the second byte; later ones are always 80..BF.
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const byte = bytes[i + k];
      if (byte === undefined || byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return undefined;
}

/** The first invalid byte, in words: "byte 0xE9 at offset 3 (line 1)"; `from` counts offsets from a later start. */
export function invalidUtf8Byte(bytes: Uint8Array, offset: number, from = 0): string {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line += 1;
  const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return `byte 0x${byte} at offset ${from + offset}${from === 0 ? ` (line ${line})` : ''}`;
}

/** Where `bytes` are not UTF-8, in words, or undefined when they are. */
export function utf8Problem(bytes: Uint8Array): string | undefined {
  const offset = invalidUtf8Offset(bytes);
  return offset === undefined ? undefined : invalidUtf8Byte(bytes, offset);
}

/** What to do about it, for a hint: the usual other encoding, and the command that converts it. */
export const CONVERT_HINT =
  'it may be Latin-1 or Windows-1252: convert it to UTF-8 first, e.g. with `iconv -f WINDOWS-1252 -t UTF-8`';

/**
 * Why a file's first bytes (`head`, the file cut there when `cut`) cannot be sent as text, or undefined when they are
 * UTF-8: an @file in the chat or in a command file is skipped with this reason. A sequence broken by the cut is fine.
 */
export function notUtf8Reason(head: Uint8Array, cut: boolean): string | undefined {
  const offset = invalidUtf8Offset(head);
  if (offset === undefined || (cut && offset >= head.length - 3)) return undefined;
  return `not UTF-8 text (${invalidUtf8Byte(head, offset)}); ${CONVERT_HINT}`;
}

/** UTF-16 text with a byte-order mark as UTF-8 bytes (a Windows editor's or PowerShell's), else undefined. */
export function utf16ToUtf8(bytes: Uint8Array): Buffer | undefined {
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : undefined;
  // FF FE 00 00 is UTF-32's mark: not decoded here, refused as not UTF-8.
  if (encoding === undefined || (bytes[2] === 0 && bytes[3] === 0)) return undefined;
  try {
    return Buffer.from(new TextDecoder(encoding, { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

/**
 * Windows-1252's characters for the bytes 0x80–0x9F (WHATWG's index; the five it leaves undefined stay C1 controls,
 * as the Encoding Standard maps them); above, it is Latin-1. Node 20's TextDecoder('windows-1252') decodes as
 * Latin-1 (curly quotes become C1 controls), so the table is here.
 */
const CP1252_80_9F = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];
const windows1252 = (byte: number): string =>
  String.fromCodePoint(byte >= 0x80 && byte <= 0x9f ? CP1252_80_9F[byte - 0x80]! : byte);

/**
 * `bytes` as UTF-8, each byte that starts no well-formed UTF-8 sequence read as Windows-1252 (Latin-1's superset),
 * with how many such bytes there were and the first one's offset; undefined when all of `bytes` is UTF-8. `cutEnd`: a sequence in the last
 * three bytes is left as it is (the input was cut there).
 */
export function latinBytesToUtf8(
  bytes: Uint8Array,
  cutEnd = false,
): { bytes: Buffer; count: number; first: number } | undefined {
  let offset = invalidUtf8Offset(bytes);
  if (offset === undefined) return undefined;
  const first = offset;
  const parts: Uint8Array[] = [];
  let from = 0;
  let count = 0;
  while (offset !== undefined) {
    const at = from + offset;
    if (cutEnd && at >= bytes.length - 3) break;
    parts.push(bytes.subarray(from, at), Buffer.from(windows1252(bytes[at]!)));
    count += 1;
    from = at + 1;
    offset = invalidUtf8Offset(bytes.subarray(from));
  }
  if (count === 0) return undefined;
  parts.push(bytes.subarray(from));
  return { bytes: Buffer.concat(parts), count, first };
}
