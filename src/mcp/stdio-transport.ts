// A stdio MCP server as the SDK's Transport, over a server process (server-process.ts) that a run may have started
// before the SDK loaded. Closing it ends the process group without waiting, so a server that hangs never holds
// Keel's exit. The SDK's own StdioClientTransport waits up to 4 s for a server to go. A message too large to buffer
// stops the server with that reason (the SDK's transport does the same), never Keel.
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ServerProcess } from './server-process.js';

/**
 * The largest message read from a server. The SDK's default is 10 MB, which a 5 MB file read through
 * server-filesystem passes (its text comes twice: content and structuredContent); the output cap cuts what the
 * model sees anyway.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const MB = 1024 * 1024;
const sizeOf = (bytes: number): string => (bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${bytes} bytes`);

/**
 * A server's stdout as lines. The SDK's ReadBuffer concatenates its whole buffer at every chunk, which is quadratic:
 * a 60 MB message took 45 s of CPU. Here the pieces of the unfinished line are joined once, at its newline.
 */
export class LineBuffer {
  private pieces: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** The lines this chunk completes; throws once the unfinished line is longer than the limit (it is dropped). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const tail = chunk.subarray(start, end);
      const line = this.pieces.length > 0 ? Buffer.concat([...this.pieces, tail]) : tail;
      this.clear();
      lines.push(line.toString('utf8').replace(/\r$/, ''));
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.size + rest.length > this.maxLineBytes) {
        this.clear();
        throw new Error(`a message over ${this.maxLineBytes} bytes`);
      }
      this.pieces.push(rest);
      this.size += rest.length;
    }
    return lines;
  }

  clear(): void {
    this.pieces = [];
    this.size = 0;
  }
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private process?: ServerProcess;
  private readonly buffer: LineBuffer;
  private ended = false;
  private started = false;
  /** Why Keel stopped the server itself (a message too large), for the warning that it stopped. */
  stopReason?: string;

  /** `open` gives the server's process at start(): one it spawns then, or one the run started at launch. */
  constructor(
    private readonly open: () => ServerProcess,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {
    this.buffer = new LineBuffer(maxMessageBytes);
  }

  get pid(): number | null {
    return this.ended ? null : (this.process?.pid ?? null);
  }

  /** Resolves when the server process has exited (at once when it never started). */
  get gone(): Promise<void> {
    return this.process?.gone ?? Promise.resolve();
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('the MCP server is already started');
    this.started = true;
    const server = this.open();
    this.process = server;
    const { child } = server;
    child.once('error', (error) => this.onerror?.(error));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    // What the server wrote before the client existed waited in the paused stream.
    child.stdout?.on('data', (chunk: Buffer) => {
      if (this.ended) return;
      let lines: string[];
      try {
        lines = this.buffer.push(chunk);
      } catch (error) {
        this.stopReason = `sent a message over ${sizeOf(this.maxMessageBytes)}, more than Keel reads`;
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        void this.close();
        return;
      }
      this.deliver(lines);
    });
    await server.spawned;
    if (server.closed) queueMicrotask(() => this.end());
    else child.once('close', () => this.end());
  }

  private deliver(lines: string[]): void {
    for (const line of lines) {
      try {
        this.onmessage?.(deserializeMessage(line));
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.process?.child.stdin;
      if (!stdin || stdin.destroyed) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server at once: SIGTERM to its group, pipes closed, nothing awaited; pending requests fail now. */
  async close(): Promise<void> {
    if (!this.process || this.ended) return;
    this.process.end();
    this.end();
  }

  /** Synchronous, for process exit: SIGKILL to the group unless its leader is known to have gone. */
  killAtExit(): void {
    this.process?.killAtExit();
  }

  stderrTail(): string {
    return this.process?.stderrTail() ?? '';
  }

  /** How the server process ended (`exit code 3`), once it has. */
  exitStatus(): string | undefined {
    return this.process?.exitStatus;
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
