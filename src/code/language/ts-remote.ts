// The TypeScript service in a worker thread: the compiler builds a project's program synchronously (seconds in a
// big monorepo), which on the run's own thread stopped Ctrl-C, the spinner and streamed output until it was done.
// The worker (ts-worker.ts, built as ts-worker.cjs beside the bundle) holds the service; this side forwards each
// call as a message. An aborted call is answered at once here; the worker finishes what it was doing (a deadline
// still stops its compiler work) and is told of the abort for work not yet begun.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
  Diagnostic,
  FileChange,
  LanguageService,
  RenameOptions,
  SourceLocation,
  SourcePosition,
} from './service.js';

/** What the worker is asked: a method of the service and its arguments (signals stay on this side). */
export type TsRequest =
  | { id: number; method: 'references'; at: SourcePosition }
  | { id: number; method: 'rename'; at: SourcePosition; newName: string; options: RenameOptions }
  | {
      id: number;
      method: 'diagnostics';
      paths: string[];
      overlay: ReadonlyMap<string, string> | undefined;
      deadline: number;
    }
  | { id: number; method: 'prepare'; paths: string[] }
  | { id: number; method: 'close' };

/** A request before it is numbered. */
type Unnumbered = TsRequest extends infer R ? (R extends TsRequest ? Omit<R, 'id'> : never) : never;

/** Messages to the worker: requests, and what needs no answer. */
export type TsMessage = TsRequest | { method: 'changed'; paths: string[] } | { method: 'cancel'; id: number };

/** The worker's answer to request `id`: its result, or the error it threw (name and message). */
export type TsAnswer =
  | { id: number; result: unknown }
  | { id: number; error: { name: string; message: string } };

/** The built worker beside the bundle (dist/ for the CLI, dist/lib/ for the library), or undefined from the sources. */
export function tsWorkerFile(): string | undefined {
  for (const relative of ['./ts-worker.cjs', '../ts-worker.cjs']) {
    const file = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(file)) return file;
  }
  return undefined;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** Restarts after a worker dies (out of memory, a crash in the compiler): one that keeps dying is given up on. */
const MAX_RESTARTS = 2;

class RemoteTypeScriptService implements LanguageService {
  readonly id = 'typescript';
  #next = 1;
  readonly #pending = new Map<number, Pending>();
  /** Why the worker is gone; the next call starts another unless it died MAX_RESTARTS times already. */
  #failed: Error | undefined;
  #restarts = 0;
  #closed = false;
  #worker: Worker;

  /** Requests the worker has not answered yet, aborted ones included: it is busy while any is. */
  readonly #unanswered = new Set<number>();

  constructor(readonly start: () => Worker) {
    this.#worker = this.#started(start());
  }

  /** The current worker (the tests end it as a crash would). */
  get worker(): Worker {
    return this.#worker;
  }

  #started(worker: Worker): Worker {
    worker.on('message', (answer: TsAnswer) => {
      this.#unanswered.delete(answer.id);
      const pending = this.#pending.get(answer.id);
      if (!pending) return;
      this.#settled(answer.id);
      if ('error' in answer)
        pending.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
      else pending.resolve(answer.result);
    });
    const fail = (error: Error) => {
      if (worker !== this.#worker) return;
      this.#failed ??= error;
      this.#unanswered.clear();
      for (const [id, pending] of this.#pending) {
        this.#settled(id);
        pending.reject(error);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the TypeScript service's worker exited (code ${code})`)));
    // Idle, the worker does not keep the process alive; while a call waits on it, it does.
    worker.unref();
    return worker;
  }

  #settled(id: number): void {
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
  }

  #call<T>(request: Unnumbered, signal?: AbortSignal): Promise<T> {
    if (this.#failed) {
      if (this.#closed || this.#restarts >= MAX_RESTARTS) return Promise.reject(this.#failed);
      // A new worker builds its programs again: slower once, then as before.
      this.#restarts++;
      this.#failed = undefined;
      this.#worker = this.#started(this.start());
    }
    signal?.throwIfAborted();
    const worker = this.#worker;
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (!this.#pending.has(id)) return;
        this.#settled(id);
        worker.postMessage({ method: 'cancel', id } satisfies TsMessage);
        reject(signal!.reason);
      };
      this.#pending.set(id, {
        resolve: (value) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value as T);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.ref();
      this.#unanswered.add(id);
      worker.postMessage({ ...request, id } as TsRequest);
    });
  }

  references(at: SourcePosition, signal: AbortSignal): Promise<SourceLocation[]> {
    return this.#call({ method: 'references', at }, signal);
  }

  rename(
    at: SourcePosition,
    newName: string,
    options: RenameOptions,
    signal: AbortSignal,
  ): Promise<FileChange[] | string> {
    return this.#call({ method: 'rename', at, newName, options }, signal);
  }

  diagnostics(
    paths: string[],
    signal: AbortSignal,
    overlay?: ReadonlyMap<string, string>,
    deadline = Number.POSITIVE_INFINITY,
  ): Promise<Diagnostic[]> {
    return this.#call({ method: 'diagnostics', paths, overlay, deadline }, signal);
  }

  prepare(paths: string[], signal: AbortSignal): Promise<void> {
    return this.#call({ method: 'prepare', paths }, signal);
  }

  changed(paths: string[]): void {
    // A worker started later reads every file afresh.
    if (!this.#failed) this.#worker.postMessage({ method: 'changed', paths } satisfies TsMessage);
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    // Busy (a program build the run no longer waits for) or gone, the worker is ended at once; idle, it first
    // saves the compiler's code cache for the next run.
    if (this.#unanswered.size > 0 || this.#failed) {
      this.#closed = true;
      await worker.terminate();
      return;
    }
    await Promise.race([
      this.#call({ method: 'close' }),
      new Promise((resolve) => setTimeout(resolve, 2000).unref()),
    ]).catch(() => {});
    this.#closed = true;
    await worker.terminate();
  }
}

/** The service for `root` in a worker started from `file` (ts-worker.cjs). */
export function startRemoteTypeScript(file: string, root: string): LanguageService {
  return new RemoteTypeScriptService(() => new Worker(file, { workerData: { root } }));
}
