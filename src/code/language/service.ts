// The contract of a language service (the TypeScript compiler API, or a language server over LSP): binding-exact
// references, renames and diagnostics for the files it handles. Positions are 1-based, paths workspace-relative
// with `/`. A tool asks `LanguageServices.forFile` and falls back to the name-based tools (saying so) when it gets none.

export interface SourcePosition {
  /** Workspace-relative, with `/`. */
  path: string;
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units as editors count them. */
  column: number;
}

export interface SourceLocation extends SourcePosition {
  endLine: number;
  endColumn: number;
  /** The declaration itself rather than a use. */
  definition?: boolean;
}

/** One file's whole new text: a rename's or a fix's edits already applied. */
export interface FileChange {
  path: string;
  before: string;
  after: string;
  /** How many places changed in this file. */
  count: number;
}

export interface Diagnostic {
  path: string;
  line: number;
  column: number;
  severity: 'error' | 'warning';
  /** The service's own code (TS2339, reportAttributeAccessIssue), when it has one. */
  code?: string;
  message: string;
}

export interface RenameOptions {
  /** Keep `export { newName as oldName }`-style aliases so a package's public name stays (default false: rename everywhere). */
  keepPublicAlias?: boolean;
  /**
   * Other bindings renamed with this one, as one change (a Python method's overrides: pyright renames one class's
   * method). A language service that renames a hierarchy itself (TypeScript) has none given.
   */
  together?: readonly SourcePosition[];
}

export interface LanguageService {
  /** 'typescript', 'pyright', or the configured server's name. */
  readonly id: string;
  /** All references of the symbol bound at `at`, its declarations included (marked `definition`). */
  references(at: SourcePosition, signal: AbortSignal): Promise<SourceLocation[]>;
  /** The files a rename of the symbol at `at` changes, or why it cannot be renamed (a keyword, a library symbol). */
  rename(
    at: SourcePosition,
    newName: string,
    options: RenameOptions,
    signal: AbortSignal,
  ): Promise<FileChange[] | string>;
  /**
   * Current errors (and warnings) of `paths`; `overlay` gives texts not yet on disk (a rename's result, checked
   * before it is written). `deadline` (epoch ms): when a service doing synchronous work (the TypeScript compiler
   * API, which a timed-out signal cannot interrupt) gives up; it then rejects as for an aborted signal.
   */
  diagnostics(
    paths: string[],
    signal: AbortSignal,
    overlay?: ReadonlyMap<string, string>,
    deadline?: number,
  ): Promise<Diagnostic[]>;
  /**
   * Loads what checking `paths` needs and a deadline cannot interrupt (the TypeScript compiler builds a project's
   * whole program before it checks a file in it): part of starting the service, so a check's time is its own.
   */
  prepare?(paths: string[], signal: AbortSignal): Promise<void>;
  /** Files changed on disk since the service last read them (by Keel's tools or anyone). */
  changed(paths: string[]): void;
  close(): Promise<void>;
}

/** How a service for some files starts: lazily, on the first file it handles. */
export interface LanguageServiceFactory {
  readonly id: string;
  /** Whether this service handles the file (by extension, usually). */
  handles(path: string): boolean;
  /** Starts the service for a workspace; undefined when it cannot run here (no server on PATH, say). */
  start(root: string): Promise<LanguageService | undefined>;
}

/** The run's language services: one per factory, started on first use and kept warm until `close`. */
export class LanguageServices {
  #started = new Map<string, Promise<LanguageService | undefined>>();
  /** Why a factory's service failed to start (its server crashed at start, say), by factory id. */
  #failures = new Map<string, string>();
  /** Files Keel's tools changed in this run (get_diagnostics lists their errors by default). */
  readonly #changed = new Set<string>();
  /** A view's close leaves the services to their owner. */
  #owner = true;
  /** Set by warmOnRead: ends the warm-ups at close. */
  #warming: AbortController | undefined;
  /** The factories a warm-up started for (one each: a read elsewhere in a monorepo builds no second program). */
  readonly #warmed = new Set<string>();

  #factories:
    | readonly LanguageServiceFactory[]
    | Promise<readonly LanguageServiceFactory[]>
    | (() => Promise<readonly LanguageServiceFactory[]>);

  /** `factories` may be a loader: the factories' modules then load when a tool first asks for a service. */
  constructor(
    readonly root: string,
    factories: readonly LanguageServiceFactory[] | (() => Promise<readonly LanguageServiceFactory[]>),
  ) {
    this.#factories = factories;
  }

  /**
   * These services for another run on the same workspace (the next tool eval case on its fixture): the ones
   * started so far or later are shared and stay with this owner, which closes them; the files changed are the
   * view's own, and its close leaves the services running.
   */
  view(): LanguageServices {
    if (typeof this.#factories === 'function') this.#factories = this.#factories();
    const view = new LanguageServices(this.root, []);
    view.#factories = this.#factories;
    view.#started = this.#started;
    view.#failures = this.#failures;
    view.#owner = false;
    return view;
  }

  /** The factory handling `path` (its modules loaded on first ask), or undefined. */
  async #factoryFor(path: string): Promise<LanguageServiceFactory | undefined> {
    if (typeof this.#factories === 'function') this.#factories = this.#factories();
    return (await this.#factories).find((f) => f.handles(path));
  }

  /** The service for a file, or undefined when none handles it or it could not start. */
  async forFile(path: string): Promise<LanguageService | undefined> {
    const factory = await this.#factoryFor(path);
    if (!factory) return undefined;
    let service = this.#started.get(factory.id);
    if (!service) {
      service = factory.start(this.root).catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        this.#failures.set(factory.id, `${factory.id} did not start: ${why.split('\n')[0]!.slice(0, 200)}`);
        return undefined;
      });
      this.#started.set(factory.id, service);
    }
    return service;
  }

  /** Why the service for `path` is missing when its server failed to start (forFile answered undefined), if so. */
  async failure(path: string): Promise<string | undefined> {
    const factory = await this.#factoryFor(path);
    return factory && this.#failures.get(factory.id);
  }

  /**
   * From now on, a file read starts its service and what a first check of it waits for (the TypeScript program,
   * a language server's first diagnostics), in the background: a run that may edit reads before it edits, and its
   * first edit's check then finds the project loaded. Off by default: a read-only run pays nothing.
   */
  warmOnRead(): void {
    this.#warming ??= new AbortController();
  }

  get warmsOnRead(): boolean {
    return this.#warming !== undefined;
  }

  /** A tool read `path` (workspace-relative): warms its service once, if warmOnRead was asked. Never throws. */
  warm(path: string): void {
    const warming = this.#warming;
    // A file outside the workspace (a read allowed there) loads no project of its own.
    if (!warming || warming.signal.aborted || path.startsWith('../') || path.startsWith('/')) return;
    void (async () => {
      const factory = await this.#factoryFor(path);
      if (!factory || this.#warmed.has(factory.id)) return;
      this.#warmed.add(factory.id);
      await (await this.forFile(path))?.prepare?.([path], warming.signal);
    })().catch(() => {});
  }

  /** Tells every started service that files changed (none named: anything may have, a command ran). */
  changed(paths: string[]): void {
    for (const path of paths) this.#changed.add(path);
    for (const service of this.#started.values()) void service.then((s) => s?.changed(paths));
  }

  /** The files changed in this run so far, workspace-relative. */
  changedFiles(): string[] {
    return [...this.#changed];
  }

  async close(): Promise<void> {
    this.#warming?.abort();
    if (!this.#owner) return;
    const services = [...this.#started.values()];
    this.#started.clear();
    await Promise.all(services.map(async (s) => (await s)?.close()));
  }
}
