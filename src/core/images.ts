// Image files as Keel sends them to models: recognised by their first bytes (not their name), hashed, base64.
import { createHash } from 'node:crypto';
import type { ImagePart } from './messages.js';

/** The providers' common limit (Anthropic's is 5 MB per image); larger images are refused with a message. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The image type of these bytes, from their signature: PNG, JPEG, GIF or WebP; else undefined. */
export function imageType(bytes: Uint8Array): string | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP')
    return 'image/webp';
  return undefined;
}

/** Whether a path names an image by its extension (what is worth reading to check the signature). */
export const IMAGE_EXTENSION = /\.(png|jpe?g|gif|webp)$/i;

/** The image part for these bytes, or undefined when they are not an image Keel sends. */
export function imageFromBytes(bytes: Buffer, name: string): ImagePart | undefined {
  const mediaType = imageType(bytes);
  if (!mediaType) return undefined;
  return {
    type: 'image',
    mediaType,
    data: bytes.toString('base64'),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    name,
  };
}
