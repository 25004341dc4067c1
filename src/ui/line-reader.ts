// Reads lines from a stream one at a time, for the REPL and its approval questions alike.
import { createInterface, type Interface } from 'node:readline';

export class LineReader {
  private readonly rl: Interface;
  private readonly queue: string[] = [];
  private waiting: ((line: string | null) => void) | undefined;
  private closed = false;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly interactive: boolean,
  ) {
    this.rl = createInterface({ input, output: interactive ? output : undefined, terminal: interactive });
    this.rl.on('line', (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(line);
      } else this.queue.push(line);
    });
    this.rl.on('close', () => {
      this.closed = true;
      this.waiting?.(null);
      this.waiting = undefined;
    });
  }

  /** Resolves with the next line, or null at end of input. */
  read(prompt: string): Promise<string | null> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closed) return Promise.resolve(null);
    if (this.interactive) this.output.write(prompt);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  onInterrupt(handler: () => void): void {
    this.rl.on('SIGINT', handler);
  }

  close(): void {
    this.rl.close();
  }
}
