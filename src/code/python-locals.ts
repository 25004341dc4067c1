// A Python function's local binding by name, from the syntax tree: whether the name at a line is a local variable or
// a parameter of the function it stands in (Python's rule: bound anywhere in the function, not declared global or
// nonlocal), and every use of that binding there — never an attribute (`request.auth`), a keyword argument's name, a
// nested function's own binding of the name, or anything outside the function.
import { type AstNode, parseSource } from './ast-grep.js';
import { LANGUAGES } from './languages.js';
import type { Occurrence } from './occurrences.js';
import { attributeObject, isKeywordArgumentName, isPythonModulePath } from './python-names.js';

export interface PythonLocal {
  /** The function holding it (`Session.prepare_request`, `<lambda>`): its lines and source offsets. */
  scope: { name: string; line: number; endLine: number; start: number; end: number };
  parameter: boolean;
  /** Its uses and bindings in the function, in order (the first binding's line: where it is declared). */
  occurrences: Occurrence[];
}

const FUNCTIONS = new Set(['function_definition', 'lambda']);
/** Scopes of their own inside a function: what they bind is theirs. */
const NESTED = new Set([
  'function_definition',
  'lambda',
  'class_definition',
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
]);
/** Where an identifier under a target is bound (`a, (b, c) = …`, `for i, x in …`), not read (`a[i] = …`, `a.b = …`). */
const PATTERNS = new Set([
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'tuple',
  'list',
  'list_splat_pattern',
  'dictionary_splat_pattern',
]);

const python = () => LANGUAGES.find((l) => l.id === 'python')!;
const same = (a: AstNode | null | undefined, b: AstNode) =>
  a != null && a.range().start.index === b.range().start.index && a.kind() === b.kind();

/** The scope an identifier belongs to: the nearest one around it (a def's own name is its enclosing scope's). */
function scopeOf(node: AstNode): AstNode | undefined {
  const parent = node.parent();
  const own = parent && NESTED.has(parent.kind()) && same(parent.field('name'), node) ? parent : undefined;
  return node.ancestors().find((a) => !same(own, a) && NESTED.has(a.kind()));
}

/** Whether `node` (an identifier) is bound where it stands, and as a parameter. */
function binding(node: AstNode): 'parameter' | 'local' | undefined {
  let child = node;
  for (const outer of node.ancestors()) {
    const kind = outer.kind();
    if (kind === 'parameters' || kind === 'lambda_parameters') return 'parameter';
    if (kind === 'default_parameter' || kind === 'typed_default_parameter')
      return same(outer.field('name'), child) ? 'parameter' : undefined;
    if (kind === 'typed_parameter') return same(outer.namedChildren()[0], child) ? 'parameter' : undefined;
    if (kind === 'assignment' || kind === 'augmented_assignment' || kind === 'for_statement')
      return same(outer.field('left'), child) ? 'local' : undefined;
    if (kind === 'for_in_clause') return same(outer.field('left'), child) ? 'local' : undefined;
    if (kind === 'as_pattern_target') return 'local';
    if (kind === 'named_expression') return same(outer.field('name'), child) ? 'local' : undefined;
    if (kind === 'function_definition' || kind === 'class_definition')
      return same(outer.field('name'), child) ? 'local' : undefined;
    if (kind === 'aliased_import' || kind === 'import_statement' || kind === 'import_from_statement')
      return 'local';
    if (!PATTERNS.has(kind) && kind !== 'dotted_name') return undefined;
    child = outer;
  }
  return undefined;
}

/** `global name` / `nonlocal name` directly in `scope`. */
function declared(scope: AstNode, name: string): 'global' | 'nonlocal' | undefined {
  const rule = { any: [{ kind: 'global_statement' }, { kind: 'nonlocal_statement' }] };
  for (const statement of scope.findAll({ rule }))
    if (same(scopeOf(statement), scope) && statement.namedChildren().some((c) => c.text() === name))
      return statement.kind() === 'global_statement' ? 'global' : 'nonlocal';
  return undefined;
}

/** The identifiers of `name` that are the name itself (not an attribute, a keyword argument, a module path). */
function namesIn(root: AstNode, name: string): AstNode[] {
  return root
    .findAll({ rule: { kind: 'identifier', regex: `^${name.replace(/[$]/g, '\\$')}$` } })
    .filter((n) => attributeObject(n) === undefined && !isKeywordArgumentName(n) && !isPythonModulePath(n));
}

/** A function's name for the result: `Class.method`, `function`, `<lambda>`. */
function scopeName(scope: AstNode): string {
  if (scope.kind() === 'lambda') return '<lambda>';
  const own = scope.field('name')?.text() ?? '?';
  const owner = scope.ancestors().find((a) => a.kind() === 'class_definition' || FUNCTIONS.has(a.kind()));
  return owner?.kind() === 'class_definition' ? `${owner.field('name')?.text()}.${own}` : own;
}

/**
 * The local binding `name` is at `line` (1-based; at `column` when given) of a Python source: a variable or
 * parameter of the function it stands in, with its uses there; undefined when the name there is no local (a global,
 * a class's attribute, a member, or not there).
 */
export function pythonLocalAt(
  source: string,
  name: string,
  line: number,
  column?: number,
): PythonLocal | undefined {
  const root = parseSource(python(), source);
  const all = namesIn(root, name);
  const onLine = all.filter((n) => n.range().start.line + 1 === line);
  const at =
    column === undefined
      ? onLine[0]
      : onLine.find((n) => n.range().start.column < column && column <= n.range().end.column);
  if (!at) return undefined;
  // From the innermost scope out: the first binding the name (Python's LEGB, without the class bodies).
  let scope = scopeOf(at);
  while (scope && !FUNCTIONS.has(scope.kind())) scope = scopeOf(scope);
  for (; scope; scope = scopeOf(scope)) {
    if (!FUNCTIONS.has(scope.kind())) continue;
    const declaration = declared(scope, name);
    if (declaration === 'global') return undefined;
    if (declaration === 'nonlocal') continue;
    const home = scope;
    const own = all.filter((n) => ownedBy(n, home));
    const kinds = own.map(binding).filter((b) => b !== undefined);
    if (kinds.length === 0) continue;
    const { start, end } = home.range();
    const occurrences = own.map((n) => {
      const range = n.range();
      return {
        line: range.start.line + 1,
        column: range.start.column + 1,
        start: range.start.index,
        end: range.end.index,
        shorthand: false,
        definition: binding(n) !== undefined,
      };
    });
    return {
      scope: {
        name: scopeName(home),
        line: start.line + 1,
        endLine: end.line + 1,
        start: start.index,
        end: end.index,
      },
      parameter: kinds.includes('parameter'),
      occurrences,
    };
  }
  return undefined;
}

/**
 * Whether the identifier is the function's own name: inside it, and not in a scope nested in it that binds the name
 * itself (a nested function's parameter of that name) unless that scope declares it nonlocal.
 */
function ownedBy(node: AstNode, fn: AstNode): boolean {
  const { start, end } = fn.range();
  const at = node.range().start.index;
  if (at < start.index || at >= end.index) return false;
  // A def's own name belongs to the scope around it: `def auth()` at the function's top is not inside it.
  if (same(fn.field('name'), node)) return false;
  for (let scope = scopeOf(node); scope && !same(scope, fn); scope = scopeOf(scope)) {
    if (declared(scope, node.text()) === 'nonlocal') continue;
    const inner = scope;
    if (namesIn(inner, node.text()).some((n) => same(scopeOf(n), inner) && binding(n) !== undefined))
      return false;
  }
  return true;
}
