// The TypeScript projects of a workspace, as tsc and editors see them: every tsconfig.json/jsconfig.json (and the
// configs they reference), each with the files it includes; files no config includes (tests beside a tsconfig that
// includes only `src`, scripts) form loose projects, one per nearest config whose options they borrow, or inferred
// options with allowJs. One ts.LanguageService per project, created when first asked, over shared texts.
import path from 'node:path';
import type * as TS from 'typescript';
import { SKIPPED_DIRS, walkFiles } from '../../project/file-walk.js';
import { findProjectEntries } from '../entry-points.js';
import { isSupportFile, isSupportFolder } from '../file-roles.js';
import type { SourceTexts } from './ts-files.js';

type TypeScript = typeof TS;

export const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const CONFIG_NAMES = new Set(['tsconfig.json', 'jsconfig.json']);
/** A monorepo's many configs: references and renames consult at most this many projects. */
const MAX_PROJECTS = 24;

export const isTsFile = (file: string) => TS_EXTENSIONS.some((ext) => file.endsWith(ext));

/** TypeScript's name for a source file's kind, for a module Keel resolved itself. */
function extensionOf(ts: TypeScript, file: string): TS.Extension {
  if (file.endsWith('.d.ts')) return ts.Extension.Dts;
  const ext = path.extname(file);
  const kinds: Record<string, TS.Extension> = {
    '.ts': ts.Extension.Ts,
    '.tsx': ts.Extension.Tsx,
    '.mts': ts.Extension.Mts,
    '.cts': ts.Extension.Cts,
    '.js': ts.Extension.Js,
    '.jsx': ts.Extension.Jsx,
    '.mjs': ts.Extension.Mjs,
    '.cjs': ts.Extension.Cjs,
  };
  return kinds[ext] ?? ts.Extension.Ts;
}

export interface Project {
  /** The config file, or `loose:<config or none>`. */
  key: string;
  dir: string;
  roots: Set<string>;
  options: TS.CompilerOptions;
  references?: readonly TS.ProjectReference[];
  service?: TS.LanguageService;
}

/** Checked by TypeScript while it works: a signal cannot interrupt synchronous work, a deadline can. */
export interface Cancellation {
  deadline: number;
  signal?: AbortSignal;
}

function inferredOptions(ts: TypeScript): TS.CompilerOptions {
  return {
    allowJs: true,
    allowSyntheticDefaultImports: true,
    esModuleInterop: true,
    jsx: ts.JsxEmit.Preserve,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    resolveJsonModule: true,
    skipLibCheck: true,
    noEmit: true,
  };
}

/** The process's lib.*.d.ts source files, per TypeScript instance: never released (see withSharedLibs). */
const libRegistries = new WeakMap<TypeScript, { dir: string; registry: TS.DocumentRegistry }>();

/**
 * `own` for the workspace's files, and one registry per process for TypeScript's own lib.*.d.ts, kept after every
 * service that used them is gone: parsing and binding lib.dom.d.ts and the ES libs is most of a service's cold
 * start (~0.7 s of CPU), paid once per process instead of once per service (each tool eval case, each workspace).
 * The libs do not change under a running Keel; a changed one would still be read again (its version differs).
 */
function withSharedLibs(ts: TypeScript, own: TS.DocumentRegistry): TS.DocumentRegistry {
  let libs = libRegistries.get(ts);
  if (!libs) {
    libs = {
      dir: `${path.posix.dirname(ts.getDefaultLibFilePath({}))}/`,
      registry: ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames),
    };
    libRegistries.set(ts, libs);
  }
  const { dir, registry: shared } = libs;
  const pick = (file: string) => (file.startsWith(dir) ? shared : own);
  return {
    ...own,
    acquireDocumentWithKey: (fileName, path, ...rest) =>
      pick(path).acquireDocumentWithKey(fileName, path, ...rest),
    updateDocumentWithKey: (fileName, path, ...rest) =>
      pick(path).updateDocumentWithKey(fileName, path, ...rest),
    releaseDocumentWithKey: (
      path: TS.Path,
      key: TS.DocumentRegistryBucketKey,
      kind?: TS.ScriptKind,
      format?: TS.ResolutionMode,
    ) => {
      if (!path.startsWith(dir)) own.releaseDocumentWithKey(path, key, kind as TS.ScriptKind, format);
    },
  };
}

export class Projects {
  #projects = new Map<string, Project>();
  #stale = true;
  /**
   * The workspace's own packages by import name (`@tanstack/query-core`, `@trpc/server/…` subpaths) → their source
   * entry files: where an import TypeScript cannot resolve (a monorepo not installed, or installed but not built)
   * goes, so references and renames cross its packages.
   */
  #packages = new Map<string, string>();
  readonly #registry: TS.DocumentRegistry;

  constructor(
    readonly ts: TypeScript,
    readonly root: string,
    readonly texts: SourceTexts,
    readonly cancellation: Cancellation,
  ) {
    this.#registry = withSharedLibs(ts, ts.createDocumentRegistry(ts.sys.useCaseSensitiveFileNames, root));
  }

  /** The file lists are read again before the next request (files were added, removed or configs changed). */
  invalidate(): void {
    this.#stale = true;
  }

  knows(file: string): boolean {
    return [...this.#projects.values()].some((p) => p.roots.has(file));
  }

  /** Walks the workspace for configs and files when something was added or removed since the last walk. */
  async refresh(signal?: AbortSignal): Promise<void> {
    if (!this.#stale) return;
    this.#stale = false;
    const configs: string[] = [];
    const files: string[] = [];
    for await (const file of walkFiles(this.root, this.root, signal, (name) => SKIPPED_DIRS.has(name))) {
      if (CONFIG_NAMES.has(path.basename(file))) configs.push(file);
      else if (isTsFile(file)) files.push(file);
    }
    const relative = (file: string) => path.relative(this.root, file).split(path.sep).join('/');
    const entries = await findProjectEntries(this.root, new Set(files.map(relative))).catch(() => undefined);
    this.#packages = new Map(
      [...(entries?.packages ?? []), ...(entries?.subpaths ?? [])].map(([name, file]) => [
        name,
        path.join(this.root, file),
      ]),
    );
    const old = this.#projects;
    this.#projects = new Map();
    // The project's own configs before its examples', tests' and docs' (past the cap, those are left out), the
    // shallowest first.
    const rank = (config: string) => {
      const rel = path.relative(this.root, config).split(path.sep).join('/');
      return (isSupportFile(rel) ? 1000 : 0) + rel.split('/').length;
    };
    configs.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
    for (const config of configs) this.#addConfig(config, old);
    const covered = new Set([...this.#projects.values()].flatMap((p) => [...p.roots]));
    for (const file of files) {
      if (covered.has(file)) continue;
      const home = this.#nearestConfig(file);
      const key = `loose:${home?.key ?? ''}`;
      let project = this.#projects.get(key);
      if (!project) {
        project = this.#reuse(old, {
          key,
          dir: home?.dir ?? this.root,
          roots: new Set(),
          options: this.#looseOptions(home),
        });
        this.#projects.set(key, project);
      }
      project.roots.add(file);
    }
    for (const [key, project] of old) if (!this.#projects.has(key)) project.service?.dispose();
  }

  #addConfig(config: string, old: Map<string, Project>): void {
    if (this.#projects.has(config) || this.#projects.size >= MAX_PROJECTS * 2) return;
    const parsed = this.ts.getParsedCommandLineOfConfigFile(
      config,
      {},
      { ...this.ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!parsed) return;
    const project = this.#reuse(old, {
      key: config,
      dir: path.dirname(config),
      roots: new Set(parsed.fileNames.map((f) => path.resolve(f))),
      options: { ...parsed.options, noEmit: true },
      ...(parsed.projectReferences ? { references: parsed.projectReferences } : {}),
    });
    this.#projects.set(config, project);
    // A solution-style config (`files: []`, references to tsconfig.app.json …) names the projects that hold files.
    for (const reference of parsed.projectReferences ?? []) {
      const referenced = this.ts.resolveProjectReferencePath(reference);
      if (this.texts.exists(referenced)) this.#addConfig(path.resolve(referenced), old);
    }
  }

  /** A project whose settings did not change keeps its warm language service. */
  #reuse(old: Map<string, Project>, fresh: Project): Project {
    const before = old.get(fresh.key);
    if (!before || JSON.stringify(before.options) !== JSON.stringify(fresh.options)) return fresh;
    before.roots = fresh.roots;
    return before;
  }

  #nearestConfig(file: string): Project | undefined {
    let best: Project | undefined;
    for (const project of this.#projects.values()) {
      if (project.key.startsWith('loose:') || !file.startsWith(project.dir + path.sep)) continue;
      if (!best || project.dir.length > best.dir.length) best = project;
    }
    return best;
  }

  #looseOptions(home: Project | undefined): TS.CompilerOptions {
    if (!home) return inferredOptions(this.ts);
    // The config's settings, without what ties files to its own list and output.
    const { rootDir, rootDirs, composite, outDir, declarationDir, tsBuildInfoFile, ...rest } = home.options;
    return { ...rest, allowJs: true, noEmit: true, incremental: false };
  }

  /** The project that compiles `file`: the deepest config including it, else its loose project. */
  homeOf(file: string): Project {
    let best: Project | undefined;
    for (const project of this.#projects.values()) {
      if (!project.roots.has(file)) continue;
      if (!best || best.key.startsWith('loose:') || project.dir.length > best.dir.length) best = project;
    }
    if (best) return best;
    // A file not on disk yet (or created since the last walk): the loose project beside its nearest config.
    const home = this.#nearestConfig(file);
    const key = `loose:${home?.key ?? ''}`;
    let project = this.#projects.get(key);
    if (!project) {
      project = { key, dir: home?.dir ?? this.root, roots: new Set(), options: this.#looseOptions(home) };
      this.#projects.set(key, project);
    }
    project.roots.add(file);
    this.#stale = true;
    return project;
  }

  /**
   * The projects a reference search consults: the file's own first, then the others that may import it: with
   * `name`, only those with a file whose text holds it (a monorepo's other packages, not its dozens of examples,
   * each a program to build), the project's own before its examples' and tests'.
   */
  consulted(file: string, name?: string): Project[] {
    const home = this.homeOf(file);
    const mentions = (project: Project) =>
      name === undefined || [...project.roots].some((root) => this.texts.text(root)?.includes(name) === true);
    const support = (project: Project) =>
      isSupportFolder(path.relative(this.root, project.dir).split(path.sep).join('/')) ? 1 : 0;
    const others = [...this.#projects.values()]
      .filter((p) => p !== home && p.roots.size > 0 && mentions(p))
      .sort((a, b) => support(a) - support(b));
    return [home, ...others].slice(0, MAX_PROJECTS);
  }

  service(project: Project): TS.LanguageService {
    if (project.service) return project.service;
    const { ts, texts, cancellation } = this;
    const packages = this.#packages;
    const moduleHost: TS.ModuleResolutionHost = {
      fileExists: (file) => texts.exists(file),
      readFile: (file) => texts.text(file),
      // A folder a change removed holds the overlay's files while they are checked as they were.
      directoryExists: (dir) =>
        ts.sys.directoryExists(dir) || texts.overlayFiles().some((f) => f.startsWith(`${dir}${path.sep}`)),
      realpath: ts.sys.realpath,
      getCurrentDirectory: () => project.dir,
      getDirectories: ts.sys.getDirectories,
    };
    // One cache per generation of the texts: a deleted file, or one an overlay brings back, resolves anew.
    let cache = ts.createModuleResolutionCache(project.dir, (name) => name, project.options);
    let cacheOf = texts.generation;
    const host: TS.LanguageServiceHost = {
      // TypeScript's own resolution first; a workspace package it cannot find resolves to its source. Each import
      // in its own mode (an ES module's under NodeNext: `./fetch` without its extension does not resolve there, as
      // tsc says); without the mode every import resolved as CommonJS.
      resolveModuleNameLiterals: (literals, containing, redirected, options, sourceFile) => {
        if (cacheOf !== texts.generation) {
          cache = ts.createModuleResolutionCache(project.dir, (name) => name, project.options);
          cacheOf = texts.generation;
        }
        return literals.map((literal) => {
          const name = literal.text;
          const resolved = ts.resolveModuleName(
            name,
            containing,
            options,
            moduleHost,
            cache,
            redirected,
            ts.getModeForUsageLocation(sourceFile, literal, options),
          );
          if (resolved.resolvedModule) return resolved;
          const source = packages.get(name);
          return source === undefined
            ? resolved
            : {
                resolvedModule: {
                  resolvedFileName: source,
                  extension: extensionOf(ts, source),
                  isExternalLibraryImport: false,
                },
              };
        });
      },
      getCompilationSettings: () => project.options,
      getProjectReferences: () => project.references,
      // The overlay's files not on disk are roots too where the project's folder holds them: a file a change would
      // create, or one it removed, checked as it was.
      getScriptFileNames: () => [
        ...[...project.roots].filter((f) => texts.exists(f)),
        ...texts
          .overlayFiles()
          .filter(
            (f) => !project.roots.has(f) && isTsFile(f) && !path.relative(project.dir, f).startsWith('..'),
          ),
      ],
      getScriptVersion: (file) => texts.version(file),
      getScriptSnapshot: (file) => {
        const text = texts.text(file);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => project.dir,
      getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
      fileExists: (file) => texts.exists(file),
      readFile: (file) => texts.text(file),
      readDirectory: ts.sys.readDirectory,
      // A folder a change removed holds the overlay's files while they are checked as they were.
      directoryExists: (dir) =>
        ts.sys.directoryExists(dir) || texts.overlayFiles().some((f) => f.startsWith(`${dir}${path.sep}`)),
      getDirectories: ts.sys.getDirectories,
      realpath: ts.sys.realpath,
      useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
      getCancellationToken: () => ({
        isCancellationRequested: () =>
          Date.now() > cancellation.deadline || cancellation.signal?.aborted === true,
      }),
    };
    project.service = ts.createLanguageService(host, this.#registry);
    return project.service;
  }

  dispose(): void {
    for (const project of this.#projects.values()) project.service?.dispose();
    this.#projects.clear();
  }
}
