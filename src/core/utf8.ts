// Whether bytes given as text (piped on stdin, a plan file, an @file) are UTF-8, and where they stop being: Keel
// refuses text in another encoding with one clear message, as Codex does, rather than showing U+FFFD for each
// byte it cannot read (`printf 'caf\xe9' | keel ask …`). UTF-16 with a byte-order mark is decoded.

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
