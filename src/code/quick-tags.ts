// Tags from a lexical scan, without a syntax tree: what ranking a large repository's map needs (top-level
// definitions, imports, names used) at a tenth of a parse's cost. Marked `quick`: the map parses the files it shows,
// and every other consumer of the code index parses a file whose cached tags are quick.
import { isGeneratedText, isMinifiedText } from './file-roles.js';
import type { ImportedName } from './imports.js';
import type { LanguageSpec, SymbolKind } from './languages.js';
import { referencesWithImports } from './name-uses.js';
import type { Definition, FileTags, Import } from './tags.js';

/** The languages a scan reads; the others are always parsed. */
export const QUICK_LANGUAGES: ReadonlySet<string> = new Set(['typescript', 'tsx', 'javascript', 'python']);

const named = (name: string, alias?: string): ImportedName =>
  alias && alias !== name ? { name, alias } : { name };
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 200);

/** Line numbers by index, for indexes met in increasing order. */
function lineCounter(source: string): (index: number) => number {
  let at = 0;
  let line = 1;
  return (index) => {
    for (let i = source.indexOf('\n', at); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) line += 1;
    at = Math.max(at, index);
    return line;
  };
}

// `import x, { a as b, type C } from 'm'`, `export * as ns from 'm'`, `import type T from 'm'` (no quotes or `;` in the clause).
const TS_FROM = /^[ \t]*(import|export)[ \t]+(type[ \t]+)?([^;'"`]*?)[ \t\n]*from[ \t]*(['"])([^'"\n]+)\4/gm;
const REQUIRE = /(?<![\w$.])require\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g;
const REQUIRE_DECLARED = /(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*$/;
const TS_BARE = /^[ \t]*import[ \t]*(['"])([^'"\n]+)\1/gm;
const TS_DEFINITION =
  /^(export[ \t]+)?(?:default[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?(?:async[ \t]+)?(function\*?|class|interface|type|enum|const|let|var)[ \t]+([A-Za-z_$][\w$]*)/gm;
const TS_KIND: Record<string, SymbolKind> = {
  function: 'function',
  'function*': 'function',
  class: 'class',
  interface: 'interface',
  type: 'type',
  enum: 'enum',
  const: 'constant',
  let: 'variable',
  var: 'variable',
};

/** An import of a module itself, no names taken (`import './a'`, Python `import a.b as c`); its line set later. */
function wholeModule(module: string, statement: string, alias?: string): Import {
  const imp: Import = { module, names: [], bindings: [], line: 0, reexport: false, text: oneLine(statement) };
  return alias ? { ...imp, alias } : imp;
}

/** The imports found, in source order, with their line numbers. */
function inOrder(found: { index: number; imp: Import }[], line: (i: number) => number): Import[] {
  found.sort((a, b) => a.index - b.index);
  for (const f of found) f.imp.line = line(f.index);
  return found.map((f) => f.imp);
}

/**
 * The names an import or export clause binds, in the parse's order: default, namespace, then the braces; all of an
 * `import type`'s type-only, and an inline `type A`.
 */
function tsBindings(clause: string, typeOnly: boolean): { bindings: ImportedName[]; alias?: string } {
  const bindings: ImportedName[] = [];
  const braces = /\{([^}]*)\}/.exec(clause);
  const rest = braces ? clause.replace(braces[0], '') : clause;
  const first = /^\s*([A-Za-z_$][\w$]*)\s*(?:,|$)/.exec(rest);
  if (first) bindings.push({ name: 'default', alias: first[1]! });
  const star = /\*\s*(?:as\s+([\w$]+))?/.exec(rest);
  if (star) bindings.push(star[1] ? { name: '*', alias: star[1] } : { name: '*' });
  for (const part of braces?.[1]?.split(',') ?? []) {
    const m = /^\s*(type\s+(?=[\w$]+(?:\s+as\s+[\w$]+)?\s*$))?([\w$]+)(?:\s+as\s+([\w$]+))?\s*$/.exec(part);
    if (m) bindings.push(m[1] ? { ...named(m[2]!, m[3]), typeOnly: true } : named(m[2]!, m[3]));
  }
  if (typeOnly) for (const b of bindings) b.typeOnly = true;
  return { bindings, ...(star?.[1] ? { alias: star[1] } : {}) };
}

function tsImports(source: string, line: (i: number) => number, skip: [number, number][]): Import[] {
  const found: { index: number; imp: Import }[] = [];
  for (const m of source.matchAll(TS_FROM)) {
    const { bindings, alias } = tsBindings(m[3]!, Boolean(m[2]));
    const imp: Import = {
      module: m[5]!,
      names: bindings.filter((b) => b.name !== 'default' && b.name !== '*').map((b) => b.name),
      bindings,
      ...(alias ? { alias } : {}),
      line: 0,
      reexport: m[1] === 'export',
      ...(m[2] ? { typeOnly: true } : {}),
      text: oneLine(m[0]),
    };
    found.push({ index: m.index, imp });
    skip.push([m.index, m.index + m[0].length]);
  }
  for (const m of source.matchAll(TS_BARE)) {
    const imp = wholeModule(m[2]!, m[0]);
    found.push({ index: m.index, imp });
    skip.push([m.index, m.index + m[0].length]);
  }
  // CommonJS: `require('m')` takes the module (what it binds is the parse's to say).
  if (source.includes('require'))
    for (const m of source.matchAll(REQUIRE)) {
      // `const babel = require('m')` binds the module to a name, as the parse says (not `require('m').x` or `(…)`).
      const declared = REQUIRE_DECLARED.exec(source.slice(Math.max(0, m.index - 80), m.index))?.[1];
      const alias = declared && !/^\s*[.([]/.test(source.slice(m.index + m[0].length)) ? declared : undefined;
      const imp = { ...wholeModule(m[2]!, m[0], alias), commonJs: true };
      if (alias) imp.bindings = [{ name: '*', alias }];
      found.push({ index: m.index, imp });
    }
  return inOrder(found, line);
}

function tsDefinitions(source: string, line: (i: number) => number): Definition[] {
  const definitions: Definition[] = [];
  for (const m of source.matchAll(TS_DEFINITION)) {
    const at = line(m.index);
    const end = source.indexOf('\n', m.index);
    definitions.push({
      name: m[3]!,
      kind: TS_KIND[m[2]!]!,
      line: at,
      endLine: at,
      signature: oneLine(source.slice(m.index, end < 0 ? undefined : end).replace(/[\s{=:]+$/, '')),
      exported: m[1] !== undefined,
    });
  }
  return definitions;
}

// `from .a.b import (x, y as z)`, with a line continued by `\`; `import a.b as c, d`.
const PY_FROM = /^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|(?:\\\n|[^\n])*)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([^\n]+)/gm;
const PY_DEFINITION =
  /^([ \t]*)(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_]\w*)|^([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[^=]/gm;

function pyNames(list: string): ImportedName[] {
  const names: ImportedName[] = [];
  for (const part of list
    .replace(/#[^\n]*/g, '')
    .replace(/[()\\]/g, ' ')
    .split(',')) {
    const m = /^\s*([\w.*]+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
    if (m) names.push(named(m[1]!, m[2]));
  }
  return names;
}

function pyImports(source: string, line: (i: number) => number, skip: [number, number][]): Import[] {
  const found: { index: number; imp: Import }[] = [];
  for (const m of source.matchAll(PY_FROM)) {
    const bindings = pyNames(m[2]!);
    const names = bindings.filter((b) => b.name !== '*').map((b) => b.name);
    const imp: Import = { module: m[1]!, names, bindings, line: 0, reexport: false, text: oneLine(m[0]) };
    found.push({ index: m.index, imp });
    skip.push([m.index, m.index + m[0].length]);
  }
  for (const m of source.matchAll(PY_IMPORT)) {
    for (const b of pyNames(m[1]!)) {
      const imp = wholeModule(b.name, m[0], b.alias);
      found.push({ index: m.index, imp });
    }
    skip.push([m.index, m.index + m[0].length]);
  }
  return inOrder(found, line);
}

function pyDefinitions(source: string, line: (i: number) => number): Definition[] {
  const definitions: Definition[] = [];
  let container: Definition | undefined;
  for (const m of source.matchAll(PY_DEFINITION)) {
    const at = line(m.index);
    const end = source.indexOf('\n', m.index);
    const signature = oneLine(source.slice(m.index, end < 0 ? undefined : end).replace(/[\s:]+$/, ''));
    const name = (m[3] ?? m[4])!;
    const indented = (m[1] ?? '').length > 0;
    if (indented && !(container && m[2] === 'def')) continue;
    if (m[4] !== undefined) {
      definitions.push({
        name,
        kind: 'variable',
        line: at,
        endLine: at,
        signature,
        exported: !name.startsWith('_'),
      });
      container = undefined;
      continue;
    }
    const def: Definition = {
      name,
      kind: indented ? 'method' : m[2] === 'class' ? 'class' : 'function',
      line: at,
      endLine: at,
      signature,
      exported: !name.startsWith('_') && (!indented || container!.exported),
      ...(indented ? { container: container!.name } : {}),
    };
    definitions.push(def);
    if (!indented) container = m[2] === 'class' ? def : undefined;
  }
  return definitions;
}

/** A file's tags from a scan; undefined for a language the scan does not read. */
export function quickTags(lang: LanguageSpec, source: string): FileTags | undefined {
  if (!QUICK_LANGUAGES.has(lang.id)) return undefined;
  if (isMinifiedText(source))
    return { language: lang.id, definitions: [], imports: [], references: '', generated: true, quick: true };
  const skip: [number, number][] = [];
  const python = lang.id === 'python';
  const imports = python
    ? pyImports(source, lineCounter(source), skip)
    : tsImports(source, lineCounter(source), skip);
  const definitions = python
    ? pyDefinitions(source, lineCounter(source))
    : tsDefinitions(source, lineCounter(source));
  skip.sort((a, b) => a[0] - b[0]);
  return {
    language: lang.id,
    definitions,
    imports,
    references: referencesWithImports(lang, source, skip, imports),
    ...(isGeneratedText(source) ? { generated: true } : {}),
    quick: true,
  };
}
