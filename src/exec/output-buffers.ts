// Bounded output of commands: the head of a command's output, or the unread tail of a background command's,
// with a count of the bytes not kept, so no stream ever buffers without limit.
import type { CapturedOutput } from '../core/runner.js';

/** Keeps the first `max` bytes of a stream and counts the rest. */
export class HeadBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    const kept = Math.min(Math.max(0, this.max - this.size), chunk.length);
    if (kept > 0) this.chunks.push(chunk.subarray(0, kept));
    this.size += kept;
    this.dropped += chunk.length - kept;
  }

  result(): CapturedOutput {
    return { text: Buffer.concat(this.chunks).toString('utf8'), dropped: this.dropped };
  }
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
    return { text: bytes.toString('utf8'), dropped };
  }
}
