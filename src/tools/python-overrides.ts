// The other definitions of a Python method in its class hierarchy, renamed with it: pyright renames one class's
// method and the calls it can type to that class, so renaming `BaseRoute.url_path_for` left `Route.url_path_for`
// and the other overrides under the old name, and every call through the base then reached the base's
// `raise NotImplementedError` (no type error says so). The hierarchy is the language service's: a subclass is a
// reference of the class name in a `class X(...)` base list.
import { promises as fs } from 'node:fs';
import { type AstNode, parseSource } from '../code/ast-grep.js';
import type { LanguageService, SourceLocation, SourcePosition } from '../code/language/service.js';
import { languageOf } from '../code/languages.js';
import { definitionsOf } from '../code/symbol-definitions.js';
import { codeIndexOf } from './code-index-of.js';
import type { ToolContext } from './tool.js';

/** Classes looked at, at most: past this the result says the hierarchy was not followed to its end. */
const MAX_CLASSES = 40;

export interface Overrides {
  /** The other definitions of the method (the same name in a base or a subclass), where their names start. */
  positions: (SourcePosition & { owner: string })[];
  /** Why the hierarchy may hold more than `positions` (too many classes). */
  incomplete?: string;
  /**
   * The bases of the method's class and of the project's classes above it that are defined outside the project (a
   * library's, `logging.Handler`): a method of theirs of that name is overridden, and a rename stops overriding it.
   */
  outside: { owner: string; base: string }[];
}

interface ClassAt {
  key: string;
  name: string;
  /** Where the class's name is written. */
  at: SourcePosition;
  node: AstNode;
}

const isPython = (path: string) => /\.pyi?$/.test(path);

/** A node's 1-based start. */
const startOf = (node: AstNode) => ({
  line: node.range().start.line + 1,
  column: node.range().start.column + 1,
});

/** The function a class body defines directly under `name` (decorated or not). */
function methodIn(cls: AstNode, name: string): AstNode | undefined {
  for (const child of cls.field('body')?.namedChildren() ?? []) {
    const fn = child.kind() === 'decorated_definition' ? child.field('definition') : child;
    if (fn?.kind() === 'function_definition' && fn.field('name')?.text() === name) return fn.field('name')!;
  }
  return undefined;
}

/** The base classes as written: `Base`, `mod.Base` (its last name), `Base[T]`, never `metaclass=`. */
function baseNames(cls: AstNode): AstNode[] {
  return writtenBases(cls).map((b) => b.name);
}

/** Each base class's last name and the whole expression naming it (`logging.Handler`). */
function writtenBases(cls: AstNode): { name: AstNode; written: AstNode }[] {
  const bases: { name: AstNode; written: AstNode }[] = [];
  for (const written of cls.field('superclasses')?.namedChildren() ?? []) {
    // A generic base (starlette's `MultiDict(ImmutableMultiDict[Any, Any])`): the class subscripted.
    const arg = written.kind() === 'subscript' ? (written.field('value') ?? written) : written;
    if (arg.kind() === 'identifier') bases.push({ name: arg, written: arg });
    else if (arg.kind() === 'attribute' && arg.field('attribute'))
      bases.push({ name: arg.field('attribute')!, written: arg });
  }
  return bases;
}

/** Bases with no method a rename could stop overriding (`object`'s are dunders, which nobody renames). */
const BARE_BASES = new Set(['object', 'Generic', 'Protocol', 'ABC', 'NamedTuple', 'TypedDict']);

/**
 * The definitions of the method `name` at `at` in the classes above and below its own (a base's it overrides, the
 * overrides of it in subclasses and theirs, the project's only); none when `at` is not a method of a class.
 */
export async function pythonOverrides(
  ctx: ToolContext,
  service: LanguageService,
  at: SourcePosition,
  name: string,
  signal: AbortSignal,
): Promise<Overrides> {
  if (!isPython(at.path)) return { positions: [], outside: [] };
  const trees = new Map<string, AstNode[] | undefined>();
  /** The class definitions of a file, parsed once. */
  const classesOf = async (path: string): Promise<AstNode[] | undefined> => {
    if (trees.has(path)) return trees.get(path);
    let classes: AstNode[] | undefined;
    const lang = languageOf(path);
    if (lang && isPython(path))
      try {
        const text = await fs.readFile(await ctx.workspace.resolveForRead(path), 'utf8');
        classes = parseSource(lang, text).findAll({ rule: { kind: 'class_definition' } });
      } catch {
        classes = undefined;
      }
    trees.set(path, classes);
    return classes;
  };
  const classAt = (path: string, node: AstNode): ClassAt => {
    const nameNode = node.field('name')!;
    const start = startOf(nameNode);
    return {
      key: `${path}:${start.line}:${start.column}`,
      name: nameNode.text(),
      at: { path, ...start },
      node,
    };
  };
  // The method's own class: the one whose body defines `name` at `at`, or at the definition of the use at `at`.
  const ownAt = async (place: SourcePosition) =>
    (await classesOf(place.path))?.find((cls) => {
      const def = methodIn(cls, name);
      return def !== undefined && startOf(def).line === place.line;
    });
  let own = await ownAt(at);
  let ownPath = at.path;
  // A use of a method is an attribute (`route.url_path_for(…)`): anything else (a module's function, a class, a
  // variable) has no overrides to look up.
  const atAttribute = async () => {
    const lines = (await fs.readFile(await ctx.workspace.resolveForRead(at.path), 'utf8')).split('\n');
    return /\.\s*$/.test((lines[at.line - 1] ?? '').slice(0, at.column - 1));
  };
  if (!own && (await atAttribute().catch(() => false)))
    for (const def of (await service.references(at, signal).catch(() => [])).filter((r) => r.definition)) {
      own = await ownAt(def);
      ownPath = def.path;
      if (own) break;
    }
  if (!own) return { positions: [], outside: [] };
  const start = classAt(ownPath, own);

  let looked = 0;
  let incomplete: string | undefined;
  const budget = () => {
    if (looked++ < MAX_CLASSES) return true;
    incomplete = `more than ${MAX_CLASSES} classes in ${start.name}'s hierarchy: overrides past them were not looked for`;
    return false;
  };
  const references = new Map<string, Promise<SourceLocation[]>>();
  const refsOf = (cls: ClassAt) => {
    let found = references.get(cls.key);
    if (!found) {
      found = service.references(cls.at, signal).catch(() => []);
      references.set(cls.key, found);
    }
    return found;
  };

  /** The project's classes naming `cls` among their bases. */
  const subclasses = async (cls: ClassAt): Promise<ClassAt[]> => {
    const found: ClassAt[] = [];
    for (const ref of await refsOf(cls)) {
      if (ref.definition) continue;
      for (const other of (await classesOf(ref.path)) ?? [])
        if (baseNames(other).some((b) => sameStart(startOf(b), ref))) found.push(classAt(ref.path, other));
    }
    return found;
  };
  const outside: Overrides['outside'] = [];
  /**
   * The project's classes `cls` names among its bases: same-named classes whose references include that base. A
   * base that is none of them is defined outside the project (a library's): it joins `outside`.
   */
  const bases = async (cls: ClassAt): Promise<ClassAt[]> => {
    const found: ClassAt[] = [];
    const index = await codeIndexOf(ctx);
    for (const { name: base, written: expression } of writtenBases(cls.node)) {
      const before = found.length;
      const written = { path: cls.at.path, ...startOf(base) };
      for (const def of definitionsOf(index, base.text())) {
        if (def.def.kind !== 'class' || !isPython(def.path)) continue;
        const node = (await classesOf(def.path))?.find(
          (c) => c.field('name')?.text() === base.text() && startOf(c).line === def.def.line,
        );
        if (!node || !budget()) continue;
        const candidate = classAt(def.path, node);
        if ((await refsOf(candidate)).some((r) => r.path === written.path && sameStart(r, written)))
          found.push(candidate);
      }
      if (found.length === before && !incomplete && !BARE_BASES.has(base.text()))
        outside.push({ owner: cls.name, base: expression.text() });
    }
    return found;
  };

  // Up: the bases (to their tops) defining the method, which `name` at `at` overrides.
  const roots = new Map<string, ClassAt>([[start.key, start]]);
  const seenUp = new Set([start.key]);
  const upQueue = [start];
  while (upQueue.length > 0 && !incomplete) {
    for (const base of await bases(upQueue.shift()!)) {
      if (seenUp.has(base.key)) continue;
      seenUp.add(base.key);
      upQueue.push(base);
      if (methodIn(base.node, name)) roots.set(base.key, base);
    }
  }
  // Down: every subclass of those defining the method again.
  const family = new Map(roots);
  const seenDown = new Set<string>(roots.keys());
  const downQueue = [...roots.values()];
  while (downQueue.length > 0 && !incomplete) {
    const cls = downQueue.shift()!;
    if (!budget()) break;
    for (const sub of await subclasses(cls)) {
      if (seenDown.has(sub.key)) continue;
      seenDown.add(sub.key);
      downQueue.push(sub);
      if (methodIn(sub.node, name)) family.set(sub.key, sub);
    }
  }
  family.delete(start.key);
  const positions: Overrides['positions'] = [];
  for (const cls of family.values()) {
    const def = methodIn(cls.node, name);
    if (def) positions.push({ path: cls.at.path, ...startOf(def), owner: cls.name });
  }
  return { positions, outside, ...(incomplete ? { incomplete } : {}) };
}

const sameStart = (a: { line: number; column: number }, b: { line: number; column: number }) =>
  a.line === b.line && a.column === b.column;
