// The repository map's dependency graph: resolved imports and names used in one file and defined in another.
// A name is a node of its own (file → name → the files defining it), so the graph grows with the references,
// not with references × definitions: `foo`, defined in 5,000 fixtures, is one node, not 5,000 edges per use.
// A bare use reaches top-level definitions, a use as `x.name` the members of classes (`.name` is a node of its own);
// an ES module's top-level names it does not export reach nothing outside it.
import type { CodeIndex } from './code-index.js';
import { isPlatformFile } from './file-roles.js';
import { localNames } from './imports.js';
import { ImportResolver } from './module-graph.js';
import { type Definition, type FileTags, forEachReference } from './tags.js';

/** An import resolved to a repository file says as much as a use of a long, specific name. */
const IMPORT_WEIGHT = 10;
/** What a member use passes on of its share when many files write the name as a property of their own records. */
const COMMON_MEMBER_SHARE = 0.1;
/**
 * What a use of a platform shim (a file for one operating system) passes on of its share: the code does without it
 * elsewhere. click's _compat.py, used by every module, imports only _winconsole.py, which had all its rank.
 */
const PLATFORM_SHARE = 0.1;
/** How deep a name taken from a barrel is followed through its re-exports to the file defining it. */
const MAX_REEXPORT_DEPTH = 4;

/**
 * Methods of the languages' own collections, strings, promises and common interfaces: `xs.push(…)`, `s.split(…)`, `d.items()` are
 * almost always theirs, not a method of the project's that happens to share the name (Vue's arrayInstrumentations
 * object defines push, map, includes…). A member use of one says little.
 */
const BUILTIN_METHODS = new Set(
  (
    'push pop shift unshift slice splice concat join map filter reduce forEach find findIndex findLast some every ' +
    'includes indexOf lastIndexOf flat flatMap fill sort reverse keys values entries at get set has delete clear add ' +
    'then catch finally call apply bind toString valueOf replace replaceAll split trim startsWith endsWith padStart ' +
    'padEnd toLowerCase toUpperCase charAt charCodeAt match matchAll substring test exec hasOwnProperty ' +
    'append extend insert remove index count copy items update setdefault popitem discard strip lstrip rstrip ' +
    'startswith endswith lower upper format encode decode ' +
    // Files and streams (Python's io, Node's streams): `sys.stdout.write(…)`, `f.read()`.
    'write read readline readlines writelines flush close seek tell fileno isatty end pipe on once emit ' +
    // Go's io, fmt, sort, context and sync interfaces, written by every writer, error and mutex.
    'Write WriteString WriteByte WriteRune Read ReadByte ReadRune Close String Error Len Less Swap Unwrap Flush ' +
    'Lock Unlock RLock RUnlock Done Err Value Deadline Seek ' +
    // Java's Object and collections; Rust's Clone, Option, Result and iterators.
    'equals hashCode size isEmpty contains put iterator stream clone unwrap expect iter len is_empty collect into'
  ).split(' '),
);

/** How much a use of `name` says about a dependency: little when it is private or defined in many files. */
function nameWeight(name: string, definers: number, member = false): number {
  let weight = 1;
  if (member && BUILTIN_METHODS.has(name)) weight *= 0.1;
  // Long, specific names (camelCase, snake_case) say more than short generic ones.
  if (name.length >= 8 && /[a-z][A-Z]|_[a-z]/.test(name)) weight *= 10;
  if (name.startsWith('_')) weight *= 0.1;
  if (definers > 5) weight *= 0.1;
  return weight;
}

const ES_LANGUAGES = new Set(['typescript', 'tsx', 'javascript']);

/**
 * For an ES module, which of its definitions no other file can use: top-level names it does not export (a script's
 * `const args`, `program`), which would otherwise take every use of a parameter or local of that name elsewhere.
 * Undefined for other files: a declaration file's ambient names, CommonJS, Go's package-wide names, Python's.
 */
function modulePrivate(path: string, tags: FileTags): ((def: Definition) => boolean) | undefined {
  if (!ES_LANGUAGES.has(tags.language) || /\.d\.[cm]?ts$/.test(path) || tags.quick) return undefined;
  // A `require('m')` makes no ES module: a CommonJS file's top-level names stay reachable by name.
  const esm =
    tags.imports.some((imp) => !imp.commonJs) ||
    (tags.exports?.length ?? 0) > 0 ||
    tags.definitions.some((d) => d.exported);
  if (!esm) return undefined;
  const exported = new Set(tags.exports?.map((e) => e.name));
  // A method with no class (an exported object's) is reached as a member: never private so.
  return (def) =>
    def.container === undefined && def.kind !== 'method' && !def.exported && !exported.has(def.name);
}

/** True when the sorted list holds `value`. */
function holds(sorted: number[], value: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = sorted[mid]!;
    if (at === value) return true;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export interface Graph {
  /** Per file, its edges in [offsets[i], offsets[i+1]): a target below n is a file, n + k is name k. */
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  /** Per name, its defining files in [nameOffsets[k], nameOffsets[k+1]). */
  nameOffsets: Int32Array;
  definers: Int32Array;
  /** Name k. */
  names: string[];
}

export function buildGraph(index: CodeIndex, paths: string[], supportFile: Uint8Array): Graph {
  const n = paths.length;
  const nameIds = new Map<string, number>();
  const definerLists: number[][] = [];
  paths.forEach((p, i) => {
    const tags = index.files.get(p)!;
    const privateTop = modulePrivate(p, tags);
    for (const def of tags.definitions) {
      if (privateTop?.(def)) continue;
      // A member (a method or field of a class, a Go method) is its own name node, `.name`: member uses reach it.
      const key = def.container === undefined && def.kind !== 'method' ? def.name : `.${def.name}`;
      let id = nameIds.get(key);
      if (id === undefined) {
        id = definerLists.length;
        nameIds.set(key, id);
        definerLists.push([]);
      }
      const list = definerLists[id]!;
      if (list.at(-1) !== i) list.push(i);
    }
  });
  // A name is generic when many of the project's own files define it: tests' stand-ins (a test's own `class
  // BaseModel`) do not make pydantic's BaseModel one.
  const weightOf = new Float64Array(definerLists.length);
  for (const [name, id] of nameIds) {
    const list = definerLists[id]!;
    const own = list.filter((i) => !supportFile[i]).length;
    weightOf[id] = nameWeight(name.replace(/^\./, ''), own > 0 ? own : list.length, name.startsWith('.'));
  }

  const resolver = new ImportResolver(index, undefined, { builtToSource: true });
  const packageInits = Uint8Array.from(paths, (p) =>
    p === '__init__.py' || p.endsWith('/__init__.py') ? 1 : 0,
  );
  /** How many public names a file defines at its top level. */
  const publicCount = (file: string) =>
    index.files.get(file)?.definitions.filter((d) => !d.container && !d.name.startsWith('_')).length ?? 0;
  /** Whether the file defines `name` where an import can take it (its top level, exported). */
  const definesName = (file: number, name: string) => {
    const id = nameIds.get(name);
    return id !== undefined && holds(definerLists[id]!, file);
  };

  const position = new Map(paths.map((p, i) => [p, i]));
  /** Per file and name: the files defining the name its re-exports lead to (memoised; a barrel is asked often). */
  const viaMemo = new Map<string, number[]>();
  /**
   * The files defining `name` that `file` passes it on from: through `export … from` (a named or `*` re-export)
   * and a package __init__.py's imports, at most MAX_REEXPORT_DEPTH deep.
   */
  const definersVia = (file: number, name: string, depth = 0, seen = new Set<number>()): number[] => {
    if (definesName(file, name)) return [file];
    if (depth >= MAX_REEXPORT_DEPTH || seen.has(file)) return [];
    const key = `${file}\0${name}`;
    const known = viaMemo.get(key);
    if (known) return known;
    seen.add(file);
    const path = paths[file]!;
    const tags = index.files.get(path)!;
    const found: number[] = [];
    for (const imp of tags.imports) {
      if (!imp.reexport && packageInits[file] !== 1) continue;
      const named = imp.bindings.find((b) => (b.alias ?? b.name) === name && b.name !== '*');
      if (!named && !imp.bindings.some((b) => b.name === '*' && !b.alias)) continue;
      for (const target of resolver.resolve(path, imp, tags.language)) {
        const to = position.get(target);
        if (to !== undefined && to !== file)
          for (const definer of definersVia(to, named ? named.name : name, depth + 1, seen))
            if (!found.includes(definer)) found.push(definer);
      }
      if (named && found.length > 0) break;
    }
    viaMemo.set(key, found);
    return found;
  };
  const offsets = new Int32Array(n + 1);
  const targets: number[] = [];
  const weights: number[] = [];
  /** Per edge, the name node it reaches through (-1: an import). */
  const through: number[] = [];
  /** Per name, how many files write it as a property name (`{ line: 1 }`, `line?: number`). */
  const asProperty = new Map<string, number>();
  paths.forEach((p, from) => {
    const tags = index.files.get(p)!;
    const imported = new Map<number, number>();
    const bound = new Set<string>();
    /** Names taken from files that only pass them on (made when the file has one). */
    let passedOn: Set<string> | undefined;
    const references = new Map<string, number>();
    forEachReference(tags, (name, count) => references.set(name, count));
    /** The files of modules bound to a name here, and the names they were found to give. */
    const modules: number[] = [];
    const viaModule = new Set<string>();
    for (const imp of tags.imports) {
      const files = resolver.resolve(p, imp, tags.language);
      if (files.length === 0) continue;
      if (imp.alias !== undefined && imp.typeOnly !== true)
        for (const file of files) {
          const at = position.get(file);
          if (at !== undefined && at !== from) modules.push(at);
        }
      // A barrel's re-export or a type-only import passes names along; the code that uses them depends more.
      // A package's __init__.py passes on what it imports, at run time or only for type checkers: each name is
      // its API, used at least once, and `from .main import *` gives as many as main.py defines.
      const packageInit = packageInits[from] === 1;
      const passing = imp.reexport || imp.typeOnly === true || packageInit;
      let uses = 0;
      for (const local of localNames(imp, tags.language)) {
        bound.add(local);
        // A dunder (`__version__`, `__title__`) is the package's metadata, not its API.
        const api = packageInit ? (local.startsWith('__') ? 0.01 : 1) : 0;
        uses += Math.sqrt(Math.max(api, references.get(local) ?? 0));
      }
      if (packageInit && imp.bindings.some((b) => b.name === '*'))
        uses += Math.sqrt(Math.max(1, ...files.map((file) => publicCount(file))));
      // A name taken from a file that only passes it on (a package's __init__.py, a barrel) is a use of the file
      // its re-exports lead to: `from pydantic import BaseModel` depends on pydantic/main.py, and `import {
      // transformAsync } from '@babel/core'` on babel-core's, not on babel-standalone's of that name. Where the
      // chain cannot be followed, a use of the name, reaching every file defining it.
      for (const b of imp.bindings) {
        if (b.name === '*' || files.some((file) => definesName(position.get(file) ?? -1, b.name))) continue;
        const definers = files.flatMap((file) => {
          const at = position.get(file);
          return at === undefined ? [] : definersVia(at, b.name);
        });
        const count = references.get(b.alias ?? b.name) ?? 0;
        if (definers.length > 0) {
          const weight = (IMPORT_WEIGHT * (1 + Math.sqrt(count))) / definers.length;
          for (const to of definers) if (to !== from) imported.set(to, (imported.get(to) ?? 0) + weight);
        } else if (!b.alias) {
          passedOn ??= new Set();
          passedOn.add(b.name);
        }
      }
      const weight = (passing ? IMPORT_WEIGHT * 0.2 : IMPORT_WEIGHT) * (1 + uses);
      for (const file of files) {
        const to = position.get(file);
        if (to !== undefined && to !== from) imported.set(to, (imported.get(to) ?? 0) + weight);
      }
    }
    // A module bound to a name (`import * as babel`, `const babel = require(…)`): the names the file uses that its
    // re-exports lead to are uses of the files defining them (`babel.transformAsync`: babel-core's), not of every
    // file defining the name.
    if (modules.length > 0)
      for (const [name, count] of references) {
        if (!/^[A-Za-z_$]/.test(name) || bound.has(name)) continue;
        const definers = modules.flatMap((file) => definersVia(file, name));
        if (definers.length === 0) continue;
        const weight = (IMPORT_WEIGHT * (1 + Math.sqrt(count))) / definers.length;
        for (const to of definers) if (to !== from) imported.set(to, (imported.get(to) ?? 0) + weight);
        viaModule.add(name);
      }
    for (const [to, weight] of imported) {
      targets.push(to);
      weights.push(weight);
      through.push(-1);
    }
    const link = (key: string, count: number) => {
      const id = nameIds.get(key);
      // A name the file defines itself is most likely its own.
      if (id === undefined || holds(definerLists[id]!, from)) return;
      targets.push(n + id);
      weights.push(weightOf[id]! * Math.sqrt(count));
      through.push(id);
    };
    for (const [name, count] of references) {
      // `.name` reaches the members of classes (a module's member, `ns.name`, was kept bare by the tags); `:name`
      // (`Type::name`) members and top-level names alike; `~name` is the file's own variable, `'name` a property
      // name; a bare name it imports from a known file is counted there.
      if (name.startsWith(':')) {
        link(name.slice(1), count);
        link(`.${name.slice(1)}`, count);
      } else if (name.startsWith("'"))
        asProperty.set(name.slice(1), (asProperty.get(name.slice(1)) ?? 0) + 1);
      else if (
        !name.startsWith('~') &&
        !viaModule.has(name) &&
        (!bound.has(name) || passedOn?.has(name) === true)
      )
        link(name, count);
    }
    offsets[from + 1] = targets.length;
  });
  // A member name many files write as a property of their own objects (`line`, `file`, `count`) is mostly theirs:
  // `d.line` reads a record, not GrepResults' line(). A use of it passes on a tenth of its share (COMMON_MEMBER_SHARE).
  const commonMember = new Float64Array(definerLists.length).fill(1);
  for (const [name, id] of nameIds)
    if (name.startsWith('.')) {
      const definers = definerLists[id]!.length;
      const properties = asProperty.get(name.slice(1)) ?? 0;
      if (definers <= 5 && definers + properties > 5) commonMember[id] = COMMON_MEMBER_SHARE;
    }
  const platform = Uint8Array.from(paths, (p) => (isPlatformFile(p) ? 1 : 0));
  /** What edge `e` passes on of its share of the file's rank. */
  const passes = (e: number) => {
    const to = targets[e]!;
    if (through[e]! >= 0) return commonMember[through[e]!]!;
    return platform[to] ? PLATFORM_SHARE : 1;
  };
  // Each file's uses share its rank; what a use of a common member name or of a platform shim does not pass on leaks
  // back by the personalisation (pageRank): a file reading only `d.line` and `d.file` must not hand it all to
  // GrepResults.
  for (let from = 0; from < n; from++) {
    const start = offsets[from]!;
    const stop = offsets[from + 1]!;
    let total = 0;
    for (let e = start; e < stop; e++) total += weights[e]!;
    for (let e = start; e < stop; e++) weights[e] = (weights[e]! / total) * passes(e);
  }
  const nameOffsets = new Int32Array(definerLists.length + 1);
  definerLists.forEach((list, id) => {
    nameOffsets[id + 1] = nameOffsets[id]! + list.length;
  });
  return {
    offsets,
    targets: Int32Array.from(targets),
    weights: Float64Array.from(weights),
    nameOffsets,
    definers: Int32Array.from(definerLists.flat()),
    names: [...nameIds.keys()],
  };
}
