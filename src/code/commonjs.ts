// CommonJS and prototype-style JavaScript, read off a file's top-level statements: what `require` takes (isRequire)
// and what the file defines and exports by assignment — `exports.x = function`, `res.send = function send`,
// `View.prototype.lookup = function`, `module.exports = { kConnect: Symbol() }`, `module.exports = res` — which no
// declaration rule of languages.ts sees (tags.ts turns each into a definition).
import type { AstNode } from './ast-grep.js';
import type { SymbolKind } from './languages.js';

/** The languages where a `require('m')` call is an import (TypeScript compiled to CommonJS writes them too). */
export const COMMONJS_LANGUAGES: ReadonlySet<string> = new Set(['javascript', 'typescript', 'tsx']);

/**
 * A line that assigns a function to a member, at its start (`exports.x = function`, `res.send = (body) =>`), or
 * sets `module.exports`: only then are the top-level statements looked at (looking at every assignment of every
 * file tripled babel's parse).
 */
const ASSIGNED =
  /^(?:[A-Za-z_$][\w$.]*\.[A-Za-z_$][\w$]*\s*=\s*(?:async\s+)?(?:function\b|\(|[A-Za-z_$][\w$]*\s*=>)|module\.exports\s*=|(?:var|let|const)\s+[A-Za-z_$][\w$]*\s*=\s*(?:exports\s*=\s*)?module\.exports\s*=)/m;

const NAME = /^[A-Za-z_$][\w$]*$/;

const FUNCTION_VALUES: ReadonlySet<string> = new Set([
  'function_expression',
  'function',
  'arrow_function',
  'generator_function',
]);

/** Whether a file in `language` may define or export by assignment at its top level (see ASSIGNED). */
export function mayAssign(language: string, source: string): boolean {
  return COMMONJS_LANGUAGES.has(language) && ASSIGNED.test(source);
}

/**
 * `const fs = require('fs')`, `var sign = require('cookie-signature').sign`, `var debug = require('debug')('app')`:
 * an import in CommonJS, not a definition of the file's own.
 */
export function isRequire(part: AstNode): boolean {
  const value = part.kind() === 'variable_declarator' ? part.field('value') : null;
  return value !== null && value !== undefined && /^require\s*\(/.test(value.text());
}

/** A definition by assignment: the node it stands at and what it is. */
export interface Assigned {
  node: AstNode;
  /** What tags.ts makes a Definition of (it adds the lines, signature and doc). */
  def: { name: string; kind: SymbolKind; exported: boolean; container?: string };
}

/**
 * The definitions a program's top-level statements make by assignment, and the names `module.exports` is set to
 * (`module.exports = res`, `var app = exports = module.exports = {}`): those, and the functions assigned to their
 * members, are the module's exports (Express's response and application).
 */
export function assignedDefinitions(program: AstNode): { defined: Assigned[]; exportedAs: Set<string> } {
  const defined: Assigned[] = [];
  const exportedAs = new Set<string>();
  for (const statement of program.children()) {
    if (statement.kind() === 'variable_declaration' || statement.kind() === 'lexical_declaration') {
      for (const declarator of statement.children())
        if (/(^|=)\s*module\.exports\s*=/.test(declarator.field('value')?.text() ?? ''))
          exportedAs.add(declarator.field('name')?.text() ?? '');
      continue;
    }
    if (statement.kind() !== 'expression_statement') continue;
    const expression = statement.children()[0];
    if (expression?.kind() !== 'assignment_expression') continue;
    const right = expression.field('right');
    if (expression.field('left')?.text() === 'module.exports' && right?.kind() === 'identifier')
      exportedAs.add(right.text());
    const assigned = assignedFunction(expression);
    if (assigned) defined.push(assigned);
    else defined.push(...exportedObject(expression));
  }
  return { defined, exportedAs };
}

/**
 * A function assigned to a member: `exports.name = function` (and `module.exports.name`) is the module's own
 * exported function; `res.send = function send(body)` a method of `res`; `Foo.prototype.bar = function` of Foo.
 */
function assignedFunction(node: AstNode): Assigned | undefined {
  const left = node.field('left');
  const right = node.field('right');
  if (left?.kind() !== 'member_expression' || !right || !FUNCTION_VALUES.has(right.kind())) return undefined;
  const name = left.field('property')?.text();
  const object = left.field('object')?.text();
  if (!name || !object || !NAME.test(name)) return undefined;
  const module = object === 'exports' || object === 'module.exports';
  const container = module ? undefined : object.replace(/\.prototype$/, '');
  return {
    node,
    def: {
      name,
      kind: module ? 'function' : 'method',
      exported: module,
      ...(container ? { container } : {}),
    },
  };
}

/**
 * `module.exports = { kConnect: Symbol('connect'), format: function () {} }`: each key holding a function, a class
 * or a symbol is a name the module exports (undici's symbols.js). Not a config's `resolve: {…}` or `mode: 'x'` (a
 * webpack.config.js would define `resolve` and `output` for every use of those names); `{ parse }` names a binding
 * defined or imported already, and `m() {}` is a method the declaration rules find.
 */
function exportedObject(node: AstNode): Assigned[] {
  if (node.field('left')?.text() !== 'module.exports') return [];
  const object = node.field('right');
  if (object?.kind() !== 'object') return [];
  const found: Assigned[] = [];
  for (const part of object.namedChildren()) {
    if (part.kind() !== 'pair') continue;
    const name = part.field('key')?.text();
    const value = part.field('value');
    if (!name || !NAME.test(name) || !value) continue;
    const isFunction = FUNCTION_VALUES.has(value.kind());
    const callee = value.kind() === 'call_expression' ? value.field('function')?.text() : undefined;
    if (!isFunction && value.kind() !== 'class' && callee !== 'Symbol') continue;
    found.push({ node: part, def: { name, kind: isFunction ? 'function' : 'constant', exported: true } });
  }
  return found;
}
