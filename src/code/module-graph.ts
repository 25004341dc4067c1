// The module graph: imports resolved to files of the repository (TS/JS relative paths with extensions and index
// files, Python packages, Dart package:/relative URIs, Go packages by go.mod, Rust crate/super/mod paths, Java
// packages), and its import cycles (import-cycles.ts).
import { posix } from 'node:path';
import type { CodeIndex } from './code-index.js';
import type { PathAlias } from './entry-points.js';
import { type CyclicGroup, findCycles } from './import-cycles.js';
import { PYTHON_STDLIB } from './python-stdlib.js';
import type { Import } from './tags.js';

const TS_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];

export interface ModuleGraph {
  /** File → the repository files it imports. */
  edges: Map<string, string[]>;
  /** Modules outside the repository (packages, the standard library) → how many files import them. */
  external: Map<string, number>;
  /** The groups of files that import each other at run time, with their shortest cycles. */
  cycles: CyclicGroup[];
  /**
   * The further cycles only type-only imports close (`import type`, Python's `if TYPE_CHECKING:`), which do not run:
   * how many (`atLeast` as a group's), and the shortest of them.
   */
  typeOnly: { count: number; atLeast: boolean; cycles: string[][] };
}

/** A Dart package of the repository: pubspec.yaml's `name` and its folder (workspace-relative, '' for the root). */
export interface DartPackage {
  name: string;
  root: string;
}

/** A folder a build writes (`lib/`, `dist/`): an import of a file there that the repository lacks names its source. */
const BUILT_FOLDER = /(^|\/)(lib|dist|build|out|esm|cjs)(?=\/|$)/g;

/**
 * Resolves imports against the index's file list; `goModule` is go.mod's module path, if any. `builtToSource`: a
 * relative import of a built file the repository lacks (babel's tests' `require('../lib/index.js')`) resolves to its
 * source beside it (`src/index.ts`), for the map; checks of imports leave it unresolved, as it is.
 */
export class ImportResolver {
  private readonly files: Set<string>;
  private readonly byDir = new Map<string, string[]>();
  /** Base name → files: a package path rooted anywhere is looked up by its last part, not against every file. */
  private readonly byBase = new Map<string, string[]>();

  /** Workspace package name (or an exported subpath of one) → its source file, for `@scope/pkg` imports. */
  private readonly packages: ReadonlyMap<string, string>;
  private readonly aliases: readonly PathAlias[];

  constructor(
    index: CodeIndex,
    private readonly goModule = index.project?.goModule,
    private readonly options: { builtToSource?: boolean; dartPackage?: DartPackage } = {},
  ) {
    const project = index.project;
    this.packages = new Map([...(project?.packages ?? []), ...(project?.subpaths ?? [])]);
    this.aliases = project?.aliases ?? [];
    this.files = new Set(index.files.keys());
    for (const file of this.files) {
      const dir = posix.dirname(file);
      const base = posix.basename(file);
      const inDir = this.byDir.get(dir);
      if (inDir) inDir.push(file);
      else this.byDir.set(dir, [file]);
      const named = this.byBase.get(base);
      if (named) named.push(file);
      else this.byBase.set(base, [file]);
    }
  }

  private first(candidates: string[]): string[] {
    for (const c of candidates) {
      // Candidates built on posix.join are normalised already; normalising each would cost more than the lookup.
      const path = c.startsWith('./') || c.includes('/.') ? posix.normalize(c) : c;
      if (this.files.has(path)) return [path];
    }
    return [];
  }

  /** The shortest file ending in one of the suffixes (a package path rooted anywhere: src/, lib/). */
  private bySuffix(suffixes: string[]): string[] {
    let best: string | undefined;
    for (const suffix of suffixes) {
      for (const file of this.byBase.get(posix.basename(suffix)) ?? []) {
        if ((file === suffix || file.endsWith(`/${suffix}`)) && (!best || file.length < best.length))
          best = file;
      }
    }
    return best ? [best] : [];
  }

  /**
   * The file an absolute Python import names: under a source root (the workspace's, `src/`, `python/`, a tests
   * folder), never inside a package (a folder with an `__init__.py`): `import typing` is the standard library's,
   * not `pydantic/typing.py`, which is `pydantic.typing`. A standard library name is the project's only at the
   * root or in `src/`.
   */
  private topLevelPython(suffixes: string[]): string[] {
    const key = suffixes[0]!;
    let found = this.pythonTopLevel.get(key);
    if (!found) {
      found = this.findTopLevelPython(suffixes);
      this.pythonTopLevel.set(key, found);
    }
    return found.length === 0 ? [] : [...found];
  }

  /** Absolute Python modules already looked up, by their first suffix: many files import the same ones. */
  private readonly pythonTopLevel = new Map<string, string[]>();

  private findTopLevelPython(suffixes: string[]): string[] {
    const stdlib = PYTHON_STDLIB.has(suffixes[0]!.split('/')[0]!.replace(/\.pyi?$/, ''));
    let best: string | undefined;
    for (const suffix of suffixes) {
      for (const file of this.byBase.get(posix.basename(suffix)) ?? []) {
        if (file !== suffix && !file.endsWith(`/${suffix}`)) continue;
        const root = file === suffix ? '' : file.slice(0, -suffix.length - 1);
        if (root !== '' && this.files.has(`${root}/__init__.py`)) continue;
        if (stdlib && root !== '' && root !== 'src') continue;
        if (!best || file.length < best.length) best = file;
      }
    }
    return best ? [best] : [];
  }

  /** The script file an import path names: itself, with a TypeScript or JavaScript extension, or its index. */
  private script(base: string): string | undefined {
    // `require('..')` from test/: the repository's root module.
    if (base === '.' || base === '') {
      for (const e of TS_EXTENSIONS) if (this.files.has(`index${e}`)) return `index${e}`;
      return undefined;
    }
    if (this.files.has(base)) return base;
    // Candidates tried one by one, built only as needed: most imports resolve on the first or second.
    const stripped = base.replace(/\.(m|c)?jsx?$/, '');
    for (const e of TS_EXTENSIONS) if (this.files.has(stripped + e)) return stripped + e;
    for (const e of TS_EXTENSIONS) if (this.files.has(`${base}/index${e}`)) return `${base}/index${e}`;
    return undefined;
  }

  /** The source of a built path the repository lacks: its last built folder read as `src/` (see builtToSource). */
  private source(built: string): string | undefined {
    const matches = [...built.matchAll(BUILT_FOLDER)];
    const last = matches.at(-1);
    if (!last) return undefined;
    const at = last.index + last[1]!.length;
    return this.script(`${built.slice(0, at)}src${built.slice(at + last[2]!.length)}`);
  }

  /** The repository files an import of `from` refers to; empty for external modules. */
  resolve(from: string, imp: Import, language: string): string[] {
    const dir = posix.dirname(from);
    const m = imp.module;
    switch (language) {
      case 'typescript':
      case 'tsx':
      case 'javascript': {
        if (!m.startsWith('.')) {
          const entry = this.packages.get(m);
          if (entry) return [entry];
          // tsconfig `paths` (`@/lib/utils` → src/lib/utils.ts) and `baseUrl`.
          for (const { pattern, targets, scope } of this.aliases) {
            if (scope !== undefined && !from.startsWith(`${scope}/`)) continue;
            const star = pattern.indexOf('*');
            const rest =
              star < 0
                ? m === pattern
                  ? ''
                  : undefined
                : m.startsWith(pattern.slice(0, star)) && m.endsWith(pattern.slice(star + 1))
                  ? m.slice(star, m.length - (pattern.length - star - 1))
                  : undefined;
            if (rest === undefined) continue;
            for (const target of targets) {
              const found = this.script(target.replace('*', rest));
              if (found) return [found];
            }
          }
          return [];
        }
        const joined = posix.join(dir, m);
        const found = this.script(joined) ?? (this.options.builtToSource ? this.source(joined) : undefined);
        return found ? [found] : [];
      }
      case 'python': {
        const dots = /^\.*/.exec(m)![0].length;
        const rest = m.slice(dots).split('.').filter(Boolean).join('/');
        const asModule = (p: string) => [`${p}.py`, `${p}/__init__.py`, `${p}.pyi`];
        if (dots > 0) {
          let base = dir;
          for (let i = 1; i < dots; i++) base = posix.dirname(base);
          const target = rest ? posix.join(base, rest) : base;
          const direct = this.first(asModule(target));
          // `from . import mod` names modules of the package.
          const named = imp.names.flatMap((n) => this.first(asModule(posix.join(target, n))));
          return named.length > 0 ? named : direct;
        }
        const named = imp.names.flatMap((n) => this.topLevelPython(asModule(`${rest}/${n}`)));
        return named.length > 0 ? named : this.topLevelPython(asModule(rest));
      }
      case 'dart': {
        if (m.startsWith('dart:')) return [];
        const pkg = /^package:([^/]+)\/(.+)$/.exec(m);
        if (pkg) {
          // The package known: its own URIs are files under its lib/, another package's none of the repository's.
          const own = this.options.dartPackage;
          if (own) return own.name === pkg[1] ? this.first([posix.join(own.root, 'lib', pkg[2]!)]) : [];
          const local = this.first([`lib/${pkg[2]}`]);
          return local.length > 0 ? local : this.bySuffix([`lib/${pkg[2]}`]);
        }
        return this.first([posix.join(dir, m)]);
      }
      case 'go': {
        if (!this.goModule || !(m === this.goModule || m.startsWith(`${this.goModule}/`))) return [];
        const pkgDir = m === this.goModule ? '.' : m.slice(this.goModule.length + 1);
        return (this.byDir.get(pkgDir) ?? []).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
      }
      case 'rust': {
        const parts = m.split('::');
        const isMod = /^(pub(\([^)]*\))?\s+)?mod\b/.test(imp.text);
        // A file's own submodules live beside it (lib.rs, main.rs, mod.rs) or in a directory named for it.
        const own = /(^|\/)(lib|main|mod)\.rs$/.test(from)
          ? dir
          : posix.join(dir, posix.basename(from, '.rs'));
        if (isMod) return this.first([`${own}/${m}.rs`, `${own}/${m}/mod.rs`]);
        let base: string;
        if (parts[0] === 'crate') base = this.crateRoot(from);
        else if (parts[0] === 'super') base = posix.dirname(own);
        else if (parts[0] === 'self') base = own;
        else return [];
        const path = parts.slice(1);
        // `use crate::a::b::Item`: the longest prefix that is a module file.
        for (let n = path.length; n > 0; n--) {
          const p = posix.join(base, ...path.slice(0, n));
          const hit = this.first([`${p}.rs`, `${p}/mod.rs`]);
          if (hit.length > 0) return hit;
        }
        return [];
      }
      case 'java': {
        const p = m
          .replace(/\.\*?$/, '')
          .split('.')
          .join('/');
        return this.bySuffix([`${p}.java`]);
      }
      default:
        return [];
    }
  }

  private crateRoot(from: string): string {
    const at = from.lastIndexOf('src/');
    if (at >= 0) return from.slice(0, at + 3);
    // A crate without src/ (ripgrep's crates/core/main.rs, named in Cargo.toml): the nearest folder up holding a
    // main.rs or lib.rs.
    for (let dir = posix.dirname(from); ; dir = posix.dirname(dir)) {
      const root = (this.byDir.get(dir) ?? []).some((f) => /(^|\/)(main|lib)\.rs$/.test(f));
      if (root) return dir;
      if (dir === '.' || dir === '/') return 'src';
    }
  }
}

/** The import graph of the files under `under` (a workspace-relative directory or file; '' for all). */
export function buildModuleGraph(index: CodeIndex, under: string, goModule?: string): ModuleGraph {
  const resolver = new ImportResolver(index, goModule ?? index.project?.goModule);
  const edges = new Map<string, string[]>();
  /** The edges of imports that run: not type-only ones. */
  const running = new Map<string, string[]>();
  const external = new Map<string, number>();
  const inScope = (p: string) => under === '' || p === under || p.startsWith(`${under}/`);
  for (const [file, tags] of index.files) {
    if (!inScope(file)) continue;
    const targets = new Set<string>();
    const run = new Set<string>();
    for (const imp of tags.imports) {
      const resolved = resolver.resolve(file, imp, tags.language);
      if (resolved.length === 0 && !/^\.|^(crate|super|self)\b/.test(imp.module)) {
        external.set(imp.module, (external.get(imp.module) ?? 0) + 1);
      }
      for (const target of resolved) {
        targets.add(target);
        if (!imp.typeOnly) run.add(target);
      }
    }
    edges.set(file, [...targets].sort());
    running.set(file, [...run].sort());
  }
  const cycles = findCycles(running);
  return { edges, external, cycles, typeOnly: typeOnlyCycles(findCycles(edges), cycles, running) };
}

/** Most type-only cycles listed. */
const LISTED_TYPE_ONLY = 3;

/** The cycles of the whole graph (`all`) beyond those of the imports that run: each closed by a type-only import. */
function typeOnlyCycles(
  all: readonly CyclicGroup[],
  runtime: readonly CyclicGroup[],
  running: ReadonlyMap<string, readonly string[]>,
): ModuleGraph['typeOnly'] {
  const sum = (groups: readonly CyclicGroup[]) => groups.reduce((n, g) => n + g.count, 0);
  const typed = (cycle: readonly string[]) =>
    cycle.some((from, i) => !(running.get(from) ?? []).includes(cycle[(i + 1) % cycle.length]!));
  const listed = all
    .flatMap((g) => g.cycles.filter(typed))
    .sort((a, b) => a.length - b.length)
    .slice(0, LISTED_TYPE_ONLY);
  return {
    count: Math.max(sum(all) - sum(runtime), listed.length),
    atLeast: all.some((g) => g.atLeast),
    cycles: listed,
  };
}
