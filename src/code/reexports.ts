// The modules through which a name defined in one file is imported: the file itself, and the barrels and packages
// that re-export it (`export {a} from`, `export *`, an import listed again in `export {…}`, a Python package's
// `__init__.py` importing it, `from .m import *`), transitively. An importer of any of them may use the name, so a
// search by name (find_references, rename_symbol, inspect_symbol's count) reads it.
import { posix } from 'node:path';
import type { CodeIndex } from './code-index.js';
import type { Import } from './imports.js';
import type { ImportResolver } from './module-graph.js';

/** Languages whose imports resolve to files, so that importers can be told apart from other files. */
export const RESOLVED_LANGUAGES: ReadonlySet<string> = new Set([
  'typescript',
  'tsx',
  'javascript',
  'python',
  'dart',
]);

/** Whether `imp` (in a file of `language`, `exported`: the names that file exports by a list) passes `name` on. */
function passesOn(
  imp: Import,
  name: string,
  language: string,
  file: string,
  exported: ReadonlySet<string>,
): boolean {
  const star = imp.bindings.some((b) => b.name === '*' && b.alias === undefined);
  const named = imp.bindings.find((b) => b.name === name);
  if (language === 'python') {
    // A package passes on what its `__init__` imports; any module passes on what it star-imports.
    if (star) return true;
    return named !== undefined && named.alias === undefined && posix.basename(file) === '__init__.py';
  }
  if (language === 'dart') return imp.reexport && imp.bindings.length === 0;
  if (imp.reexport) return star || (named !== undefined && (named.alias ?? name) === name);
  // `import {a} from './a'; export {a}`.
  return named !== undefined && named.alias === undefined && exported.has(name);
}

/**
 * The files through which `names` (defined at the top level of the files `definedIn`) may be imported: those files
 * and the files re-exporting the names from them, through any number of barrels.
 */
export function reexportingFiles(
  index: CodeIndex,
  resolver: ImportResolver,
  definedIn: readonly string[],
  names: readonly string[],
): Set<string> {
  const carriers = new Set(definedIn);
  const candidates = [...index.files].filter(
    ([file, tags]) => !carriers.has(file) && RESOLVED_LANGUAGES.has(tags.language),
  );
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, tags] of candidates) {
      if (carriers.has(file)) continue;
      const exported = new Set((tags.exports ?? []).map((e) => e.name));
      const passes = tags.imports.some(
        (imp) =>
          names.some((name) => passesOn(imp, name, tags.language, file, exported)) &&
          resolver.resolve(file, imp, tags.language).some((target) => carriers.has(target)),
      );
      if (passes) {
        carriers.add(file);
        grew = true;
      }
    }
  }
  return carriers;
}

/**
 * The files carrying a searched name (reexportingFiles), computed once when first asked: from `definedIn`, else from
 * every file defining it; through the name, or a member's class's name.
 */
export function carriersFor(
  index: CodeIndex,
  resolver: ImportResolver,
  defs: readonly { path: string; def: { container?: string } }[],
  name: string,
  members: boolean,
  definedIn: string | undefined,
): () => Set<string> {
  let carriers: Set<string> | undefined;
  return () => {
    const names = [...new Set(defs.map((d) => (members ? (d.def.container ?? name) : name)))];
    const from = definedIn === undefined ? [...new Set(defs.map((d) => d.path))] : [definedIn];
    carriers ??= reexportingFiles(index, resolver, from, names);
    return carriers;
  };
}

/**
 * The names a file binds to whole modules among `carriers` (`import requests`, `import * as errors from
 * './errors'`, `from . import sessions`), as written before the `.` of a use: `requests.Session` is a use of the
 * Session those modules carry. `all`: every name the file binds to a module, of the project or not (an attribute of
 * one, `requests.auth`, is no class's member); `imported`: Python's modules taken by name (`auth` in `from . import
 * auth as a`), which that import names, not a definition.
 */
export function moduleReceivers(
  file: string,
  imports: readonly Import[],
  language: string,
  resolver: ImportResolver,
  carriers: ReadonlySet<string> | undefined,
): { carriers: Set<string>; all: Set<string>; imported: Set<string> } {
  const through = new Set<string>();
  const all = new Set<string>();
  const imported = new Set<string>();
  for (const imp of imports) {
    const bound: string[] = [];
    if (imp.alias) bound.push(imp.alias);
    else if (language === 'python' && imp.bindings.length === 0) bound.push(imp.module);
    for (const b of imp.bindings)
      if (b.name === '*' && b.alias) bound.push(b.alias);
      else if (language === 'python' && b.name !== '*') {
        // `from pkg import mod`: a module only when it resolves to one of its own.
        const module = resolver.resolve(file, { ...imp, names: [b.name] }, language);
        if (module.some((m) => moduleNamed(m, b.name))) {
          bound.push(b.alias ?? b.name);
          imported.add(`${imp.module} ${b.name}`);
        }
      }
    if (bound.length === 0) continue;
    for (const name of bound) all.add(name);
    if (carriers && resolver.resolve(file, imp, language).some((target) => carriers.has(target)))
      for (const name of bound) through.add(name);
  }
  return { carriers: through, all, imported };
}

/** Whether a Python file is the module `name` (`auth.py`, `auth/__init__.py`). */
function moduleNamed(file: string, name: string): boolean {
  const base = posix.basename(file).replace(/\.pyi?$/, '');
  return base === name || (base === '__init__' && posix.basename(posix.dirname(file)) === name);
}
