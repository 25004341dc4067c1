// A stdio MCP server as the SDK's Transport, in a process group of its own: Ctrl-C at the terminal does not reach it,
// and ending it is one signal to the whole group (npx and the server it starts), sent without waiting, so a server
// that hangs never holds Keel's exit. The SDK's own StdioClientTransport waits up to 4 s for a server to go.
import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface StdioServer {
  command: string;
  args: string[];
  /** Added to the SDK's short list of safe variables (HOME, PATH, ...); Keel's API keys are not passed. */
  env: Record<string, string>;
  cwd: string;
  /** Each chunk the server writes to stderr (piped, never inherited: it must not break the terminal or JSON output). */
  onStderr: (chunk: Buffer) => void;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private readonly buffer = new ReadBuffer();
  /** The group's id (its leader's pid), kept after close so an exit handler can still end what ignored SIGTERM. */
  private group?: number;
  private exited = false;
  private onExited?: () => void;
  /** Resolves when the server process has exited (at once when it never started). */
  readonly gone = new Promise<void>((resolve) => {
    this.onExited = resolve;
  });
  private ended = false;

  constructor(private readonly server: StdioServer) {}

  get pid(): number | null {
    return this.ended ? null : (this.child?.pid ?? null);
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the MCP server is already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.server.command, this.server.args, {
        env: { ...getDefaultEnvironment(), ...this.server.env },
        cwd: this.server.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      this.child = child;
      this.group = child.pid;
      child.once('error', (error) => {
        this.exited = true;
        this.onExited?.();
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('exit', () => {
        this.exited = true;
        this.onExited?.();
      });
      child.once('close', () => this.end());
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        this.drain();
      });
      (child.stderr as Readable | null)?.on('data', this.server.onStderr);
    });
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
      const stdin = this.child?.stdin;
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
    const child = this.child;
    if (!child) this.onExited?.();
    if (!child || this.ended) return;
    this.signal('SIGTERM');
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    // Keel may exit now: the child no longer holds the event loop open.
    child.unref();
    this.end();
  }

  /** Synchronous, for process exit: SIGKILL to the group unless its leader is known to have gone. */
  killAtExit(): void {
    if (!this.exited) this.signal('SIGKILL');
  }

  /** The whole group (npx and the server it started). */
  signal(signal: NodeJS.Signals): void {
    if (this.group === undefined) return;
    try {
      process.kill(-this.group, signal);
    } catch {
      // The group is gone already; its leader alone, if it somehow is not.
      if (!this.exited) this.child?.kill(signal);
    }
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
