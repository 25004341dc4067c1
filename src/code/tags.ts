// A file's tags: its definitions (name, kind, signature, doc comment, place), imports and the names its code uses.
// Generic over the language tables of languages.ts; definitions and imports come from the tree-sitter tree.
import { type AstNode, findKinds, parseSource } from './ast-grep.js';
import { type Assigned, assignedDefinitions, COMMONJS_LANGUAGES, isRequire, mayAssign } from './commonjs.js';
import { isGeneratedText, isMinifiedText } from './file-roles.js';
import { findImports, type Import, type LocalExport, requireImports } from './imports.js';
import type { DefinitionRule, LanguageId, LanguageSpec, SymbolKind } from './languages.js';

export interface Definition {
  name: string;
  kind: SymbolKind;
  /** 1-based lines of the whole definition. */
  line: number;
  endLine: number;
  /** The declaration without its body, on one line. */
  signature: string;
  doc?: string;
  /** The class (struct, impl, mixin…) a method or field belongs to. */
  container?: string;
  exported: boolean;
}

export type { Import, ImportedName, LocalExport } from './imports.js';

export interface FileTags {
  language: LanguageId;
  definitions: Definition[];
  imports: Import[];
  /** Export statements of the module's own names (`export { a as b }`, `export default x`), when it has any. */
  exports?: LocalExport[];
  /**
   * Names used in code (not in comments or strings), with how often: the edges of the reference graph. One string
   * `name count name count …` per file: 28k files' tags as objects of names cost seconds of garbage collection.
   * Read it with referenceCount and forEachReference.
   */
  references: string;
  /** Generated or minified: kept for search, ranked last by the map. */
  generated?: boolean;
  /** From a lexical scan (quick-tags.ts), not a syntax tree: top-level definitions only, no end lines. */
  quick?: boolean;
}

const NAME = /^[A-Za-z_$][\w$]*$/;
const MAX_SIGNATURE = 200;
const MAX_DOC = 300;
/** Words that may precede a declaration on its line and belong in its signature. */
const PREFIX_WORDS = /^[\s\w@]*$/;

function nameOf(node: AstNode, rule: DefinitionRule): string | undefined {
  const field = node.field(rule.nameField ?? 'name');
  let text = field?.text();
  if (text === undefined) {
    const child = node.children().find((c) => /identifier/.test(c.kind()));
    text = child?.text();
  }
  if (text === undefined) return undefined;
  // Rust `impl<T> Trait for S<T>` and generic types: the bare name; `impl Log for &'_ T`, `for std::sync::Arc<T>`:
  // the type's own name, past the reference and the path.
  const bare = text
    .replace(/^&\s*('\w+\s+)?(mut\s+)?/, '')
    .replace(/<[\s\S]*$/, '')
    .replace(/^[\w:]*::/, '')
    .trim();
  return NAME.test(bare) ? bare : undefined;
}

function lineStart(source: string, index: number): number {
  return source.lastIndexOf('\n', index - 1) + 1;
}

function lineEnd(source: string, index: number): number {
  const end = source.indexOf('\n', index);
  return end < 0 ? source.length : end;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SIGNATURE ? `${flat.slice(0, MAX_SIGNATURE - 1)}…` : flat;
}

/** The declaration from its line's start (`export`, `pub`, modifiers) to its body, or its first line. */
function signatureOf(source: string, node: AstNode): string {
  const start = node.range().start.index;
  const from = lineStart(source, start);
  const begin = start - from < MAX_SIGNATURE && PREFIX_WORDS.test(source.slice(from, start)) ? from : start;
  const body = node.field('body');
  const end = body ? body.range().start.index : lineEnd(source, start);
  // Bounded: a long line (generated code, a big literal) must not be copied and flattened whole.
  let text = source.slice(begin, Math.min(Math.max(end, start), begin + 4 * MAX_SIGNATURE));
  let cut = text.length;
  while (cut > 0 && /[\s{:=]/.test(text[cut - 1]!)) cut -= 1;
  text = text.slice(0, cut);
  return oneLine(text);
}

const DOC_MARKERS = /^\s*(\/\*\*?|\*\/|\*|\/\/[/!]?|#)\s?|\s*\*\/\s*$/g;

/** How far up a doc comment is followed: past this, the lines above are taken for no doc. */
const MAX_DOC_LINES = 1000;

/**
 * A doc's beginning, its summary, in whole lines up to MAX_DOC characters, saying how many lines were left out (a
 * long doc's end is examples and notes; its first lines say what the symbol does).
 */
export function docSummary(lines: readonly string[]): string | undefined {
  const text = lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
  if (text.length === 0) return undefined;
  let kept = 0;
  let length = -1;
  while (kept < text.length && length + 1 + text[kept]!.length <= MAX_DOC) length += 1 + text[kept++]!.length;
  if (kept === text.length) return text.join(' ');
  // A first line longer than the whole budget: its start.
  const shown = kept > 0 ? text.slice(0, kept).join(' ') : `${text[0]!.slice(0, MAX_DOC - 1)}…`;
  const left = text.length - Math.max(kept, 1);
  return left > 0 ? `${shown} … (${left} more line${left === 1 ? '' : 's'})` : shown;
}

/** The comment lines right above the definition (decorators skipped), or a Python docstring. */
function docOf(source: string, node: AstNode, lang: LanguageSpec): string | undefined {
  const lines: string[] = [];
  let at = lineStart(source, node.range().start.index);
  while (at > 0 && lines.length < MAX_DOC_LINES) {
    const prevStart = lineStart(source, at - 1);
    const line = source.slice(prevStart, at - 1);
    if (/^\s*(@|#\[)/.test(line) && lines.length === 0) {
      at = prevStart;
      continue;
    }
    if (!lang.docComment.test(line)) break;
    lines.unshift(line);
    at = prevStart;
  }
  const doc = docSummary(lines.map((l) => l.replace(DOC_MARKERS, '')));
  if (doc || lang.id !== 'python') return doc;
  const body = node.field('body');
  const docstring =
    body && /^\s*(?:"""|''')([\s\S]*?)(?:"""|''')/.exec(source.slice(body.range().start.index));
  return docstring?.[1] === undefined ? undefined : docSummary(docstring[1].split('\n'));
}

interface Found {
  def: Definition;
  start: number;
  end: number;
  container: boolean;
  containerOnly: boolean;
}

function isExported(
  lang: LanguageSpec,
  source: string,
  node: AstNode,
  name: string,
  signature: string,
): boolean {
  switch (lang.exportRule) {
    case 'export-keyword': {
      const start = node.range().start.index;
      return /\bexport\b/.test(source.slice(lineStart(source, start), start)) || /^export\b/.test(signature);
    }
    case 'no-underscore':
      return !name.startsWith('_');
    case 'capitalised':
      return /^[A-Z]/.test(name);
    case 'pub':
      return /^pub\b/.test(signature);
    case 'public':
      return /\bpublic\b/.test(signature);
  }
}

/** `program`: the file's root, when it may define by assignment (commonjs.ts): its top-level statements are read. */
function findDefinitions(
  lang: LanguageSpec,
  source: string,
  nodes: AstNode[],
  program?: AstNode,
): Definition[] {
  const rules = new Map(lang.definitions.map((rule) => [rule.kind, rule]));
  const found: Found[] = [];
  const assigned = program ? assignedDefinitions(program) : undefined;
  for (const { node, def } of assigned?.defined ?? []) found.push(definedAt(lang, source, node, def));
  for (const node of nodes) {
    const rule = rules.get(node.kind())!;
    if (rule.parents && !rules.get(node.kind())!.parents!.includes(node.parent()?.kind() ?? '')) continue;
    const parts = rule.each ? node.children().filter((c) => c.kind() === rule.each) : [node];
    for (const part of parts) {
      const name = nameOf(part, rule);
      if (!name || isRequire(part)) continue;
      const range = part.range();
      const signature = signatureOf(source, part);
      found.push({
        def: {
          name,
          // `let` is a lexical declaration too, but no constant.
          kind:
            rule.kind === 'lexical_declaration' && source.startsWith('let', node.range().start.index)
              ? 'variable'
              : rule.symbol,
          line: range.start.line + 1,
          endLine: node.range().end.line + 1,
          signature,
          exported: isExported(lang, source, part, name, signature),
          ...optional('doc', docOf(source, rule.each ? node : part, lang)),
        },
        start: range.start.index,
        end: node.range().end.index,
        container: lang.containers.includes(node.kind()),
        containerOnly: rule.containerOnly === true,
      });
    }
  }
  // In source order: the assigned functions were found apart.
  if (program) found.sort((a, b) => a.start - b.start);
  // What `module.exports` is set to is exported, with the functions assigned to its members.
  const exportedAs = assigned?.exportedAs;
  if (exportedAs && exportedAs.size > 0)
    for (const { def } of found)
      if (exportedAs.has(def.container ?? def.name) && (def.container !== undefined || def.kind !== 'method'))
        def.exported = true;
  return placeInContainers(found, lang.id === 'rust');
}

/** A definition found outside the language's rules (a CommonJS API's), at `node`. */
function definedAt(lang: LanguageSpec, source: string, node: AstNode, def: Assigned['def']): Found {
  const range = node.range();
  return {
    def: {
      ...def,
      line: range.start.line + 1,
      endLine: range.end.line + 1,
      signature: signatureOf(source, node),
      ...optional('doc', docOf(source, node, lang)),
    },
    start: range.start.index,
    end: range.end.index,
    container: false,
    containerOnly: false,
  };
}

const LOCAL_KINDS: ReadonlySet<SymbolKind> = new Set(['variable', 'constant', 'field']);
const BODY_KINDS: ReadonlySet<SymbolKind> = new Set(['function', 'method']);

/**
 * Methods get their class; variables inside a function body are locals, not definitions, and so are the methods of an
 * object literal there (an observer's `next`, a resolver's `string`): they would otherwise define names that every
 * file uses (`.next(`, `: string`) and rank their file first.
 */
function placeInContainers(found: Found[], rust = false): Definition[] {
  const containers = found.filter((f) => f.container);
  const bodies = found.filter((f) => BODY_KINDS.has(f.def.kind));
  const inside = (outer: Found, inner: Found) =>
    outer !== inner && outer.start <= inner.start && inner.end <= outer.end;
  const result: Definition[] = [];
  for (const f of found) {
    if (f.containerOnly) continue;
    if (LOCAL_KINDS.has(f.def.kind) && bodies.some((b) => inside(b, f))) continue;
    let owner: Found | undefined;
    for (const c of containers) if (inside(c, f) && (!owner || owner.start <= c.start)) owner = c;
    // A body between the definition and its innermost class: the function's own, not the class's; an object
    // literal's method there is none at all.
    const local = bodies.some((b) => inside(b, f) && (!owner || owner.start < b.start));
    if (f.def.kind === 'method' && local) continue;
    // A function's own definitions (a decorator's `wrapper`, a method's helper) are no module's exports.
    if (bodies.some((b) => inside(b, f))) f.def.exported = false;
    if (owner && !local) {
      f.def.container = owner.def.name;
      if (f.def.kind === 'function') f.def.kind = 'method';
      if (f.def.kind === 'variable' || f.def.kind === 'constant') f.def.kind = 'field';
      // A member is public when its class is, unless the language marks members themselves. A Rust `impl` block
      // has no visibility of its own: its `pub fn` is public.
      if (!owner.def.exported && !owner.containerOnly) f.def.exported = false;
      // A Rust trait's items are as public as the trait (they take no `pub`).
      if (rust && owner.def.kind === 'interface') f.def.exported = owner.def.exported;
    }
    result.push(f.def);
  }
  return result;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\t' || c === '\r';
const isWord = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);

const EMPTY: ReadonlySet<string> = new Set();

/**
 * How the name at `index` is used: bare; as a member of a module (`ns.name`, where `ns` is in `modules`), which is a
 * use of that module's top-level name; or as a member of anything else (`obj.name`). Spaces and line breaks may
 * stand around the `.`; `...spread` is bare.
 */
function useOf(
  source: string,
  index: number,
  length: number,
  modules: ReadonlySet<string>,
  foreign: ReadonlySet<string> = EMPTY,
): 'bare' | 'module' | 'foreign' | 'member' | 'path' | 'key' {
  let at = index - 1;
  while (at >= 0 && isSpace(source[at])) at -= 1;
  // `Type::new`, `utils::parse` (Rust, C++): an associated function or a module's name alike.
  if (source[at] === ':' && source[at - 1] === ':') return 'path';
  if (source[at] !== '.' || source[at - 1] === '.')
    return isKey(source, at, index, index + length) ? 'key' : 'bare';
  if (modules.size === 0) return 'member';
  at -= 1;
  while (at >= 0 && isSpace(source[at])) at -= 1;
  const end = at + 1;
  while (at >= 0 && isWord(source[at])) at -= 1;
  // The receiver must itself be bare: `a.ns.name` is no use of the module ns.
  let before = at;
  while (before >= 0 && isSpace(source[before])) before -= 1;
  if (source[before] === '.') return 'member';
  const receiver = source.slice(at + 1, end);
  return foreign.has(receiver) ? 'foreign' : modules.has(receiver) ? 'module' : 'member';
}

/**
 * The names of imported packages that cannot be the project's: Go's standard library (no dot in the path's first
 * element: `net/http`, `fmt`). `http.ResponseWriter` is net/http's, never the project's ResponseWriter.
 */
export function foreignModules(imports: readonly Import[], language: LanguageId): ReadonlySet<string> {
  if (language !== 'go') return EMPTY;
  const names = new Set<string>();
  for (const imp of imports) {
    if (imp.module.split('/')[0]!.includes('.')) continue;
    const name = imp.alias ?? imp.module.split('/').pop()!;
    if (name !== '_' && name !== '.') names.add(name);
  }
  return names;
}

/**
 * A property name or a declared parameter, not a use: `{ key: value }`, `key?: Type` in a type, `f(param: Type)`,
 * Go's `T{Field: x}`, Python's `name: int = 1`: the name stands after `{`, `,`, `;`, `(` or at a line's start
 * (`before`: the last other character before it), and before a single `:`; or after `(` or `,` and before a single
 * `=` (Python's `f(timeout=5)`, a default). A ternary's `? a : b` and a `case a:` are uses.
 */
function isKey(source: string, before: number, start: number, end: number): boolean {
  let at = end;
  while (at < source.length && (source[at] === ' ' || source[at] === '\t')) at += 1;
  if (source[at] === '?') at += 1;
  const opener = before < 0 ? '\n' : source[before];
  // A keyword argument or a default (`f(timeout=5)`, `(a = 1) =>`): not `==`, `=>`.
  if (source[at] === '=' && source[at + 1] !== '=' && source[at + 1] !== '>')
    return opener === '(' || opener === ',';
  if (source[at] !== ':' || source[at + 1] === ':') return false;
  if (opener === '{' || opener === ',' || opener === ';' || opener === '(') return true;
  // At a line's start: a line break between the last other character and the name.
  for (let i = before + 1; i < start; i++) if (source[i] === '\n') return true;
  return before < 0;
}

/**
 * The names a file binds to whole modules, as receivers of their members: namespace imports and aliases
 * (`import * as t`, `import numpy as np`), Python's imported modules and names (`import os.path`, `from . import
 * utils`), Go's package names.
 */
export function moduleReceivers(imports: readonly Import[], language: LanguageId): Set<string> {
  const names = new Set<string>();
  for (const imp of imports) {
    if (imp.alias) names.add(imp.alias);
    for (const b of imp.bindings) {
      if (b.name === '*' && b.alias) names.add(b.alias);
      else if (language === 'python' && b.name !== '*') names.add(b.alias ?? b.name);
    }
    if (language === 'python' && imp.bindings.length === 0 && !imp.alias)
      names.add(imp.module.split('.')[0]!);
    if (language === 'go' && !imp.alias) names.add(imp.module.split('/').pop()!);
  }
  return names;
}

/**
 * The identifiers in code, skipping comments and strings with the language's lexer, and the sorted `skip` ranges. A
 * name after a `.` (`obj.name`) is a member use and kept as `.name`: it can mean a method or field of any class,
 * where a bare name is resolved by scope (and a keyword, `throw`, is no use of a method of that name). A member of
 * one of `modules` (`t.identifier`, `os.getcwd`, `cobra.Command`) is that module's top-level name, kept bare.
 */
export function findReferences(
  lang: LanguageSpec,
  source: string,
  skip: [number, number][],
  modules: ReadonlySet<string> = new Set(),
  foreign: ReadonlySet<string> = EMPTY,
): string {
  const counts = new Map<string, number>();
  const declared = new Set<string>();
  let next = 0;
  let previous = '';
  for (const match of source.matchAll(lang.lexer)) {
    let name = match[1];
    if (name === undefined) continue;
    const word = name;
    // Names inside import and export statements are bindings, not uses.
    while (next < skip.length && skip[next]![1] <= match.index) next += 1;
    if (next < skip.length && skip[next]![0] <= match.index) continue;
    const use = useOf(source, match.index, name.length, modules, foreign);
    // Another package's name (`http.ResponseWriter`, Go's standard library): no use of the project's.
    if (use === 'foreign') {
      previous = word;
      continue;
    }
    if (use === 'member') name = `.${name}`;
    else if (use === 'path') name = `:${name}`;
    else if (use === 'key') {
      // A parameter (`f(limit: number)`) is the file's own from then on, as a variable is.
      declared.add(name);
      name = `'${name}`;
    } else if (DECLARING.has(previous)) declared.add(name);
    previous = word;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  let text = '';
  for (const [name, count] of counts) {
    // The file's uses of a name it declares a variable of are most likely that variable's.
    const key = declared.has(name) ? `~${name}` : name;
    text += text ? ` ${key} ${count}` : `${key} ${count}`;
  }
  return text;
}

/** Words before the name a statement declares a variable of (JavaScript, TypeScript, Rust, Go, Dart). */
const DECLARING = new Set(['const', 'let', 'var']);

/** findReferences with what the file's imports bind: modules (kept bare) and foreign packages (left out). */
export function referencesWithImports(
  lang: LanguageSpec,
  source: string,
  skip: [number, number][],
  imports: readonly Import[],
): string {
  return findReferences(
    lang,
    source,
    skip,
    moduleReceivers(imports, lang.id),
    foreignModules(imports, lang.id),
  );
}

/** How often a file's code uses `name`, bare, as a member or as a variable it declares (0: not at all). */
export function referenceCount(tags: FileTags, name: string): number {
  const text = ` ${tags.references} `;
  let total = 0;
  for (const key of [` ${name} `, ` .${name} `, ` ~${name} `, ` :${name} `, ` '${name} `]) {
    // Counts are digits and names never are, so the key can only match a name.
    const at = text.indexOf(key);
    if (at < 0) continue;
    const from = at + key.length;
    total += Number(text.slice(from, text.indexOf(' ', from)));
  }
  return total;
}

/**
 * Each name a file's code uses, with how often: `.name` for a use as a member (after a `.`), `:name` after a `::`
 * (a type's or a module's), `~name` for a name the file also declares a variable of (`const name`), `'name` as a
 * property name or a parameter's (`{ name: 1 }`, `f(name: T)`): said, not used.
 */
export function forEachReference(tags: FileTags, each: (name: string, count: number) => void): void {
  if (!tags.references) return;
  const parts = tags.references.split(' ');
  for (let i = 0; i + 1 < parts.length; i += 2) each(parts[i]!, Number(parts[i + 1]));
}

/** Parses `source` (unless its tree is given) and reads its tags. */
export function extractTags(lang: LanguageSpec, source: string, tree?: AstNode): FileTags {
  if (isMinifiedText(source))
    return { language: lang.id, definitions: [], imports: [], references: '', generated: true };
  const root = tree ?? parseSource(lang, source);
  // One search of the tree for definitions and imports alike: each search crosses into native code and back.
  const importKinds = new Set(lang.imports);
  const definitionKinds = new Set(lang.definitions.map((rule) => rule.kind));
  const nodes = findKinds(lang, root, [...new Set([...definitionKinds, ...importKinds])]);
  const kinds = nodes.map((node) => node.kind());
  const { imports, exports, skip } = findImports(
    lang,
    nodes.filter((_, i) => importKinds.has(kinds[i]!)),
  );
  // CommonJS: `require('m')` calls are imports too (searched for only where the text has one).
  if (COMMONJS_LANGUAGES.has(lang.id) && /\brequire\s*\(/.test(source)) {
    imports.push(...requireImports(findKinds(lang, root, ['call_expression'], '^require\\s*\\(')));
    imports.sort((a, b) => a.line - b.line);
  }
  return {
    language: lang.id,
    definitions: findDefinitions(
      lang,
      source,
      nodes.filter((_, i) => definitionKinds.has(kinds[i]!)),
      mayAssign(lang.id, source) ? root : undefined,
    ),
    imports,
    ...(exports.length > 0 ? { exports } : {}),
    references: referencesWithImports(lang, source, skip, imports),
    ...(isGeneratedText(source) ? { generated: true } : {}),
  };
}
