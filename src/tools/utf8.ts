// Strict UTF-8 decoding for the tools that read text: a file in another encoding is reported, never patched with U+FFFD.

// ignoreBOM keeps a byte-order mark in the text, as Buffer#toString did, so a file written back keeps it.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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

/** Decodes a file's bytes as UTF-8; on invalid bytes throws an error naming where, and how to go on. */
export function decodeUtf8(data: Uint8Array, shown: string): string {
  try {
    return decoder.decode(data);
  } catch {
    const offset = invalidUtf8Offset(data) ?? 0;
    let line = 1;
    for (let i = 0; i < offset; i++) if (data[i] === 0x0a) line += 1;
    const byte = (data[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    throw new Error(
      `${shown} is not valid UTF-8: byte 0x${byte} at offset ${offset} (line ${line}) does not start a valid ` +
        'sequence. It may be in another encoding such as Latin-1 or Windows-1252: check with ' +
        `\`file ${shown}\` and convert with \`iconv -f LATIN1 -t UTF-8\` via execute_command, or read parts ` +
        'of it with the grep tool',
    );
  }
}
