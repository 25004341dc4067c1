// The TypeScript and JavaScript language service over the compiler API: the `typescript` package, required only
// when a code tool or a diagnostics check first asks for a TS/JS file, one ts.LanguageService per project kept warm.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';
import { cacheDir } from '../../config/paths.js';
import { type CachedModule, requireCached } from './compiler-cache.js';
import { wordAt } from './lsp-mentions.js';
import { lineStarts, offsetAt, positionAt } from './position.js';
import type {
  Diagnostic,
  FileChange,
  LanguageService,
  LanguageServiceFactory,
  RenameOptions,
  SourceLocation,
  SourcePosition,
} from './service.js';
import { exportedDeclaration, usesSemicolons } from './ts-exports.js';
import { SourceTexts } from './ts-files.js';
import { type Cancellation, isTsFile, type Project, Projects } from './ts-projects.js';
import { flowingLiteralSpans, keyLiteralSpans } from './ts-property-uses.js';
import { startRemoteTypeScript, tsWorkerFile } from './ts-remote.js';

type TypeScript = typeof TS;

/** The compiler, once per process: loaded on first use, kept for every later service (a chat's, each workspace's). */
let compiler: CachedModule | undefined;

/**
 * Loads the compiler (~9 MB of JavaScript), which stays outside the bundle in node_modules, through a V8 code cache
 * under Keel's cache dir (compiler-cache.ts). Resolved with require, not import(): the bundle runs from V8's code
 * cache, where import() of an outside package fails on Node 20.
 */
function loadTypeScript(): CachedModule {
  if (!compiler) {
    const file = createRequire(import.meta.url).resolve('typescript');
    compiler = requireCached(file, path.join(cacheDir(process.env), 'v8'));
  }
  return compiler;
}

/** How long a references or rename search may take before it is given up. */
const SEARCH_MS = 30_000;
/** The kinds of a class's or an interface's members, whose names other code may write as keys or literals' properties. */
const MEMBER_KINDS: ReadonlySet<string> = new Set(['property', 'method', 'getter', 'setter', 'accessor']);
/** Most `require` destructurings whose local's uses a reference search follows (each is a search of its own). */
const MAX_REQUIRE_BINDINGS = 30;

interface Span {
  file: string;
  start: number;
  length: number;
  definition: boolean;
  prefixText?: string;
  suffixText?: string;
  /** A re-export kept under the old name (`export {New as Old}`): the new name is exported beside it. */
  exportBoth?: boolean;
}

export class TypeScriptService implements LanguageService {
  readonly id = 'typescript';
  readonly #texts: SourceTexts;
  readonly #projects: Projects;
  readonly #cancellation: Cancellation = { deadline: Number.POSITIVE_INFINITY };

  constructor(
    readonly ts: TypeScript,
    readonly root: string,
  ) {
    this.#texts = new SourceTexts(root);
    this.#projects = new Projects(ts, root, this.#texts, this.#cancellation);
  }

  #absolute(file: string): string {
    return path.resolve(this.root, file);
  }

  #relative(file: string): string {
    return path.relative(this.root, file).split(path.sep).join('/');
  }

  /** Runs synchronous compiler work under a deadline and the caller's signal. */
  async #run<T>(signal: AbortSignal, deadline: number, work: () => T): Promise<T> {
    await this.#projects.refresh(signal);
    signal.throwIfAborted();
    this.#cancellation.deadline = deadline;
    this.#cancellation.signal = signal;
    try {
      return work();
    } catch (error) {
      if (error instanceof this.ts.OperationCanceledException) {
        signal.throwIfAborted();
        throw new Error('the TypeScript service ran out of time');
      }
      throw error;
    } finally {
      this.#cancellation.deadline = Number.POSITIVE_INFINITY;
      this.#cancellation.signal = undefined;
    }
  }

  #offset(at: SourcePosition): { file: string; offset: number } {
    const file = this.#absolute(at.path);
    const text = this.#texts.text(file);
    if (text === undefined) throw new Error(`${at.path} not found`);
    return { file, offset: offsetAt(lineStarts(text), at.line, at.column, text.length) };
  }

  /**
   * The projects that contain `file`, its own first (a test folder outside the tsconfig imports the sources too; a
   * monorepo's other packages import it through paths); with `offset`, only those with a file naming the identifier
   * there.
   */
  #containing(file: string, offset?: number): { project: Project; service: TS.LanguageService }[] {
    let name: string | undefined;
    if (offset !== undefined) {
      const text = this.#texts.text(file) ?? '';
      // A private name's `#` is no word character: its name starts after it.
      name = wordAt(text, text[offset] === '#' ? offset + 1 : offset);
    }
    return this.#projects.consulted(file, name).flatMap((project) => {
      const service = this.#projects.service(project);
      return service.getProgram()?.getSourceFile(file) ? [{ project, service }] : [];
    });
  }

  /** Spans found in several projects, once each. */
  #unique(spans: Span[]): Span[] {
    const seen = new Map<string, Span>();
    for (const span of spans) {
      const key = `${span.file}:${span.start}:${span.length}`;
      const known = seen.get(key);
      if (!known) seen.set(key, span);
      else if (span.definition) known.definition = true;
    }
    return [...seen.values()];
  }

  async references(at: SourcePosition, signal: AbortSignal): Promise<SourceLocation[]> {
    const spans = await this.#run(signal, Date.now() + SEARCH_MS, () => {
      const { file, offset } = this.#offset(at);
      const found = this.#referencesAt(file, offset);
      // CommonJS: `const { kConnect } = require('./symbols')` binds a local the property's references stop at;
      // its uses (`client[kConnect]()`) are that local's references, asked for at each such binding.
      for (const span of found.filter((s) => this.#requireBinding(s)).slice(0, MAX_REQUIRE_BINDINGS))
        found.push(...this.#referencesAt(span.file, span.start));
      return found;
    });
    return this.#unique(spans)
      .filter((s) => this.#texts.inWorkspace(s.file))
      .map((s) => this.#location(s))
      .sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  }

  #referencesAt(file: string, offset: number): Span[] {
    return this.#containing(file, offset).flatMap(({ service }) =>
      (service.findReferences(file, offset) ?? []).flatMap((symbol) =>
        symbol.references.map((r) => ({
          file: r.fileName,
          start: r.textSpan.start,
          length: r.textSpan.length,
          definition: r.isDefinition === true,
        })),
      ),
    );
  }

  /** Whether a span is a name destructured from a `require(…)` (`const { a, b } = require('m')`, over lines too). */
  #requireBinding(span: Span): boolean {
    const text = this.#texts.text(span.file);
    if (text === undefined) return false;
    // From the name to the pattern's `}`: only names, commas, renames and spaces, then `= require(`.
    return /^[\w$\s,:]*\}\s*=\s*require\s*\(/.test(text.slice(span.start, span.start + 4000));
  }

  #location(span: Span): SourceLocation {
    const starts = lineStarts(this.#texts.text(span.file) ?? '');
    const start = positionAt(starts, span.start);
    const end = positionAt(starts, span.start + span.length);
    return {
      path: this.#relative(span.file),
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      ...(span.definition ? { definition: true } : {}),
    };
  }

  async rename(
    at: SourcePosition,
    newName: string,
    options: RenameOptions,
    signal: AbortSignal,
  ): Promise<FileChange[] | string> {
    const found = await this.#run(signal, Date.now() + SEARCH_MS, () => {
      const { file, offset } = this.#offset(at);
      const home = this.#containing(file, offset);
      if (home.length === 0) return `${at.path} is not part of any TypeScript project`;
      const info = home[0]!.service.getRenameInfo(file, offset, { allowRenameOfImportPath: false });
      if (!info.canRename) return info.localizedErrorMessage;
      const text = this.#texts.text(file) ?? '';
      const old = text.slice(info.triggerSpan.start, info.triggerSpan.start + info.triggerSpan.length);
      const preferences = { providePrefixAndSuffixTextForRename: options.keepPublicAlias === true };
      const spans = home.flatMap(({ service }) =>
        (service.findRenameLocations(file, offset, false, false, preferences) ?? []).map((l) => ({
          file: l.fileName,
          start: l.textSpan.start,
          length: l.textSpan.length,
          definition: false,
          ...(l.prefixText ? { prefixText: l.prefixText } : {}),
          ...(l.suffixText ? { suffixText: l.suffixText } : {}),
          // Kept as the old name, a barrel's export would no longer give the new one: both names are exported.
          ...(l.suffixText?.startsWith(' as ') &&
          this.#inExportList(service.getProgram()?.getSourceFile(l.fileName), l.textSpan.start)
            ? { exportBoth: true }
            : {}),
        })),
      );
      // A property's name as a key beside its type (`Pick<StoreApi<T>, 'subscribe'>`), which the service leaves.
      const member = MEMBER_KINDS.has(info.kind);
      const declared = new Set(
        (home[0]!.service.getDefinitionAtPosition(file, offset) ?? []).map(
          (d) => `${d.fileName}:${d.textSpan.start}`,
        ),
      );
      for (const { service } of member ? home : []) {
        const program = service.getProgram();
        if (!program) continue;
        const ours = (f: string) => this.#texts.inWorkspace(f);
        for (const key of keyLiteralSpans(this.ts, program, ours, old, declared))
          spans.push({ ...key, definition: false });
        // An object literal the service did not link to the type, given where it is expected through a variable.
        const linked = new Set(spans.map((s) => `${s.file}:${s.start}`));
        for (const key of flowingLiteralSpans(this.ts, service, ours, old, declared))
          if (!linked.has(`${key.file}:${key.start}`)) spans.push({ ...key, definition: false });
      }
      // Kept nowhere (the module exports the declaration itself, and barrels `export *` it): the module exports
      // the old name beside the new one, so `import { Old }` from it or its barrels still works.
      const aliased = spans.some((s) => s.suffixText?.startsWith(' as ') || s.prefixText?.endsWith(' as '));
      if (options.keepPublicAlias === true && !aliased) {
        const service = home[0]!.service;
        for (const def of service.getDefinitionAtPosition(file, offset) ?? []) {
          const source = service.getProgram()?.getSourceFile(def.fileName);
          const exported = source && exportedDeclaration(this.ts, source, def.textSpan.start);
          if (!source || !exported) continue;
          const text = source.text;
          spans.push({
            file: def.fileName,
            start: text.length,
            length: 0,
            definition: false,
            // A type's alias is `export type`, which verbatimModuleSyntax asks for.
            prefixText: `${text.endsWith('\n') || text.length === 0 ? '' : '\n'}export ${exported === 'type' ? 'type ' : ''}{ `,
            suffixText: ` as ${old} }${usesSemicolons(this.ts, source) ? ';' : ''}\n`,
          });
          break;
        }
      }
      return { old, spans: this.#unique(spans) };
    });
    if (typeof found === 'string') return found;
    // A private name is written with its `#`, whether or not the model wrote it.
    const name = found.old.startsWith('#') && !newName.startsWith('#') ? `#${newName}` : newName;
    if (!this.#isIdentifier(name.replace(/^#/, ''))) return `${newName} is not a valid identifier`;
    if (name === found.old) return 'the new name is the same as the old one';
    const outside = found.spans.find((s) => !this.#texts.inWorkspace(s.file));
    if (outside)
      return `renaming ${found.old} would change ${outside.file}, outside the workspace or in node_modules; refused`;
    return this.#apply(found.spans, name);
  }

  /** Whether `offset` is in an `export {…}` list of the file's top level (a barrel's re-export, a module's export list). */
  #inExportList(source: TS.SourceFile | undefined, offset: number): boolean {
    const { ts } = this;
    return (source?.statements ?? []).some(
      (statement) =>
        ts.isExportDeclaration(statement) &&
        statement.exportClause !== undefined &&
        ts.isNamedExports(statement.exportClause) &&
        statement.exportClause.elements.some((e) => e.getStart(source) <= offset && offset < e.end),
    );
  }

  /** An identifier that is not a reserved word (`type` and `of` are fine, `class` is not). */
  #isIdentifier(text: string): boolean {
    const { ts } = this;
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, true);
    scanner.setText(text);
    const kind = scanner.scan();
    const { Identifier, LastReservedWord, LastKeyword } = ts.SyntaxKind;
    const word = kind === Identifier || (kind > LastReservedWord && kind <= LastKeyword);
    return word && scanner.getTokenEnd() === text.length;
  }

  #apply(spans: Span[], name: string): FileChange[] {
    const byFile = new Map<string, Span[]>();
    for (const span of spans) byFile.set(span.file, [...(byFile.get(span.file) ?? []), span]);
    const changes: FileChange[] = [];
    for (const [file, list] of byFile) {
      const before = this.#texts.text(file) ?? '';
      let after = before;
      for (const s of [...list].sort((a, b) => b.start - a.start)) {
        const replacement = `${s.prefixText ?? ''}${name}${s.suffixText ?? ''}${s.exportBoth ? `, ${name}` : ''}`;
        after = after.slice(0, s.start) + replacement + after.slice(s.start + s.length);
      }
      if (after !== before) changes.push({ path: this.#relative(file), before, after, count: list.length });
    }
    return changes.sort((a, b) => a.path.localeCompare(b.path));
  }

  async prepare(paths: string[], signal: AbortSignal): Promise<void> {
    await this.#run(signal, Number.POSITIVE_INFINITY, () => {
      for (const p of paths) {
        const file = this.#absolute(p);
        if (isTsFile(file) && this.#texts.exists(file))
          this.#projects.service(this.#projects.homeOf(file)).getProgram()?.getTypeChecker();
      }
    });
  }

  async diagnostics(
    paths: string[],
    signal: AbortSignal,
    overlay?: ReadonlyMap<string, string>,
    deadline = Number.POSITIVE_INFINITY,
  ): Promise<Diagnostic[]> {
    const absolute = overlay
      ? new Map([...overlay].map(([file, text]) => [this.#absolute(file), text]))
      : undefined;
    return this.#run(signal, deadline, () =>
      this.#texts.withOverlay(absolute, () =>
        paths.flatMap((p) => {
          const file = this.#absolute(p);
          if (!isTsFile(file) || !this.#texts.exists(file)) return [];
          const service = this.#projects.service(this.#projects.homeOf(file));
          const found = [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)];
          return found.flatMap((d) => this.#diagnostic(p, d));
        }),
      ),
    );
  }

  #diagnostic(shown: string, d: TS.Diagnostic): Diagnostic[] {
    const { DiagnosticCategory } = this.ts;
    if (d.category !== DiagnosticCategory.Error && d.category !== DiagnosticCategory.Warning) return [];
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return [
      {
        path: shown,
        line: (at?.line ?? 0) + 1,
        column: (at?.character ?? 0) + 1,
        severity: d.category === DiagnosticCategory.Error ? 'error' : 'warning',
        code: `TS${d.code}`,
        message: this.ts.flattenDiagnosticMessageText(d.messageText, '\n'),
      },
    ];
  }

  changed(paths: string[]): void {
    const files = paths.map((p) => this.#absolute(p));
    this.#texts.changed(files.length === 0);
    // A new or removed file, a config, or a command (anything may have moved): the file lists are read again.
    const listed = files.every(
      (f) => this.#projects.knows(f) && this.#texts.exists(f) && !/[tj]sconfig\.json$/.test(f),
    );
    if (files.length === 0 || !listed) this.#projects.invalidate();
  }

  async close(): Promise<void> {
    this.#projects.dispose();
    // With the functions this service compiled, for the next run's first check.
    compiler?.save();
  }
}

/** The service in this thread: the compiler loaded here (a worker's own, or where no worker file is built). */
export function localTypeScriptService(root: string): TypeScriptService {
  return new TypeScriptService(loadTypeScript().exports as TypeScript, root);
}

/**
 * The factory the run's registry starts on the first TS/JS file a tool asks about. Built, the service runs in a
 * worker thread (ts-remote.ts), so building a big project's program (seconds, synchronous) leaves the run's own
 * thread free: Ctrl-C, the spinner, streamed output and other calls go on meanwhile. From the sources (the tests)
 * there is no worker file, and it runs here.
 */
export const typeScriptFactory: LanguageServiceFactory = {
  id: 'typescript',
  handles: (file) => isTsFile(file),
  async start(root) {
    const worker = tsWorkerFile();
    if (worker) return startRemoteTypeScript(worker, root);
    return localTypeScriptService(root);
  },
};
