// Go by name (no gopls): the type a selector's operand can be read to have (a variable's declared or made type,
// `new(T)`, a project function's result), whether it is another module's package or value, and a project
// interface's methods. references.ts asks these to leave out another type's field or method of the same name.
import type { NapiConfig } from '@ast-grep/napi';
import { type AstNode, sameNode } from './ast-grep.js';
import { localNames } from './imports.js';
import type { Definition, Import } from './tags.js';

/** The type a Go method's declaration names in its receiver: `func (c *Context) JSON(…)` → `Context`. */
export const goReceiverType = (signature: string): string | undefined =>
  /^func\s*\(\s*\w*\s*\*?\s*([A-Za-z_]\w*)/.exec(signature)?.[1];

/** The names a Go file's imports of packages outside its module bind (`url` for "net/url", an alias if given). */
export function goForeignImportNames(imports: readonly Import[], module: string | undefined): Set<string> {
  const names = new Set<string>();
  for (const imp of imports) {
    if (module !== undefined && (imp.module === module || imp.module.startsWith(`${module}/`))) continue;
    for (const name of localNames(imp, 'go')) if (name !== '_' && name !== '.') names.add(name);
  }
  return names;
}

/**
 * Whether a Go expression is another package's (a package itself, or a value of its type): `req` declared
 * `req *http.Request`, `req.URL`, `url.URL{…}`, `http.NewRequest(…)`'s results. Its fields and methods of a name
 * are that type's, not the project's.
 */
function goForeign(
  expr: AstNode,
  imported: ReadonlySet<string>,
  depth = 0,
  /** The first result types the project's functions and methods of a name declare. */
  results: (name: string) => readonly string[] = () => [],
): boolean {
  if (depth > 4) return false;
  const qualified = (type: string) => /^[*[\]\s]*([A-Za-z_]\w*)\.[A-Za-z_]/.exec(type)?.[1];
  if (expr.kind() === 'call_expression') {
    // A call of the project's whose every definition of that name gives another package's type first
    // (`route.URLHost(…)`: *url.URL).
    const fn = expr.field('function');
    const called = fn?.kind() === 'selector_expression' ? fn.field('field')?.text() : fn?.text();
    const types = called ? results(called) : [];
    if (types.length > 0 && types.every((type) => imported.has(qualified(type) ?? ''))) return true;
  }
  switch (expr.kind()) {
    case 'selector_expression':
    case 'call_expression':
    case 'index_expression':
    case 'parenthesized_expression':
    case 'unary_expression': {
      const inner =
        expr.field('operand') ?? expr.field('function') ?? expr.namedChildren().find((c) => c.kind() !== '&');
      return inner ? goForeign(inner, imported, depth + 1, results) : false;
    }
    case 'composite_literal': {
      const pkg = qualified(expr.field('type')?.text() ?? '');
      return pkg !== undefined && imported.has(pkg);
    }
    case 'identifier': {
      const name = expr.text();
      const found = goDeclaration(expr);
      // Not declared in the function: a package's name, when the file imports one of it.
      if (!found) return imported.has(name);
      if (found.kind() === 'short_var_declaration') {
        const value = declaredValue(found, name);
        return value !== undefined && goForeign(value, imported, depth + 1, results);
      }
      const pkg = qualified(found.field('type')?.text() ?? '');
      return pkg !== undefined && imported.has(pkg);
    }
    default:
      return false;
  }
}

/** A Go interface type's definition (`type matcher interface`). */
export const isGoInterface = (d: Definition) =>
  d.kind === 'interface' || (d.kind === 'type' && /\binterface\b/.test(d.signature));

/** The text of a Go file's interface types (`type matcher interface { … }`), from the file's `text`. */
export function interfaceBodies(text: string, definitions: readonly Definition[]): string {
  const lines = text.split('\n');
  return definitions
    .filter(isGoInterface)
    .map((d) => lines.slice(d.line - 1, d.endLine ?? d.line).join('\n'))
    .join('\n');
}

/** A Go receiver's or variable's type as written → its name: `*Context` → `Context`, `[]*gin.Engine` → `Engine`. */
const goSimpleType = (type: string | undefined) =>
  type
    ?.replace(/^[*[\]\s&]*/, '')
    .split('.')
    .pop()
    ?.match(/^[A-Za-z_]\w*/)?.[0];

/** The type a Go variable is declared with where `use` is, when it is written or made there; undefined if unread. */
function goTypeOf(use: AstNode, results: (name: string) => readonly string[]): string | undefined {
  const made = goMadeType(use, results);
  if (made !== null) return made;
  if (use.kind() !== 'identifier') return undefined;
  const found = goDeclaration(use);
  if (!found) return undefined;
  if (found.kind() !== 'short_var_declaration') return goSimpleType(found.field('type')?.text());
  const value = declaredValue(found, use.text());
  return value ? (goMadeType(value, results) ?? undefined) : undefined;
}

/**
 * The declaration of the variable `use` names: the nearest before it whose scope holds it (a parameter's: its
 * function; a variable's: its block), not one of a closure beside it (`func(w http.ResponseWriter, r *http.Request)
 * {}` before `r := NewRouter()`).
 */
function goDeclaration(use: AstNode): AstNode | undefined {
  const name = use.text();
  const at = use.range().start.index;
  const holds = (n: AstNode) => n.range().start.index <= at && at < n.range().end.index;
  const outer = use
    .ancestors()
    .findLast((a) => a.kind() === 'function_declaration' || a.kind() === 'method_declaration');
  let found: AstNode | undefined;
  for (const declaration of outer?.findAll({
    rule: {
      any: [{ kind: 'parameter_declaration' }, { kind: 'var_spec' }, { kind: 'short_var_declaration' }],
    },
  } as NapiConfig) ?? []) {
    if (declaration.range().start.index > at) continue;
    const names =
      declaration.kind() === 'short_var_declaration'
        ? (declaration.field('left')?.namedChildren() ?? [])
        : declaration.children().filter((c) => c.kind() === 'identifier');
    if (!names.some((n) => n.text() === name)) continue;
    const scope = declaration
      .ancestors()
      .find((a) =>
        declaration.kind() === 'parameter_declaration'
          ? ['function_declaration', 'method_declaration', 'func_literal'].includes(a.kind())
          : a.kind() === 'block',
      );
    if (scope && holds(scope)) found = declaration;
  }
  return found;
}

/** The value a short variable declaration gives `name` (`a, b := f()`: one call gives both). */
function declaredValue(declaration: AstNode, name: string): AstNode | undefined {
  const left = declaration.field('left')?.namedChildren() ?? [];
  const values = declaration.field('right')?.namedChildren() ?? [];
  return values.length === left.length ? values[left.findIndex((n) => n.text() === name)] : values[0];
}

/**
 * The type an expression makes: `&T{…}`, `T{…}`, a call of the project's whose definitions of that name all give one
 * type first (`r.NewRoute()`: *Route); undefined when it makes one that cannot be read, null when it is no such
 * expression.
 */
function goMadeType(expr: AstNode, results: (name: string) => readonly string[]): string | undefined | null {
  let value = expr;
  while (value.kind() === 'unary_expression' || value.kind() === 'parenthesized_expression') {
    const inner = value.namedChildren().at(-1);
    if (!inner) return undefined;
    value = inner;
  }
  if (value.kind() === 'composite_literal') return goSimpleType(value.field('type')?.text());
  if (value.kind() === 'call_expression') {
    const fn = value.field('function');
    // `new(Route)`.
    if (fn?.kind() === 'identifier' && fn.text() === 'new')
      return goSimpleType(value.field('arguments')?.namedChildren()[0]?.text());
    const called = fn?.kind() === 'selector_expression' ? fn.field('field')?.text() : fn?.text();
    const types = [...new Set((called ? results(called) : []).map(goSimpleType))];
    return types.length === 1 ? types[0] : undefined;
  }
  return value === expr ? null : undefined;
}

/**
 * Whether a Go method's name here can be the method of the allowed receiver types: its declaration on one of them,
 * a selector on a value of one of them, or (its type unread) where no other type has a method of the name, else
 * undecided (undefined); never a package's name (`binding.JSON`), a type or a variable of the name.
 */
export function goReceiverFits(
  node: AstNode,
  allowed: ReadonlySet<string>,
  unknownFits: boolean,
  packages: ReadonlySet<string>,
  results: (name: string) => readonly string[],
): boolean | undefined {
  const parent = node.parent();
  const unread = unknownFits || undefined;
  if (parent?.kind() === 'method_declaration' && sameNode(parent.field('name'), node)) {
    const receiver = /\(\s*\w*\s*\*?\s*([A-Za-z_]\w*)/.exec(parent.field('receiver')?.text() ?? '')?.[1];
    return receiver !== undefined && allowed.has(receiver);
  }
  // An interface's method of the name: renamed with it when nothing else has one.
  if (parent?.kind() === 'method_elem' || parent?.kind() === 'method_spec') return unread;
  if (parent?.kind() !== 'selector_expression' || !sameNode(parent.field('field'), node)) return false;
  const operand = parent.field('operand');
  if (!operand) return false;
  const type = goTypeOf(operand, results);
  if (type !== undefined) return allowed.has(type);
  if (operand.kind() === 'identifier' && packages.has(operand.text())) return false;
  return unread;
}

/**
 * Whether a Go member name here is another package's: a selector on a foreign value (goForeign), a type written
 * qualified (`url.URL`), or a key of a foreign type's composite literal (`url.URL{Host: h}`).
 */
export function goForeignMember(
  node: AstNode,
  imported: ReadonlySet<string>,
  results: (name: string) => readonly string[],
): boolean {
  const parent = node.parent();
  if (parent?.kind() === 'qualified_type') return true;
  if (parent?.kind() === 'selector_expression' && sameNode(parent.field('field'), node)) {
    const operand = parent.field('operand');
    return operand !== null && operand !== undefined && goForeign(operand, imported, 0, results);
  }
  const literal = node.ancestors().find((a) => a.kind() === 'composite_literal');
  const keyed = node.ancestors().find((a) => a.kind() === 'keyed_element');
  if (literal && keyed && keyed.namedChildren()[0]?.range().start.index === node.range().start.index)
    return goForeign(literal, imported);
  return false;
}

/**
 * The names a Go file's imports bind (`localNames`: each path's alias, or its last element; `_` and `.` bind none):
 * of `onlyPath` alone, or of every package but the standard library's (`errors`, `net/http`: never the project's).
 */
export function goPackageNames(imports: readonly Import[], onlyPath?: string): Set<string> {
  const names = new Set<string>();
  for (const imp of imports) {
    if (onlyPath !== undefined ? imp.module !== onlyPath : !imp.module.split('/')[0]!.includes('.')) continue;
    for (const name of localNames(imp, 'go')) if (name !== '_' && name !== '.') names.add(name);
  }
  return names;
}

/**
 * How a Go name is qualified: `package` for `pkg.Name` (a selector or a qualified type) of an imported package in
 * `packages`; `other` for a method's or a field's name (`x.Name` of anything else, a method declared or listed in an
 * interface, a struct field, a composite literal's key) or another package's type; `none` for a bare name.
 */
export function goQualifier(node: AstNode, packages: ReadonlySet<string>): 'package' | 'other' | 'none' {
  const parent = node.parent();
  if (parent?.kind() === 'qualified_type' && sameNode(parent.field('name'), node)) {
    const pkg = parent.field('package');
    return pkg !== null && pkg !== undefined && packages.has(pkg.text()) ? 'package' : 'other';
  }
  if (node.kind() !== 'field_identifier') return 'none';
  if (parent?.kind() !== 'selector_expression' || !sameNode(parent.field('field'), node)) return 'other';
  const operand = parent.field('operand');
  return operand?.kind() === 'identifier' && packages.has(operand.text()) ? 'package' : 'other';
}
