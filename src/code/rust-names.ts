// Rust names by their syntax alone: where a pattern's binding is in scope, and what a path's parts are (a module,
// the module an item is named through, another crate's item). occurrences.ts asks these.
import { type AstNode, sameNode } from './ast-grep.js';

/** Rust patterns an identifier may sit in, down from the let, parameter, arm or loop that binds it. */
const RUST_PATTERNS = new Set([
  'tuple_struct_pattern',
  'tuple_pattern',
  'struct_pattern',
  'field_pattern',
  'ref_pattern',
  'mut_pattern',
  'slice_pattern',
  'or_pattern',
  'captured_pattern',
  'reference_pattern',
]);

/**
 * Where a Rust local binding is in scope, when `node` is one: a `let`'s after the statement (its value still means
 * the outer name: `let hostname = hostname(…)`), an `if let`'s or `while let`'s in its block, a `for`'s in its
 * body, a match arm's in the arm, a parameter's in its function or closure. Names deep in patterns bind too
 * (`if let Some(hostname) = hostname(…)`), but not a pattern's type or variant (`Some`).
 */
export function rustBindingScope(node: AstNode): [number, number] | undefined {
  let child = node;
  let parent = node.parent();
  while (parent && RUST_PATTERNS.has(parent.kind())) {
    const kind = parent.kind();
    if (
      (kind === 'tuple_struct_pattern' || kind === 'struct_pattern') &&
      sameNode(parent.field('type'), child)
    )
      return undefined;
    if (kind === 'field_pattern' && !sameNode(parent.field('pattern'), child)) return undefined;
    child = parent;
    parent = parent.parent();
  }
  if (!parent) return undefined;
  const span = (n: AstNode | null | undefined): [number, number] | undefined =>
    n ? [n.range().start.index, n.range().end.index] : undefined;
  switch (parent.kind()) {
    case 'let_declaration': {
      if (!sameNode(parent.field('pattern'), child)) return undefined;
      const block = parent.ancestors().find((a) => a.kind() === 'block' || a.kind() === 'function_item');
      return block ? [parent.range().end.index, block.range().end.index] : undefined;
    }
    case 'let_condition': {
      if (!sameNode(parent.field('pattern'), child)) return undefined;
      const holder = parent
        .ancestors()
        .find((a) => a.kind() === 'if_expression' || a.kind() === 'while_expression');
      return span(holder?.field(holder.kind() === 'if_expression' ? 'consequence' : 'body'));
    }
    case 'for_expression':
      return sameNode(parent.field('pattern'), child) ? span(parent.field('body')) : undefined;
    case 'match_pattern': {
      const arm = parent.parent();
      return arm?.kind() === 'match_arm' ? [parent.range().end.index, arm.range().end.index] : undefined;
    }
    case 'parameter': {
      if (!sameNode(parent.field('pattern'), child)) return undefined;
      return span(
        parent.ancestors().find((a) => a.kind() === 'function_item' || a.kind() === 'closure_expression'),
      );
    }
    case 'closure_parameters':
      return span(parent.parent());
    default:
      return undefined;
  }
}

/**
 * A Rust name that is a module's, not an item's: `mod hostname;`, or the path before `::` (`hostname::hostname`,
 * `use hostname::{…}`). A type's name before `::` is the type (`Version::new`, `Level::Info`): modules are
 * snake_case, types UpperCamelCase.
 */
export function isRustModulePath(node: AstNode): boolean {
  const parent = node.parent();
  if (!parent) return false;
  if (parent.kind() === 'mod_item') return sameNode(parent.field('name'), node);
  if (/^[A-Z]/.test(node.text())) return false;
  const scoped = ['scoped_identifier', 'scoped_use_list', 'scoped_type_identifier', 'use_wildcard'];
  if (scoped.includes(parent.kind()) && sameNode(parent.field('path'), node)) return true;
  // The last part of a path that is itself a path's start: `crate::hostname` in `crate::hostname::hostname`.
  const grand = parent.parent();
  return (
    parent.kind() === 'scoped_identifier' &&
    sameNode(parent.field('name'), node) &&
    grand !== null &&
    scoped.includes(grand.kind()) &&
    sameNode(grand.field('path'), parent)
  );
}

/** The module a Rust path names its last item through: `imp` in `super::imp::OnceCell` or `use imp::{A, B}`. */
export function rustQualifier(node: AstNode): string | undefined {
  let parent = node.parent();
  // `use a::{B, C}`: the list's path.
  if (parent?.kind() === 'use_list') parent = parent.parent();
  if (!parent || !['scoped_identifier', 'scoped_type_identifier', 'scoped_use_list'].includes(parent.kind()))
    return undefined;
  if (parent.kind() !== 'scoped_use_list' && !sameNode(parent.field('name'), node)) return undefined;
  const path = parent.field('path');
  if (!path) return undefined;
  return (path.kind() === 'scoped_identifier' ? path.field('name') : path)?.text();
}

/** A Rust name after a path that does not start in this crate's own modules (`grep::cli::hostname`). */
export function isForeignRustPath(node: AstNode): boolean {
  const parent = node.parent();
  if (parent?.kind() !== 'scoped_identifier' || !sameNode(parent.field('name'), node)) return false;
  const first = parent.field('path')?.text().split('::')[0]?.trim();
  return first !== 'self' && first !== 'super' && first !== 'crate' && first !== 'Self';
}
