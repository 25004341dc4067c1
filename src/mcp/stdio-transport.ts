// A stdio MCP server as the SDK's Transport, over a server process (server-process.ts) that a run may have started
// before the SDK loaded. Closing it ends the process group without waiting, so a server that hangs never holds
// Keel's exit. The SDK's own StdioClientTransport waits up to 4 s for a server to go.
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ServerProcess } from './server-process.js';

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private process?: ServerProcess;
  private readonly buffer = new ReadBuffer();
  private ended = false;
  private started = false;

  /** `open` gives the server's process at start(): one it spawns then, or one the run started at launch. */
  constructor(private readonly open: () => ServerProcess) {}

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
      this.buffer.append(chunk);
      this.drain();
    });
    await server.spawned;
    if (server.closed) queueMicrotask(() => this.end());
    else child.once('close', () => this.end());
  }

  private drain(): void {
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
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

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
