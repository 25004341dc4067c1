// A Language Server Protocol client over stdio (vscode-jsonrpc): starts the server in its own process group,
// initializes it for one workspace, answers the requests servers make of their client, keeps the diagnostics it
// publishes, and bounds every request by a timeout and the caller's AbortSignal. Shutdown ends the whole group.
import { type ChildProcess, spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import type {
  ClientCapabilities,
  ConfigurationParams,
  InitializeResult,
  PublishDiagnosticsParams,
  RegistrationParams,
  ServerCapabilities,
  UnregistrationParams,
} from 'vscode-languageserver-protocol';

export interface LspServerSpec {
  /** 'pyright', 'gopls', or the configured name: shown in every error. */
  id: string;
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** The answer to `workspace/configuration` for a section (null: the server's defaults). */
  settings?: (section: string | undefined) => unknown;
  initializationOptions?: unknown;
  /**
   * A notification that says the server has read the workspace. Pyright answers requests made before it found
   * the workspace's files from the open files alone, so requests wait for this (at most the start timeout).
   */
  readyWhen?: (method: string, params: unknown) => boolean;
}

export interface LspClientOptions {
  /** Longest wait for one request (default 30 s); the first one may have to analyse the whole workspace. */
  requestTimeoutMs?: number;
  /** Longest wait for `initialize` (default 60 s). */
  startTimeoutMs?: number;
}

/** A language server that could not start, exited, or did not answer in time. */
export class LspError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LspError';
  }
}

/** Diagnostics as the server last published them for a URI, numbered in order of arrival. */
export interface Published {
  params: PublishDiagnosticsParams;
  sequence: number;
}

const clientCapabilities: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    workspaceEdit: { documentChanges: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false },
    references: {},
    definition: {},
    rename: { prepareSupport: true },
    publishDiagnostics: { versionSupport: true },
    // Pull diagnostics answer for the text as it is now; pyright offers them only by dynamic registration.
    diagnostic: { dynamicRegistration: true },
  },
};

export class LspClient {
  readonly published = new Map<string, Published>();
  #sequence = 0;
  #listeners = new Set<() => void>();
  #exited: string | undefined;
  #closing = false;
  /** Dynamic registrations: id → method. */
  readonly #registered = new Map<string, string>();
  capabilities: ServerCapabilities = {};
  #markReady: () => void = () => {};
  /** Resolves when the server has read the workspace (at once for servers without `readyWhen`). */
  readonly ready: Promise<void>;

  private constructor(
    readonly spec: LspServerSpec,
    readonly root: string,
    readonly child: ChildProcess,
    readonly connection: MessageConnection,
    readonly requestTimeoutMs: number,
    startTimeoutMs: number,
  ) {
    this.ready = spec.readyWhen
      ? new Promise((resolve) => {
          const timer = setTimeout(resolve, startTimeoutMs);
          this.#markReady = () => {
            clearTimeout(timer);
            resolve();
          };
        })
      : Promise.resolve();
  }

  /** Starts `spec` for the workspace `root` and completes the initialize handshake. */
  static async start(spec: LspServerSpec, root: string, options: LspClientOptions = {}): Promise<LspClient> {
    const child = spawn(spec.command, [...spec.args], {
      cwd: root,
      env: spec.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so close() can end helpers the server started (pyright's workers, gopls' children).
      detached: true,
    });
    // Drained (a full pipe would stall the server); only the tail is kept, to say why a server exited.
    let stderrTail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2_000);
    });
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout as NodeJS.ReadableStream),
      new StreamMessageWriter(child.stdin as NodeJS.WritableStream),
    );
    const startTimeoutMs = options.startTimeoutMs ?? 60_000;
    const client = new LspClient(
      spec,
      root,
      child,
      connection,
      options.requestTimeoutMs ?? 30_000,
      startTimeoutMs,
    );
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(new LspError(`${spec.id} could not start (${spec.command}: ${error.message})`)),
      );
    });
    child.once('exit', (code, signal) => client.#onExit(code, signal, stderrTail));
    child.stdin?.on('error', () => {}); // EPIPE after a crash; the exit handler reports it
    client.#listen();
    connection.listen();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await spawned;
      await client.#initialize(startTimeoutMs);
    } catch (error) {
      // A server that died at start fails the handshake with a broken pipe: why it exited (its last words on
      // stderr) says more, once its exit is in.
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 500).unref())]);
      const why = client.#exited;
      client.kill();
      throw why ? new LspError(why) : error;
    }
    return client;
  }

  get uri(): string {
    return pathToFileURL(this.root).href;
  }

  /** Whether the server answers textDocument/diagnostic (declared at start or registered since). */
  get pullsDiagnostics(): boolean {
    return (
      this.capabilities.diagnosticProvider !== undefined ||
      [...this.#registered.values()].includes('textDocument/diagnostic')
    );
  }

  /** Why the server is gone, or undefined while it runs. */
  get exited(): string | undefined {
    return this.#exited;
  }

  #listen(): void {
    const { connection, spec } = this;
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.published.set(params.uri, { params, sequence: ++this.#sequence });
      for (const listener of this.#listeners) listener();
    });
    connection.onRequest('workspace/configuration', (params: ConfigurationParams) =>
      params.items.map((item) => spec.settings?.(item.section) ?? null),
    );
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: this.uri, name: 'workspace' }]);
    connection.onRequest('client/registerCapability', (params: RegistrationParams) => {
      for (const r of params.registrations) this.#registered.set(r.id, r.method);
      return null;
    });
    connection.onRequest('client/unregisterCapability', (params: UnregistrationParams) => {
      for (const r of params.unregisterations) this.#registered.delete(r.id);
      return null;
    });
    // Progress tokens, message boxes and refresh requests (workspace/diagnostic/refresh...) need no answer beyond
    // an acknowledgement. An error reply is no option: pyright leaves it unhandled and exits.
    connection.onRequest(() => null);
    // Keel applies edits itself, after checking them; a server's own edits are declined.
    connection.onRequest('workspace/applyEdit', () => ({ applied: false }));
    connection.onNotification((method: string, params: unknown) => {
      if (spec.readyWhen?.(method, params)) this.#markReady();
    });
    // A closed pipe is followed by the process's exit, which says how it ended.
    connection.onError(() => {});
  }

  async #initialize(timeoutMs: number): Promise<void> {
    const result = await this.request<InitializeResult>(
      'initialize',
      {
        processId: process.pid,
        clientInfo: { name: 'keel' },
        rootUri: this.uri,
        rootPath: this.root,
        workspaceFolders: [{ uri: this.uri, name: 'workspace' }],
        capabilities: clientCapabilities,
        initializationOptions: this.spec.initializationOptions,
      },
      undefined,
      timeoutMs,
    );
    this.capabilities = result.capabilities ?? {};
    this.notify('initialized', {});
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null, stderr: string): void {
    if (this.#exited) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const said = stderr.trim().split('\n').at(-1)?.trim().slice(0, 200);
    this.#exited = this.#closing
      ? `${this.spec.id} was closed`
      : `${this.spec.id} exited (${how})${said ? `: ${said}` : ''}`;
    this.#markReady();
    for (const listener of this.#listeners) listener();
    this.connection.dispose();
  }

  /** Calls `listener` on every publishDiagnostics and when the server exits; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  notify(method: string, params: unknown): void {
    if (this.#exited) throw new LspError(this.#exited);
    void this.connection.sendNotification(method, params).catch(() => {});
  }

  /** One request, rejected with an LspError when the server exits, `timeoutMs` passes, or `signal` aborts. */
  async request<R>(method: string, params: unknown, signal?: AbortSignal, timeoutMs?: number): Promise<R> {
    if (this.#exited) throw new LspError(this.#exited);
    signal?.throwIfAborted();
    const limit = timeoutMs ?? this.requestTimeoutMs;
    const source = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let unsubscribe = () => {};
    let onAbort = () => {};
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        source.cancel();
        reject(new LspError(`${this.spec.id} did not answer ${method} within ${duration(limit)}`));
      }, limit);
      unsubscribe = this.onChange(() => {
        if (this.#exited) reject(new LspError(this.#exited));
      });
      onAbort = () => {
        source.cancel();
        reject(signal?.reason ?? new LspError(`${method} was aborted`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([this.connection.sendRequest<R>(method, params, source.token), stopped]);
    } catch (error) {
      if (this.#exited) throw new LspError(this.#exited);
      throw error;
    } finally {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }

  /** shutdown + exit, then the process group is killed (helpers the server left behind, or all of it after `graceMs`). */
  async close(graceMs = 2_000): Promise<void> {
    this.#closing = true;
    if (!this.#exited) {
      try {
        await this.request('shutdown', null, undefined, graceMs);
        this.notify('exit', null);
      } catch {
        // A server that does not shut down politely is killed below.
      }
      await this.#exit(graceMs);
    }
    this.kill();
    await this.#exit(graceMs);
  }

  /** Waits for the process to exit, at most `ms`. */
  #exit(ms: number): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Ends the server's whole process group now. */
  kill(): void {
    this.#closing = true;
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** "300 ms", "30 s": for messages. */
export function duration(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Math.round(ms / 1_000)} s`;
}
