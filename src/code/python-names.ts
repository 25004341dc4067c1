// What a Python identifier of a searched name is, by its place in the syntax tree: part of a module's path in an
// import (`from .auth import x`: the module auth, never a class's or a function's auth), a keyword argument's name
// (`f(auth=…)`: the callee's parameter), or, for a member, a place a member can be named at all.
import type { AstNode } from './ast-grep.js';

const SCOPES = new Set(['function_definition', 'lambda', 'class_definition']);

/**
 * `from .auth import x`, `import a.b as c`: the identifier names a module (or binds one), not a definition; so does
 * a name a `from … import` takes that the file's imports resolve to a module (`from . import auth`: `. auth` in
 * `modules`).
 */
export function isPythonModulePath(node: AstNode, modules: ReadonlySet<string> = new Set()): boolean {
  let from: AstNode = node;
  for (const outer of node.ancestors()) {
    const kind = outer.kind();
    if (kind === 'import_statement') return true;
    if (kind === 'import_from_statement') {
      const module = outer.field('module_name');
      if (module === null) return false;
      return (
        module.range().start.index === from.range().start.index ||
        modules.has(`${module.text()} ${node.text()}`)
      );
    }
    if (kind !== 'dotted_name' && kind !== 'relative_import' && kind !== 'aliased_import') return false;
    from = outer;
  }
  return false;
}

/** `f(auth=x)`: the name of a keyword argument, which is the callee's parameter. */
export function isKeywordArgumentName(node: AstNode): boolean {
  const parent = node.parent();
  return (
    parent?.kind() === 'keyword_argument' &&
    parent.field('name')?.range().start.index === node.range().start.index
  );
}

/** `obj.name`: the text of the object a name is an attribute of, or undefined when it is no attribute. */
export function attributeObject(node: AstNode): string | undefined {
  const parent = node.parent();
  if (parent?.kind() !== 'attribute') return undefined;
  if (parent.field('attribute')?.range().start.index !== node.range().start.index) return undefined;
  return parent.field('object')?.text();
}

/**
 * Whether a bare identifier can name a member (a method or field): its definition in a class (`def get`), or a name
 * in a class body (`auth: AuthType`, a decorator's `@prop.setter`). In a function, a bare name is a local or a
 * global, never a member, which Python always reaches through an object (`self.auth`); a module's `def get` is no
 * method.
 */
export function mayNameMember(node: AstNode): boolean {
  const parent = node.parent();
  const named =
    (parent?.kind() === 'function_definition' || parent?.kind() === 'class_definition') &&
    parent.field('name')?.range().start.index === node.range().start.index;
  const from = named && parent ? parent : node;
  return (
    from
      .ancestors()
      .find((a) => SCOPES.has(a.kind()))
      ?.kind() === 'class_definition'
  );
}

/** The string entries of a module's top-level `__all__` (a list or tuple, assigned or extended). */
export function allEntries(root: AstNode): AstNode[] {
  const entries: AstNode[] = [];
  for (const statement of root.children()) {
    const assignment = statement.kind() === 'expression_statement' ? statement.namedChildren()[0] : undefined;
    if (assignment?.field('left')?.text() !== '__all__') continue;
    const value = assignment.field('right');
    if (value?.kind() === 'list' || value?.kind() === 'tuple')
      entries.push(...value.namedChildren().filter((c) => c.kind() === 'string'));
  }
  return entries;
}

/** A plain string's content (`'BasicAuth'` → BasicAuth); undefined for an f-string, bytes or a concatenation. */
export function stringValue(node: AstNode): string | undefined {
  return /^[rRuU]?(['"])(\w+)\1$/.exec(node.text())?.[2];
}

/** The `__all__` entries that are `name`: the place of the name inside each string's quotes. */
export function allEntriesNamed(
  root: AstNode,
  name: string,
): { line: number; column: number; start: number; end: number }[] {
  return allEntries(root)
    .filter((entry) => stringValue(entry) === name)
    .map((entry) => {
      const { start } = entry.range();
      const at = entry.text().indexOf(name);
      return {
        line: start.line + 1,
        column: start.column + 1 + at,
        start: start.index + at,
        end: start.index + at + name.length,
      };
    });
}
