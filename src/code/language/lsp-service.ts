// A LanguageService over a language server (LSP): references with their declarations marked, renames as whole-file
// changes checked against the workspace, and diagnostics (pulled when the server offers it, else the ones it
// publishes for the version sent), with an overlay sent as a temporary change and taken back afterwards.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type {
  Location,
  LocationLink,
  Diagnostic as LspDiagnostic,
  PrepareRenameResult,
  Range,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { isInside, realpathDeepest } from '../../safety/workspace.js';
import { LspClient, type LspClientOptions, LspError, type LspServerSpec } from './lsp-client.js';
import { LspDocuments } from './lsp-documents.js';
import { mergeEdits, uriPath, withReferences, workspaceEditChanges } from './lsp-edits.js';
import { filesNaming, wordAt } from './lsp-mentions.js';
import { publishedDiagnostics } from './lsp-published.js';
import type {
  Diagnostic,
  FileChange,
  LanguageService,
  RenameOptions,
  SourceLocation,
  SourcePosition,
} from './service.js';

export interface LspServiceOptions extends LspClientOptions {
  /** The `languageId` of a file in didOpen. */
  languageId: (absolute: string) => string;
  /** Whether the server handles a file (changed ones it handles are opened). */
  handles: (file: string) => boolean;
  /** Longest wait for a file's diagnostics (default 10 s). */
  diagnosticsTimeoutMs?: number;
}

/** Starts the server for `root` (symlink-free) and wraps it as a LanguageService. */
export async function startLspService(
  spec: LspServerSpec,
  root: string,
  options: LspServiceOptions,
): Promise<LanguageService> {
  const start = () => LspClient.start(spec, root, options);
  return new LspLanguageService(await start(), options, start);
}

/** Restarts after a crash, per service: a server that keeps crashing is given up on. */
const MAX_RESTARTS = 2;

const severities: Record<number, Diagnostic['severity'] | undefined> = { 1: 'error', 2: 'warning' };

export class LspLanguageService implements LanguageService {
  #client: LspClient;
  #documents: LspDocuments;
  #restarts = 0;
  #closed = false;
  /** Files whose first diagnostics were had (prepare). */
  readonly #prepared = new Set<string>();
  /** One operation at a time: an overlay must not be seen by a rename running beside it. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    client: LspClient,
    readonly options: LspServiceOptions,
    readonly restart?: () => Promise<LspClient>,
  ) {
    this.#client = client;
    this.#documents = new LspDocuments(client, options.languageId);
  }

  get id(): string {
    return this.#client.spec.id;
  }

  get client(): LspClient {
    return this.#client;
  }

  get #root(): string {
    return this.#client.root;
  }

  /** Runs after the operations before it, once the server is ready; a crashed server is started again first. */
  #serial<T>(run: () => Promise<T>): Promise<T> {
    const step = async () => {
      if (this.#client.exited && !this.#closed && this.restart && this.#restarts < MAX_RESTARTS) {
        this.#restarts++;
        this.#client = await this.restart();
        this.#documents = new LspDocuments(this.#client, this.options.languageId);
      }
      await this.#client.ready;
      return run();
    };
    const next = this.#queue.then(step, step);
    this.#queue = next.catch(() => {});
    return next;
  }

  /** The absolute path of a workspace-relative one; a path leading outside is refused. */
  async #file(relative: string): Promise<string> {
    const fail = (detail: string): never => {
      throw new LspError(`${relative}: ${detail}`);
    };
    const real = await realpathDeepest(path.resolve(this.#root, relative), fail);
    if (!isInside(this.#root, real)) fail('outside the workspace');
    return real;
  }

  #relative(absolute: string): string {
    return path.relative(this.#root, absolute).split(path.sep).join('/');
  }

  references(at: SourcePosition, signal: AbortSignal): Promise<SourceLocation[]> {
    return this.#serial(async () => {
      const file = await this.#file(at.path);
      const uri = await this.#documents.sync(file);
      const position = { line: at.line - 1, character: at.column - 1 };
      const textDocument = { uri };
      const found = await this.#withMentions(
        file,
        position,
        signal,
        async () =>
          (await this.client.request<Location[] | null>(
            'textDocument/references',
            { textDocument, position, context: { includeDeclaration: true } },
            signal,
          )) ?? [],
      );
      const definitions = this.client.capabilities.definitionProvider
        ? await this.client
            .request<Location | Location[] | LocationLink[] | null>(
              'textDocument/definition',
              { textDocument, position },
              signal,
            )
            .catch(() => null)
        : null;
      const declared = new Set(
        [definitions ?? []]
          .flat()
          .map((d) => ('targetUri' in d ? key(d.targetUri, d.targetSelectionRange) : key(d.uri, d.range))),
      );
      const seen = new Set<string>();
      const locations: SourceLocation[] = [];
      for (const location of found) {
        const file = uriPath(location.uri);
        const id = key(location.uri, location.range);
        if (!file || !isInside(this.#root, file) || seen.has(id)) continue;
        seen.add(id);
        const { start, end } = location.range;
        locations.push({
          path: this.#relative(file),
          line: start.line + 1,
          column: start.character + 1,
          endLine: end.line + 1,
          endColumn: end.character + 1,
          ...(declared.has(id) ? { definition: true } : {}),
        });
      }
      return locations.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
    });
  }

  rename(
    at: SourcePosition,
    newName: string,
    options: RenameOptions,
    signal: AbortSignal,
  ): Promise<FileChange[] | string> {
    // keepPublicAlias has no LSP counterpart: the server renames every use.
    return this.#serial(async () => {
      const file = await this.#file(at.path);
      const uri = await this.#documents.sync(file);
      const position = { line: at.line - 1, character: at.column - 1 };
      return this.#withMentions(file, position, signal, async () => {
        try {
          const edits: WorkspaceEdit[] = [];
          for (const place of [at, ...(options.together ?? [])]) {
            const placeUri = place === at ? uri : await this.#documents.sync(await this.#file(place.path));
            const edit = await this.#renameAt(placeUri, place, newName, signal);
            if (typeof edit === 'string') return edit;
            edits.push(edit);
          }
          const whole = mergeEdits(edits);
          if (typeof whole === 'string') return whole;
          return await workspaceEditChanges(whole, this.#root, (file) => this.#documents.text(file));
        } catch (error) {
          // The server's refusal (a keyword, a builtin, an invalid name) is an answer, not a failure.
          if (error instanceof LspError || signal.aborted) throw error;
          return `${this.id}: ${error instanceof Error ? error.message : String(error)}`;
        }
      });
    });
  }

  /** The server's rename of the binding at `at` (in the document `uri`), with the references it left alone. */
  async #renameAt(
    uri: string,
    at: SourcePosition,
    newName: string,
    signal: AbortSignal,
  ): Promise<WorkspaceEdit | string> {
    const params = { textDocument: { uri }, position: { line: at.line - 1, character: at.column - 1 } };
    const provider = this.client.capabilities.renameProvider;
    if (typeof provider === 'object' && provider.prepareProvider) {
      const prepared = await this.client.request<PrepareRenameResult | null>(
        'textDocument/prepareRename',
        params,
        signal,
      );
      if (!prepared) return `${this.id} cannot rename the symbol at ${at.path}:${at.line}:${at.column}`;
    }
    const edit = await this.client.request<WorkspaceEdit | null>(
      'textDocument/rename',
      { ...params, newName },
      signal,
    );
    if (!edit) return `${this.id} found nothing to rename at ${at.path}:${at.line}:${at.column}`;
    const references = this.client.capabilities.referencesProvider
      ? ((await this.client.request<Location[] | null>(
          'textDocument/references',
          { ...params, context: { includeDeclaration: true } },
          signal,
        )) ?? [])
      : [];
    // Only the workspace's own files; a library's are the server's rename to refuse.
    const own = references.filter((r) => {
      const file = uriPath(r.uri);
      return file !== undefined && isInside(this.#root, file);
    });
    return withReferences(edit, own, newName);
  }

  /**
   * The first diagnostics of files not yet asked about, which a server publishes slowly (a cold pyright reads the
   * project and its stubs first; a file newly opened is analysed with what it imports): had before a check's
   * budget starts, so the check times only itself.
   */
  async prepare(paths: string[], signal: AbortSignal): Promise<void> {
    const fresh = paths.filter((p) => !this.#prepared.has(p));
    if (fresh.length === 0) return;
    // Only diagnostics had count: a wait cut short (a cold pyright on a loaded host) is waited for again by the
    // next check's prepare, within its loading allowance, not left to the check's own short budget edit after edit.
    const had = await this.diagnostics(fresh, signal).then(
      () => true,
      () => false,
    );
    if (had) for (const p of fresh) this.#prepared.add(p);
  }

  diagnostics(
    paths: string[],
    signal: AbortSignal,
    overlay?: ReadonlyMap<string, string>,
  ): Promise<Diagnostic[]> {
    return this.#serial(async () => {
      const files = new Map<string, string>();
      for (const p of new Set([...paths, ...(overlay?.keys() ?? [])])) files.set(p, await this.#file(p));
      // An overlay file not on disk (one a change removed, checked as it was) is opened with its overlay text only.
      const gone = new Set<string>();
      for (const [relative, file] of files) {
        if (overlay?.has(relative) && !(await isFile(file))) gone.add(file);
        else await this.#documents.sync(file);
      }
      const since =
        this.client.published.size === 0
          ? 0
          : Math.max(0, ...[...this.client.published.values()].map((p) => p.sequence));
      // Every file asked about gets a new version, so what the server publishes next is about this text.
      const wanted = new Map<string, { uri: string; version: number }>();
      for (const [relative, file] of files) {
        const text = overlay?.get(relative);
        wanted.set(
          relative,
          text === undefined ? this.#documents.touch(file) : this.#documents.set(file, text),
        );
      }
      try {
        const found: Diagnostic[] = [];
        for (const relative of paths) {
          const document = wanted.get(relative) as { uri: string; version: number };
          const items = this.client.pullsDiagnostics
            ? await this.#pull(document.uri, signal)
            : await publishedDiagnostics(
                this.client,
                this.id,
                document,
                since,
                signal,
                this.options.diagnosticsTimeoutMs ?? 10_000,
              );
          for (const item of items) {
            const severity = severities[item.severity ?? 1];
            if (!severity) continue;
            found.push({
              path: relative,
              line: item.range.start.line + 1,
              column: item.range.start.character + 1,
              severity,
              ...(item.code !== undefined ? { code: String(item.code) } : {}),
              message: typeof item.message === 'string' ? item.message : item.message.value,
            });
          }
        }
        return found;
      } catch (error) {
        // Not had in time: the server is still busy with them, so the next check waits as for a first one.
        for (const p of paths) this.#prepared.delete(p);
        throw error;
      } finally {
        if (overlay && !this.client.exited)
          for (const file of files.values())
            if (gone.has(file)) this.#documents.close(file);
            else await this.#documents.sync(file);
      }
    });
  }

  /**
   * Runs `request` with the workspace's files that name the symbol at `position` open (those it opened are closed
   * after): the server then searches them even when its own program leaves them out.
   */
  async #withMentions<T>(
    file: string,
    position: { line: number; character: number },
    signal: AbortSignal,
    request: () => Promise<T>,
  ): Promise<T> {
    const line = (this.#documents.text(file) ?? '').split(/\r\n|\r|\n/)[position.line] ?? '';
    const word = wordAt(line, position.character);
    const opened: string[] = [];
    const naming = word ? await filesNaming(this.#root, word, this.options.handles, signal) : [];
    for (const other of naming) {
      if (this.#documents.isOpen(other)) continue;
      await this.#documents.sync(other);
      opened.push(other);
    }
    try {
      return await request();
    } finally {
      if (!this.client.exited) for (const other of opened) this.#documents.close(other);
    }
  }

  async #pull(uri: string, signal: AbortSignal): Promise<LspDiagnostic[]> {
    const report = await this.client.request<{ kind: string; items?: LspDiagnostic[] }>(
      'textDocument/diagnostic',
      { textDocument: { uri } },
      signal,
      this.options.diagnosticsTimeoutMs ?? 10_000,
    );
    return report.items ?? [];
  }

  changed(paths: string[]): void {
    // Through the jail like every path: a link leading outside is not read and sent to the server.
    const inside = (p: string) => this.#file(p).catch(() => undefined);
    void this.#serial(async () => {
      const files = (await Promise.all(paths.map(inside))).filter((f): f is string => f !== undefined);
      await this.#documents.changed(files, this.options.handles);
    }).catch(() => {});
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#client.close();
  }
}

function key(uri: string, range: Range): string {
  return `${uri}#${range.start.line}:${range.start.character}`;
}

const isFile = (file: string): Promise<boolean> =>
  fs.stat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );
