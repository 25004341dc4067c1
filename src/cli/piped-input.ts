// Text piped to `keel ask` and `keel run` on stdin: read within a memory bound, capped to what the model's context
// can spare (head and tail, with a note saying what was left out), and attached to the question, or, without one
// (`cat task.md | keel run`), the goal itself. Binary input is described, not sent (an image goes as an image to a
// model that reads them).
import { fstatSync } from 'node:fs';
import { binaryKind, looksBinary } from '../core/binary.js';
import { imageFromBytes, imageType, MAX_IMAGE_BYTES } from '../core/images.js';
import type { ImagePart } from '../core/messages.js';
import type { ModelCapabilities } from '../core/model.js';
import { groupDigits, utf8Prefix, utf8Suffix } from '../core/text.js';
import { invalidUtf8Byte, invalidUtf8Offset, latinBytesToUtf8, utf16ToUtf8 } from '../core/utf8.js';
import { promptBudget } from '../providers/capabilities.js';
import type { ImageAttaching } from './chat-attach.js';

/** What was read: the first and last bytes kept, and how many bytes came in all. */
export interface PipedInput {
  head: Buffer;
  tail: Buffer;
  totalBytes: number;
  /** Said on stderr before the run: bytes that were not UTF-8 and how they were read (utf8Piped). */
  note?: string;
}

/** Kept of each end while reading, so an endless or huge pipe never fills memory. */
const keepBytes = 1024 * 1024;

/** Reads a stream to its end, keeping at most `keep` bytes of its head and of its tail. */
export async function readPiped(stream: AsyncIterable<unknown>, keep = keepBytes): Promise<PipedInput> {
  const head: Buffer[] = [];
  let headBytes = 0;
  let tail: Buffer[] = [];
  let tailBytes = 0;
  let totalBytes = 0;
  for await (const raw of stream) {
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw));
    totalBytes += chunk.length;
    let rest = chunk;
    if (headBytes < keep) {
      const taken = rest.subarray(0, keep - headBytes);
      head.push(taken);
      headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0) continue;
    tail.push(rest);
    tailBytes += rest.length;
    if (tailBytes > keep * 2) {
      const joined = Buffer.concat(tail);
      tail = [joined.subarray(joined.length - keep)];
      tailBytes = keep;
    }
  }
  const tailBuffer = Buffer.concat(tail);
  return {
    head: Buffer.concat(head),
    tail: tailBuffer.subarray(Math.max(0, tailBuffer.length - keep)),
    totalBytes,
  };
}

/**
 * Whether stdin may hold piped text, from its file type alone: not a character device (a terminal, or the /dev/null
 * that cron, CI and other programs give), not an empty file, not closed. Reading /dev/null to its end took a stream
 * and the thread pool, about 4 ms, before the first request.
 */
export function stdinMayHoldText(fd = 0): boolean {
  try {
    const stat = fstatSync(fd);
    return !stat.isCharacterDevice() && !(stat.isFile() && stat.size === 0);
  } catch {
    return false;
  }
}

/** Nothing but whitespace was piped (an empty goal). */
export function pipedBlank(piped: PipedInput): boolean {
  return !piped.head.toString('utf8').trim() && !piped.tail.toString('utf8').trim();
}

/** stdin when something was piped or redirected to it, else undefined; text not all UTF-8 is made so (utf8Piped). */
export async function readStdinIfPiped(): Promise<PipedInput | undefined> {
  // A terminal is a character device: never read here.
  if (!stdinMayHoldText()) return undefined;
  const piped = await readPiped(process.stdin);
  return piped.totalBytes === 0 ? undefined : utf8Piped(piped);
}

/**
 * The piped input as UTF-8: UTF-16 with a byte-order mark converted; each byte that is not UTF-8 (a Latin-1 or
 * Windows-1252 letter) read as Windows-1252, saying so in `note`: decoded as UTF-8 it would reach the model as
 * U+FFFD, and refusing the whole input would lose a diff that mixes a Latin-1 file with UTF-8 ones. Binary input (an
 * image, NUL bytes) is left for capPiped to describe.
 */
export function utf8Piped(piped: PipedInput): PipedInput {
  const whole = piped.head.length + piped.tail.length === piped.totalBytes;
  if (whole) {
    const converted = utf16ToUtf8(Buffer.concat([piped.head, piped.tail]));
    if (converted) return { head: converted, tail: Buffer.alloc(0), totalBytes: converted.length };
  }
  if (imageType(piped.head) !== undefined || looksBinary(piped.head)) return piped;
  const head = whole ? Buffer.concat([piped.head, piped.tail]) : piped.head;
  // A character cut where only the head and tail of a long input were kept is no fault.
  let skip = 0;
  while (!whole && skip < 3 && (piped.tail[skip]! & 0xc0) === 0x80) skip++;
  const tail = whole ? Buffer.alloc(0) : piped.tail.subarray(skip);
  const inTail = whole ? undefined : invalidUtf8Offset(tail);
  const headFixed = latinBytesToUtf8(head, !whole);
  const tailFixed = latinBytesToUtf8(tail);
  if (!headFixed && !tailFixed) return piped;
  const where = headFixed
    ? invalidUtf8Byte(head, headFixed.first)
    : invalidUtf8Byte(tail, inTail ?? 0, piped.totalBytes - piped.tail.length + skip);
  const count = (headFixed?.count ?? 0) + (tailFixed?.count ?? 0);
  const newHead = headFixed?.bytes ?? head;
  const newTail = whole
    ? Buffer.alloc(0)
    : Buffer.concat([piped.tail.subarray(0, skip), tailFixed?.bytes ?? tail]);
  return {
    head: newHead,
    tail: newTail,
    totalBytes:
      piped.totalBytes + (newHead.length - head.length) + (whole ? 0 : newTail.length - piped.tail.length),
    note: `stdin is not all UTF-8: ${count === 1 ? '' : `${count} bytes, the first `}${where}, read as Windows-1252 (Latin-1); if the text is in another encoding, convert it first (iconv -f <encoding> -t UTF-8)`,
  };
}

/** Bytes of piped input one message may carry: half the prompt budget at 4 bytes a token, within sane bounds. */
export function pipedBudget(capabilities: ModelCapabilities | undefined): number {
  const tokens = promptBudget(capabilities) ?? 32_768;
  return Math.min(256 * 1024, Math.max(8 * 1024, Math.floor(tokens / 2) * 4));
}

export interface CappedInput {
  text: string;
  /** Set when something was left out or not sent: what the user is told (and, for text, the model). */
  note?: string;
  /** Binary input, not sent as text: what it is, for the model (`a PNG image, 1,024 bytes, attached as an image`). */
  binary?: string;
  /** Piped image bytes, for a model that reads images. */
  image?: ImagePart;
}

/**
 * Binary input (a NUL byte in its head, or an image): described, never sent decoded as text; an image whole at hand
 * and within the limit goes as an image to a model that reads them. Undefined for text.
 */
function binaryInput(piped: PipedInput, imaging: Omit<ImageAttaching, 'only'>): CappedInput | undefined {
  const isImage = imageType(piped.head) !== undefined;
  if (!isImage && !looksBinary(piped.head)) return undefined;
  const what = `${binaryKind(piped.head) ?? 'binary data'}, ${groupDigits(piped.totalBytes)} bytes`;
  const whole = piped.head.length + piped.tail.length === piped.totalBytes;
  const why = !isImage
    ? undefined
    : !imaging.readsImages
      ? `${imaging.model} cannot read images (choose a model that can)`
      : !whole || piped.totalBytes > MAX_IMAGE_BYTES
        ? 'it is too large to attach'
        : undefined;
  const image =
    isImage && !why ? imageFromBytes(Buffer.concat([piped.head, piped.tail]), 'stdin') : undefined;
  if (image) return { text: '', binary: `${what}, attached as an image`, image };
  return {
    text: '',
    binary: `${what}, not shown`,
    note: `stdin holds binary input (${what}): not sent to the model, only described${why ? `; ${why}` : ''}`,
  };
}

/**
 * The piped text within `budget` bytes: whole when it fits, else its first two thirds and last third of the budget.
 * Binary input is described instead (see binaryInput).
 */
export function capPiped(
  piped: PipedInput,
  budget: number,
  imaging: Omit<ImageAttaching, 'only'> = { readsImages: false, model: 'this model' },
): CappedInput {
  const binary = binaryInput(piped, imaging);
  if (binary) return binary;
  // Everything read is at hand when nothing was dropped between head and tail; then both ends come from it.
  const whole = piped.head.length + piped.tail.length === piped.totalBytes;
  const all = whole ? Buffer.concat([piped.head, piped.tail]).toString('utf8') : undefined;
  if (all !== undefined && piped.totalBytes <= budget) return { text: all };
  const headText = utf8Prefix(all ?? piped.head.toString('utf8'), Math.floor((budget * 2) / 3));
  const tailText = utf8Suffix(all ?? piped.tail.toString('utf8'), Math.floor(budget / 3));
  const kept = Buffer.byteLength(headText) + Buffer.byteLength(tailText);
  const left = piped.totalBytes - kept;
  return {
    text: `${headText}\n[… ${groupDigits(left)} bytes left out …]\n${tailText}`,
    note: `the piped input was capped: ${groupDigits(piped.totalBytes)} bytes, of which the first ${groupDigits(Buffer.byteLength(headText))} and the last ${groupDigits(Buffer.byteLength(tailText))} are shown`,
  };
}

/** The user's message: the question, then the piped input between <stdin> tags (with the cap's note). */
export function withPipedInput(question: string, input: CappedInput): string {
  if (input.binary !== undefined) return `${question}\n\nInput piped to keel on stdin: ${input.binary}.`;
  const note = input.note ? `(${input.note})\n` : '';
  return `${question}\n\nInput piped to keel on stdin:\n${note}<stdin>\n${input.text.replace(/\n$/, '')}\n</stdin>`;
}

/** A goal piped without a question (`cat task.md | keel run`): the text itself, after the cap's note when it was cut. */
export function pipedGoal(input: CappedInput): string {
  if (input.binary !== undefined) return withPipedInput('', input).trimStart();
  return input.note ? `(${input.note})\n${input.text}` : input.text;
}
