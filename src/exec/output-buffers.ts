// Bounded output of commands: the head and the tail of a command's output, or the unread tail of a background
// command's, with a count of the bytes not kept, so no stream ever buffers without limit.
import type { CapturedOutput } from '../core/runner.js';

/**
 * Keeps the first half of `max` bytes of a stream and its last half, counting the bytes between: a build's or a
 * test run's verdict comes at its end, however much it printed before.
 */
export class HeadTailBuffer {
  private readonly head: Buffer[] = [];
  private headSize = 0;
  private readonly tail: TailBuffer;

  constructor(private readonly max: number) {
    this.tail = new TailBuffer(max - Math.ceil(max / 2));
  }

  push(chunk: Buffer): void {
    const kept = Math.min(Math.max(0, Math.ceil(this.max / 2) - this.headSize), chunk.length);
    if (kept > 0) this.head.push(chunk.subarray(0, kept));
    this.headSize += kept;
    if (kept < chunk.length) this.tail.push(chunk.subarray(kept));
  }

  result(): CapturedOutput {
    const head = Buffer.concat(this.head);
    const tail = this.tail.takeBytes();
    // Nothing left out: one text, decoded whole (a character may straddle the two halves).
    if (tail.dropped === 0) return { text: Buffer.concat([head, tail.bytes]).toString('utf8'), dropped: 0 };
    const end = completeEnd(head);
    return {
      text: head.subarray(0, end).toString('utf8'),
      dropped: tail.dropped + head.length - end,
      tail: tail.bytes.toString('utf8'),
    };
  }
}

/** Where `bytes` ends without a character cut short: before the lead byte of an incomplete last UTF-8 sequence. */
function completeEnd(bytes: Buffer): number {
  let lead = bytes.length - 1;
  while (lead > bytes.length - 4 && lead > 0 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  if (lead < 0) return bytes.length;
  const first = bytes[lead]!;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return bytes.length - lead < length ? lead : bytes.length;
}

/** Keeps the last `max` bytes written since the last take(), counting what older bytes it let go. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.max) {
      const first = this.chunks[0]!;
      const excess = this.size - this.max;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** What arrived since the last take; the buffer starts empty again. */
  take(): CapturedOutput {
    const { bytes, dropped } = this.takeBytes();
    return { text: bytes.toString('utf8'), dropped };
  }

  /** take()'s bytes, not yet decoded. */
  takeBytes(): { bytes: Buffer; dropped: number } {
    let bytes = Buffer.concat(this.chunks);
    let dropped = this.dropped;
    if (dropped > 0) {
      // The cut may have split a character: skip its continuation bytes rather than show a broken one.
      let start = 0;
      while (start < bytes.length && start < 3 && (bytes[start]! & 0xc0) === 0x80) start++;
      bytes = bytes.subarray(start);
      dropped += start;
    }
    this.chunks = [];
    this.size = 0;
    this.dropped = 0;
    return { bytes, dropped };
  }
}
