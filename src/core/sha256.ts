// SHA-256 of a string without node:crypto, for the few hashes every run takes before its first model request (the
// workspace's key, the sandbox probe's cache key): loading node:crypto costs 4-8 ms here, more than all the hashing
// a run does before that request. Everything else hashes with node:crypto.
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/** The SHA-256 digest of `text`'s UTF-8 bytes, as lowercase hex (what createHash('sha256') gives). */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
