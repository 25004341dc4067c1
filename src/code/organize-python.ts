// Organises a Python module's leading import block the way isort and ruff's `I` rules do by default: sections
// (__future__, the standard library, third-party, the project's own, relative) apart by a blank line, `import x`
// before `from x import y` in each, modules and names sorted, the same module's names merged, unused names dropped.
// A statement holding a comment keeps it and is only moved; imports after the first code (in `try:`, `if
// TYPE_CHECKING:`, a function) are left where they are.
import type { AstNode } from './ast-grep.js';
import { parseSource } from './ast-grep.js';
import type { LanguageSpec } from './languages.js';
import { PYTHON_STDLIB } from './python-stdlib.js';

interface Name {
  name: string;
  alias?: string;
}

interface Statement {
  /** `import a.b as c` (one module each) or `from m import …`. */
  from: boolean;
  /** Written parenthesised with a comma after the last name: kept one name a line (black's magic comma). */
  magic?: boolean;
  module: string;
  names: Name[];
  /** `import a.b as c`: the alias. */
  alias?: string;
  /** The statement as written, with its comments: moved whole, never merged or trimmed. */
  verbatim?: string;
}

export interface PythonImportOptions {
  /** The project's own top-level packages and modules (first-party). */
  firstParty: ReadonlySet<string>;
  /** An `__init__.py`: its imports are the package's exports, none is unused. */
  isPackageInit: boolean;
  lineLength: number;
  /** The project's isort settings (ruff's `[tool.ruff.lint.isort]`, `[tool.isort]`); their defaults otherwise. */
  style?: Partial<PythonImportStyle>;
}

export interface PythonImportStyle {
  /** force-single-line: `from m import a` and `from m import b`, a line each. */
  forceSingleLine: boolean;
  /** order-by-type: CONSTANTS, Classes, then the rest; otherwise case-insensitively alone. */
  orderByType: boolean;
  /** combine-as-imports: `from m import a as b, c` on one line; otherwise each `as` import on its own. */
  combineAs: boolean;
  /** split-on-trailing-comma: a parenthesised import ending in a comma stays one name a line. */
  splitOnTrailingComma: boolean;
  knownFirstParty: readonly string[];
  knownThirdParty: readonly string[];
  /** lines-between-types: blank lines between a section's `import x` lines and its `from x import` lines. */
  linesBetweenTypes: number;
}

const DEFAULT_STYLE: PythonImportStyle = {
  forceSingleLine: false,
  orderByType: true,
  combineAs: false,
  splitOnTrailingComma: true,
  knownFirstParty: [],
  knownThirdParty: [],
  linesBetweenTypes: 0,
};

const SECTION_FUTURE = 0;
const SECTION_STDLIB = 1;
const SECTION_THIRD_PARTY = 2;
const SECTION_FIRST_PARTY = 3;
const SECTION_LOCAL = 4;

function sectionOf(statement: Statement, firstParty: ReadonlySet<string>, style: PythonImportStyle): number {
  const { module } = statement;
  if (module === '__future__') return SECTION_FUTURE;
  if (module.startsWith('.')) return SECTION_LOCAL;
  const top = module.split('.')[0]!;
  const known = (list: readonly string[]) => list.some((k) => module === k || module.startsWith(`${k}.`));
  if (known(style.knownThirdParty)) return SECTION_THIRD_PARTY;
  if (known(style.knownFirstParty) || firstParty.has(top)) return SECTION_FIRST_PARTY;
  return PYTHON_STDLIB.has(top) ? SECTION_STDLIB : SECTION_THIRD_PARTY;
}

/** isort's name order: by type (CONSTANTS, then Classes, then the rest) unless told not to, case-insensitively. */
function nameOrder(byType: boolean, a: Name, b: Name): number {
  const type = (n: string) =>
    !byType ? 0 : n.length > 1 && n === n.toUpperCase() ? 0 : /^[A-Z]/.test(n) ? 1 : 2;
  return (
    type(a.name) - type(b.name) ||
    a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
    a.name.localeCompare(b.name) ||
    (a.alias ?? '').localeCompare(b.alias ?? '')
  );
}

/** Relative modules sort by depth first (`..x` before `.x`), as isort does; the rest by name. */
function moduleKey(module: string): string {
  const dots = /^\.*/.exec(module)![0].length;
  return `${String(9 - Math.min(dots, 9))}${module.slice(dots).toLowerCase()}`;
}

const bound = (s: Statement): string[] =>
  s.from ? s.names.map((n) => n.alias ?? n.name) : [s.alias ?? s.module.split('.')[0]!];

function parseStatement(node: AstNode): Statement[] | undefined {
  const kind = node.kind();
  const withComment = node.children().some((c) => c.kind() === 'comment');
  const nameOf = (c: AstNode): Name | undefined =>
    c.kind() === 'dotted_name'
      ? { name: c.text() }
      : c.kind() === 'aliased_import'
        ? {
            name: c.field('name')?.text() ?? '',
            ...(c.field('alias') ? { alias: c.field('alias')!.text() } : {}),
          }
        : c.kind() === 'wildcard_import'
          ? { name: '*' }
          : undefined;
  if (kind === 'import_statement') {
    const modules = node
      .children()
      .map(nameOf)
      .filter((n): n is Name => n !== undefined);
    if (withComment)
      return [{ from: false, module: modules[0]?.name ?? '', names: [], verbatim: node.text() }];
    return modules.map((m) => ({
      from: false,
      module: m.name,
      names: [],
      ...(m.alias ? { alias: m.alias } : {}),
    }));
  }
  if (kind !== 'import_from_statement' && kind !== 'future_import_statement') return undefined;
  const moduleNode = kind === 'future_import_statement' ? undefined : node.field('module_name');
  const module = moduleNode?.text() ?? '__future__';
  const moduleStart = moduleNode?.range().start.index;
  const names = node
    .children()
    .filter((c) => c.range().start.index !== moduleStart)
    .map(nameOf)
    .filter((n): n is Name => n !== undefined && n.name !== '');
  const kinds = node.children().map((c) => c.kind());
  const magic = kinds.at(-1) === ')' && kinds.at(-2) === ',';
  return [
    {
      from: true,
      module,
      names,
      ...(magic ? { magic } : {}),
      ...(withComment ? { verbatim: node.text() } : {}),
    },
  ];
}

function render(statement: Statement, lineLength: number, style: PythonImportStyle): string {
  if (statement.verbatim !== undefined) return statement.verbatim;
  if (!statement.from) return `import ${statement.module}${statement.alias ? ` as ${statement.alias}` : ''}`;
  const names = statement.names.map((n) => (n.alias ? `${n.name} as ${n.alias}` : n.name));
  const line = `from ${statement.module} import ${names.join(', ')}`;
  const magic = statement.magic === true && style.splitOnTrailingComma;
  if ((line.length <= lineLength && !magic) || names.length === 1) return line;
  return `from ${statement.module} import (\n${names.map((n) => `    ${n},\n`).join('')})`;
}

/** A merged `from` import as the style writes it: one per name, each `as` import apart, or all together. */
function splitFrom(statement: Statement, style: PythonImportStyle): Statement[] {
  if (!statement.from || statement.verbatim !== undefined) return [statement];
  if (style.forceSingleLine) return statement.names.map((n) => ({ ...statement, names: [n], magic: false }));
  if (style.combineAs) return [statement];
  const plain = statement.names.filter((n) => n.alias === undefined);
  const aliased = statement.names.filter((n) => n.alias !== undefined);
  return [
    ...(plain.length > 0 ? [{ ...statement, names: plain }] : []),
    ...aliased.map((n) => ({ ...statement, names: [n], magic: false })),
  ];
}

/**
 * The source with its leading import block organised; the same text when there is nothing to do or the block
 * cannot be read. Names are kept when the rest of the file mentions them anywhere (code, strings, comments: a
 * string annotation, `__all__`, a type comment), in an `__init__.py`, or re-exported as `import x as x`.
 */
export function organizePythonImports(
  lang: LanguageSpec,
  source: string,
  options: PythonImportOptions,
): string {
  const root = parseSource(lang, source);
  const children = root.children();
  const isImport = (n: AstNode) =>
    ['import_statement', 'import_from_statement', 'future_import_statement'].includes(n.kind());
  const first = children.findIndex(isImport);
  if (first < 0) return source;
  // The run of imports (and comments between them) from the first import to the first other statement.
  let last = first;
  for (let i = first; i < children.length; i++) {
    const node = children[i]!;
    if (isImport(node)) last = i;
    else if (node.kind() !== 'comment') break;
  }
  // The last import's own comment, after it on its line (`# noqa: F401`), goes with it.
  const after = children[last + 1];
  if (after?.kind() === 'comment' && after.range().start.line === children[last]!.range().end.line) last += 1;
  const run = children.slice(first, last + 1);
  // A comment on a line of its own belongs to the statement after it, and one after a statement on its line to
  // that statement: either way the statement is moved whole, with its comments, never merged or trimmed.
  const statements: Statement[] = [];
  let pending: string[] = [];
  for (let i = 0; i < run.length; i++) {
    const node = run[i]!;
    if (node.kind() === 'comment') {
      const previous = run[i - 1];
      if (
        previous &&
        previous.kind() !== 'comment' &&
        previous.range().end.line === node.range().start.line
      ) {
        const tail = source.slice(previous.range().end.index, node.range().end.index);
        const last = statements.at(-1)!;
        if (last.verbatim !== undefined) last.verbatim += tail;
        else {
          const count = countOf(previous);
          const first = statements[statements.length - count]!;
          statements.splice(statements.length - count, count, {
            ...first,
            verbatim: source.slice(previous.range().start.index, node.range().end.index),
          });
        }
      } else {
        // A comment after a blank line keeps it (FastAPI's `# TODO: import from typing …` above its import).
        const gap =
          pending.length === 0 &&
          i > 0 &&
          /\n[ \t]*\n/.test(source.slice(run[i - 1]!.range().end.index, node.range().start.index));
        pending.push(gap ? `\n${node.text()}` : node.text());
      }
      continue;
    }
    const parsed = parseStatement(node);
    if (!parsed) return source;
    if (pending.length > 0) {
      statements.push({ ...parsed[0]!, verbatim: `${pending.join('\n')}\n${node.text()}` });
      pending = [];
    } else statements.push(...parsed);
  }
  const start = run[0]!.range().start.index;
  let end = run.at(-1)!.range().end.index;
  if (source.startsWith('\r\n', end)) end += 2;
  else if (source[end] === '\n') end += 1;
  const rest = source.slice(0, start) + source.slice(end);
  const mentioned = (name: string) => new RegExp(`(?<![\\w.])${escapeRegex(name)}(?!\\w)`).test(rest);
  const keepAll = options.isPackageInit;
  const style = { ...DEFAULT_STYLE, ...options.style };

  // Merged: one `from m import …` per module (verbatim statements stay apart), names deduplicated.
  const merged: Statement[] = [];
  const byModule = new Map<string, Statement>();
  for (const statement of statements) {
    if (statement.verbatim !== undefined || !statement.from) {
      merged.push(statement);
      continue;
    }
    const into = byModule.get(statement.module);
    if (!into) {
      const copy = { ...statement, names: [...statement.names] };
      byModule.set(statement.module, copy);
      merged.push(copy);
      continue;
    }
    if (statement.magic) into.magic = true;
    for (const n of statement.names)
      if (!into.names.some((m) => m.name === n.name && m.alias === n.alias)) into.names.push(n);
  }
  const kept: Statement[] = [];
  const seen = new Set<string>();
  for (const statement of merged) {
    if (statement.verbatim !== undefined) {
      kept.push(statement);
      continue;
    }
    if (!statement.from) {
      const key = `${statement.module} as ${statement.alias ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const reexport = statement.alias !== undefined && statement.alias === statement.module;
      if (keepAll || reexport || statement.module === '__future__' || bound(statement).every(mentioned))
        kept.push(statement);
      continue;
    }
    const names = statement.names.filter(
      (n) =>
        keepAll ||
        n.name === '*' ||
        statement.module === '__future__' ||
        (n.alias !== undefined && n.alias === n.name) ||
        mentioned(n.alias ?? n.name),
    );
    if (names.length > 0) {
      const sorted = names.sort((a, b) => nameOrder(style.orderByType, a, b));
      kept.push(...splitFrom({ ...statement, names: sorted }, style));
    }
  }
  const sections = new Map<number, Statement[]>();
  for (const statement of kept) {
    const section = sectionOf(statement, options.firstParty, style);
    sections.set(section, [...(sections.get(section) ?? []), statement]);
  }
  const blocks = [...sections.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, list]) =>
      list
        .sort(
          (a, b) =>
            Number(a.from) - Number(b.from) ||
            moduleKey(a.module).localeCompare(moduleKey(b.module)) ||
            (a.alias ?? '').localeCompare(b.alias ?? '') ||
            (a.names[0] && b.names[0] ? nameOrder(style.orderByType, a.names[0], b.names[0]) : 0),
        )
        .map((s, i, list) => {
          // attrs' `lines-between-types = 1`: `import sys` lines, a blank line, then `from … import` lines.
          const apart = i > 0 && s.from && !list[i - 1]!.from ? '\n'.repeat(style.linesBetweenTypes) : '';
          return apart + render(s, options.lineLength, style);
        })
        .join('\n')
        .replace(/^\n+/, ''),
    );
  // A file with CRLF line ends keeps them.
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  const block = blocks.length > 0 ? `${blocks.join('\n\n')}\n`.replace(/\r?\n/g, eol) : '';
  // What followed the block keeps its spacing; the block keeps the first import's place.
  return source.slice(0, start) + block + source.slice(end);
}

/** How many statements a node was parsed into (`import a, b` is two). */
function countOf(node: AstNode): number {
  return node.kind() === 'import_statement'
    ? node.children().filter((c) => c.kind() === 'dotted_name' || c.kind() === 'aliased_import').length
    : 1;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
