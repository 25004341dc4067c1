// The names a file's code uses, with how often, read with the language's lexer (comments and strings skipped): bare,
// as members of modules its imports bind (kept bare), as other members, as paths, as keys, or as its own variables.
import type { Import } from './imports.js';
import type { LanguageId, LanguageSpec } from './languages.js';

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
