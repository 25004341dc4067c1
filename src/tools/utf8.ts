// Strict UTF-8 decoding for the tools that read text: a file in another encoding is reported, never patched with U+FFFD.
import { invalidUtf8Offset } from '../core/utf8.js';

// ignoreBOM keeps a byte-order mark in the text, as Buffer#toString did, so a file written back keeps it.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export { invalidUtf8Offset };

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
