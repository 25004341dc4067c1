// A local binding (a parameter, a local variable) named by its line: the binding and the uses it reaches in its
// scope, never a same-named function, field, struct key or another function's local. find_references and
// rename_symbol take it when a position points at a local rather than at a definition.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type AstNode, findKinds, parseSource, sameNode } from './ast-grep.js';
import type { CodeIndex } from './code-index.js';
import { type LanguageSpec, languageOf } from './languages.js';
import {
  bindingScope,
  escapeRegex,
  isBinding,
  isMemberAccess,
  type Occurrence,
  occurrenceOf,
} from './occurrences.js';
import { pythonLocalAt } from './python-locals.js';
import { rustBindingScope } from './rust-names.js';

export interface LocalBinding {
  /** 1-based line of the binding's declaration. */
  line: number;
  /** 1-based lines of its scope, its declaration's included. */
  from: number;
  to: number;
  /** Source offsets of its scope. */
  scope: [number, number];
  /** The declaration and every use it reaches. */
  occurrences: Occurrence[];
  /** Python: a parameter, which callers may pass by keyword (`auth=…`), and the function holding it. */
  parameter?: boolean;
  function?: string;
}

/**
 * Blocks that bound a local declared in them (a parameter's scope is its function): Java's and Go's blocks, a
 * `for`'s header, a catch clause, an `if x := f(); …`.
 */
const BLOCKS: Record<string, readonly string[]> = {
  java: [
    'block',
    'switch_block_statement_group',
    'for_statement',
    'enhanced_for_statement',
    'catch_clause',
    'try_with_resources_statement',
  ],
  go: [
    'block',
    'for_statement',
    'if_statement',
    'expression_switch_statement',
    'type_switch_statement',
    'expression_case',
    'type_case',
    'communication_case',
    'default_case',
  ],
  typescript: ['statement_block', 'for_statement', 'for_in_statement', 'catch_clause'],
  tsx: ['statement_block', 'for_statement', 'for_in_statement', 'catch_clause'],
  javascript: ['statement_block', 'for_statement', 'for_in_statement', 'catch_clause'],
};

/** Identifier kinds that never name a local: types, packages, fields. */
const NOT_LOCAL = /type_identifier|package_identifier|field_identifier|property_identifier/;

/** Where a binding node's name is in scope, from the binding on; undefined when it binds no local. */
function scopeOf(lang: LanguageSpec, node: AstNode): [number, number] | undefined {
  if (lang.id === 'rust') return rustBindingScope(node);
  if (!isBinding(lang, node)) return undefined;
  const fn = bindingScope(lang, node);
  if (!fn) return undefined;
  const blocks = BLOCKS[lang.id] ?? [];
  const holder = node.ancestors().find((a) => blocks.includes(a.kind()) || lang.scopes.includes(a.kind()));
  const [start, end] =
    holder && blocks.includes(holder.kind()) ? [holder.range().start.index, holder.range().end.index] : fn;
  return [Math.max(start, node.range().start.index), end];
}

/**
 * Whether an identifier is no use of a variable: a member's name (`obj.name`, `obj.name()`, `X::name`), what a
 * declaration names (a method, a class), a path's part (`name::f`, `a::name`), a Go struct literal's key.
 */
function namesOther(lang: LanguageSpec, node: AstNode): boolean {
  const parent = node.parent();
  if (!parent) return true;
  if (isMemberAccess(lang, node)) return true;
  if (sameNode(parent.field('name'), node) || sameNode(parent.field('field'), node)) return true;
  const kind = parent.kind();
  if (kind === 'method_reference') return sameNode(parent.namedChildren().at(-1), node);
  if (['scoped_identifier', 'scoped_type_identifier', 'scoped_use_list', 'use_declaration'].includes(kind))
    return true;
  if (kind === 'literal_element' && parent.parent()?.kind() === 'keyed_element') {
    const keyed = parent.parent()!;
    const literal = keyed.ancestors().find((a) => a.kind() === 'composite_literal');
    return sameNode(keyed.namedChildren()[0], parent) && literal?.field('type')?.kind() !== 'map_type';
  }
  return false;
}

/**
 * The local binding of `name` on `line` of `source` (at `column` when given): declared there, or used there. The
 * uses a nearer binding of the same name takes (an inner block's, a later `let`) are not its.
 */
export function localBindingAt(
  lang: LanguageSpec,
  source: string,
  name: string,
  line: number,
  column?: number,
): LocalBinding | undefined {
  if (lang.id === 'python') return pythonLocal(source, name, line, column);
  const root = parseSource(lang, source);
  const kinds = lang.identifiers.filter((k) => !NOT_LOCAL.test(k));
  const nodes = findKinds(lang, root, kinds, `^${escapeRegex(name)}$`);
  const bindings = new Map<number, { node: AstNode; scope: [number, number] }>();
  for (const node of nodes) {
    const scope = scopeOf(lang, node);
    if (scope) bindings.set(node.range().start.index, { node, scope });
  }
  if (bindings.size === 0) return undefined;
  /** The binding a node is, or the one its use reaches: the innermost, latest one in scope there. */
  const bindingOf = (node: AstNode) => {
    const at = node.range().start.index;
    const own = bindings.get(at);
    if (own) return own;
    if (namesOther(lang, node)) return undefined;
    let best: { node: AstNode; scope: [number, number] } | undefined;
    for (const b of bindings.values())
      if (b.scope[0] <= at && at < b.scope[1] && (!best || b.scope[0] >= best.scope[0])) best = b;
    return best;
  };
  const onLine = nodes.filter((n) => {
    const { start, end } = n.range();
    return (
      start.line + 1 === line &&
      (column === undefined || (start.column + 1 <= column && column <= end.column + 1))
    );
  });
  // A declaration on the line before a use there (`let x = f(x)`).
  const picked = onLine.find((n) => bindings.has(n.range().start.index)) ?? onLine.find((n) => bindingOf(n));
  const target = picked ? bindingOf(picked) : undefined;
  if (!target) return undefined;
  const occurrences = nodes
    .filter((n) => bindingOf(n) === target)
    .map((n) => occurrenceOf(n, n === target.node));
  const first = Math.min(target.scope[0], target.node.range().start.index);
  const lineAt = (index: number) => source.slice(0, index).split('\n').length;
  return {
    line: target.node.range().start.line + 1,
    from: lineAt(first),
    to: lineAt(target.scope[1]),
    scope: [first, target.scope[1]],
    occurrences,
  };
}

/**
 * Python's locals are the function's (every assignment in it is one variable, not a binding from there on, unless
 * declared global or nonlocal; a nested function or a comprehension keeps its own): python-locals.ts reads them.
 */
function pythonLocal(source: string, name: string, line: number, column?: number): LocalBinding | undefined {
  const local = pythonLocalAt(source, name, line, column);
  if (!local) return undefined;
  const { scope, occurrences, parameter } = local;
  return {
    line: occurrences.find((o) => o.definition)?.line ?? scope.line,
    from: scope.line,
    to: scope.endLine,
    scope: [scope.start, scope.end],
    occurrences,
    ...(parameter ? { parameter } : {}),
    function: scope.name,
  };
}

/**
 * The local binding `line` of `file` points at, with its file's text; undefined when the line holds a definition
 * of `name` the index knows (a field, a function), or no local of that name.
 */
export async function localBindingIn(
  index: CodeIndex,
  name: string,
  file: string,
  line: number,
  column?: number,
): Promise<(LocalBinding & { source: string }) | undefined> {
  const lang = languageOf(file);
  const tags = index.files.get(file);
  if (!lang || !tags) return undefined;
  if (column === undefined && tags.definitions.some((d) => d.name === name && d.line === line))
    return undefined;
  const source = await fs.readFile(path.join(index.root, file), 'utf8').catch(() => undefined);
  if (source === undefined) return undefined;
  const local = localBindingAt(lang, source, name, line, column);
  return local ? { ...local, source } : undefined;
}
