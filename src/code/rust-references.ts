// Rust by name (no rust-analyzer): the type a method call's receiver can be read to have (`self` in an `impl`, a
// typed parameter or `let`, a constructor, a field or a method of a known type), so references.ts leaves out
// another type's method of the same name (log's RecordBuilder::args beside Record::args, `str::is_empty`); and the
// scopes of a pattern's bindings and what a path's parts are (a module, another crate's item).
import { type AstNode, sameNode } from './ast-grep.js';
import type { CodeIndex } from './code-index.js';
import { sourceLines, topLevelParts } from './source-text.js';

/** Methods of Rust's core and standard types: on a receiver of unknown type, most likely theirs. */
export const RUST_STD_METHODS = new Set(
  (
    'new default clone clone_from eq ne cmp partial_cmp hash fmt to_string to_owned into from try_from try_into ' +
    'as_ref as_mut borrow borrow_mut deref deref_mut drop len is_empty capacity clear push pop insert remove get ' +
    'get_mut contains contains_key iter iter_mut into_iter next map filter collect extend truncate reserve ' +
    'with_capacity as_str as_slice as_bytes as_ptr split trim starts_with ends_with find replace chars bytes lines ' +
    'parse unwrap expect unwrap_or unwrap_or_else unwrap_or_default ok err is_some is_none is_ok is_err and_then ' +
    'or_else take replace_with first last sort sort_by join write write_str write_fmt flush read lock min max ' +
    'count sum keys values entry append drain retain into_inner get_or_insert set swap load store'
  ).split(' '),
);

/** The types std and core give most receivers (a receiver of one of these is never the project's type). */
const STD_TYPES = new Set(
  (
    'str String Vec VecDeque HashMap HashSet BTreeMap BTreeSet Option Result Path PathBuf OsStr OsString Cow ' +
    'Formatter Arguments Duration Instant File Error usize isize u8 u16 u32 u64 u128 i8 i16 i32 i64 i128 f32 ' +
    'f64 bool char'
  ).split(' '),
);

/** What a macro's tokens are held in: its arguments, and a `macro_rules!` body's repetitions. */
const TOKENS = new Set(['token_tree', 'token_repetition']);

/** Methods giving the receiver (or what it holds) back: their result has its type, for a method call. */
const SAME_TYPE = new Set([
  'as_ref',
  'as_mut',
  'borrow',
  'borrow_mut',
  'deref',
  'deref_mut',
  'clone',
  'by_ref',
]);

/** Wrappers a method call sees through (auto-deref): `Box<Record>` calls Record's methods. */
const DEREF = new Set(['Box', 'Rc', 'Arc', 'Cow', 'ManuallyDrop']);

/**
 * A member's declared type (a method's return, a struct field's), by type and member ('' for a free function); of
 * the type defined in `file` when it defines one of that name (once_cell has five `OnceCell`s).
 */
export type RustMemberType = (owner: string, member: string, file?: string) => string | undefined;

/** The simple name of a Rust type as written: `&'a mut Box<RecordBuilder<'a>>` → `RecordBuilder`. */
export function rustSimpleType(text: string | undefined): string | undefined {
  let t = text?.trim();
  for (let i = 0; t && i < 6; i++) {
    t = t
      .replace(/^&\s*('\w+\s+)?/, '')
      .replace(/^(mut|dyn|impl)\s+/, '')
      .trim();
    const generic = /^([\w:]+?)(?:::)?\s*<([\s\S]*)>$/.exec(t);
    const base = (generic?.[1] ?? t).split('::').pop()!;
    if (generic && DEREF.has(base)) {
      t = generic[2]!.split(',')[0]!;
      continue;
    }
    return /^[A-Za-z_]\w*$/.test(base) ? base : undefined;
  }
  return undefined;
}

/** `impl<…> Trait<…> for Type {`: the trait and the type, as written. */
export const RUST_TRAIT_IMPL =
  /^\s*(?:unsafe\s+)?impl\s*(?:<(?:[^<>]|<[^<>]*>)*>)?\s*([\w:]+(?:<(?:[^<>]|<[^<>]*>)*>)?)\s+for\s+([^{]+?)\s*(?:where\b[^{]*)?\{/gm;

/**
 * The trait an `impl … for` block holding the definition at `line` (1-based) of `source` implements, read off the
 * nearest `impl` line above it: `impl<T, const N: usize> ExactSizeIterator for IntoIter<T, N> {` → ExactSizeIterator.
 */
export function rustImplTrait(source: string, line: number): string | undefined {
  const lines = source.split('\n');
  for (let i = line - 2; i >= 0; i--) {
    const text = lines[i]!;
    if (!/^\s*(?:unsafe\s+)?impl\b/.test(text)) continue;
    const header = text.replace(/^\s*(?:unsafe\s+)?impl\s*(?:<(?:[^<>]|<[^<>]*>)*>)?/, '');
    const trait = /^\s*([\w:]+(?:<(?:[^<>]|<[^<>]*>)*>)?)\s+for\s/.exec(header)?.[1];
    return trait ? rustSimpleType(trait) : undefined;
  }
  return undefined;
}

/** The project's Rust member types, read from method signatures and struct declarations as asked. */
export function rustMemberTypes(index: CodeIndex): RustMemberType {
  const known = new Map<string, string | undefined>();
  /** Per `Type.member`, the files defining it with the type each gives. */
  let methods: Map<string, { path: string; type: string }[]> | undefined;
  let structs: Map<string, { path: string; line: number; endLine: number }[]> | undefined;
  const linesOf = sourceLines(index.root);
  const pick = <T extends { path: string }>(list: T[] | undefined, file: string | undefined) =>
    list?.find((entry) => entry.path === file) ?? list?.[0];
  return (owner, member, file) => {
    const key = `${owner}.${member}`;
    const memo = `${key}\0${file ?? ''}`;
    if (known.has(memo)) return known.get(memo);
    if (!methods || !structs) {
      methods = new Map();
      structs = new Map();
      for (const [path, tags] of index.files) {
        if (tags.language !== 'rust') continue;
        for (const d of tags.definitions) {
          if (d.kind === 'class') {
            const list = structs.get(d.name) ?? [];
            list.push({ path, line: d.line, endLine: d.endLine ?? d.line });
            structs.set(d.name, list);
          }
          if (d.kind === 'method' || d.kind === 'function') {
            const returns = /->\s*([^{]+?)\s*(?:where\b|\{|$)/.exec(d.signature)?.[1];
            if (!returns) continue;
            const at = `${d.container ?? ''}.${d.name}`;
            const list = methods.get(at) ?? [];
            list.push({ path, type: returns.replace(/\bSelf\b/g, d.container ?? 'Self') });
            methods.set(at, list);
          }
        }
      }
    }
    let type = pick(methods.get(key), file)?.type;
    // Same-named structs (in one file too): the first, the file's own first, that has the field.
    const candidates = [...(structs.get(owner) ?? [])].sort(
      (a, b) => Number(b.path === file) - Number(a.path === file),
    );
    for (const struct of type === undefined ? candidates : []) {
      if (type !== undefined) break;
      const body = linesOf(struct.path)
        .slice(struct.line - 1, struct.endLine)
        .join('\n');
      // A tuple struct's field by its place: `struct OnceCell<T>(Imp<T>);`.
      if (/^\d+$/.test(member)) {
        const fields = /\((.*)\)\s*(?:where\b[^;]*)?;/s.exec(body)?.[1];
        type =
          fields === undefined
            ? undefined
            : topLevelParts(fields)[Number(member)]?.replace(/^pub(\([^)]*\))?\s+/, '');
      } else type = new RegExp(`(?:^|[{,\\s])${member}\\s*:\\s*([^,}\\n]+)`).exec(body)?.[1]?.trim();
    }
    known.set(memo, type);
    return type;
  };
}

/** Whether `type` is a type parameter where `node` is: one letter (`T`), or declared by an enclosing fn or impl. */
function isTypeParameter(node: AstNode, type: string): boolean {
  if (/^[A-Z]\d?$/.test(type)) return true;
  const declared = new RegExp(`[<,]\\s*${type}\\s*[:,>=]`);
  return node
    .ancestors()
    .some(
      (a) =>
        ['function_item', 'impl_item', 'trait_item'].includes(a.kind()) &&
        declared.test(a.field('type_parameters')?.text() ?? ''),
    );
}

/** The type an `impl` (or a trait) around `node` is for: `impl<A: Array> SmallVec<A>` → `SmallVec`. */
function enclosingImpl(node: AstNode): string | undefined {
  for (const a of node.ancestors()) {
    if (a.kind() === 'impl_item') return rustSimpleType(a.field('type')?.text());
    if (a.kind() === 'trait_item') return a.field('name')?.text();
  }
  return undefined;
}

/** The type text `name` is declared with where `from` uses it: a parameter, or the nearest `let` before it. */
function declaredType(
  from: AstNode,
  name: string,
  memberType: RustMemberType,
  depth: number,
): string | undefined {
  const at = from.range().start.index;
  for (const scope of from.ancestors()) {
    if (scope.kind() === 'block') {
      let found: AstNode | undefined;
      for (const statement of scope.children())
        if (
          statement.kind() === 'let_declaration' &&
          statement.range().end.index <= at &&
          statement.field('pattern')?.kind() === 'identifier' &&
          statement.field('pattern')?.text() === name
        )
          found = statement;
      if (found) {
        const type = found.field('type')?.text();
        if (type) return type;
        const value = found.field('value');
        return value ? typeText(value, memberType, depth + 1) : undefined;
      }
    }
    if (scope.kind() === 'function_item' || scope.kind() === 'closure_expression') {
      const params = scope.field('parameters');
      for (const param of params?.children() ?? [])
        if (
          param.kind() === 'parameter' &&
          param
            .field('pattern')
            ?.text()
            .replace(/^mut\s+/, '') === name
        )
          return param.field('type')?.text();
      if (scope.kind() === 'function_item') return undefined;
    }
  }
  return undefined;
}

/**
 * The type a `let` in a macro's tokens gives `name` before `node` (`let mut vec = $crate::SmallVec::new();` in a
 * `macro_rules!` body): its annotation, or the type its value is made by (`Type::new(…)`, `Type { … }`).
 */
function letInTokens(node: AstNode, name: string): string | undefined {
  const tokens = node.ancestors().findLast((a) => TOKENS.has(a.kind()) || a.kind() === 'macro_definition');
  if (!tokens) return undefined;
  const text = tokens.text().slice(0, node.range().start.index - tokens.range().start.index);
  const lets = [
    ...text.matchAll(
      new RegExp(`\\blet\\s+(?:mut\\s+)?${name}\\s*(?::\\s*([^=;]+?))?\\s*=\\s*([^;]+);`, 'g'),
    ),
  ];
  const last = lets.at(-1);
  if (!last) return undefined;
  if (last[1]) return last[1];
  return /([A-Z]\w*)\s*(?:::\s*<[^>]*>\s*)?(?:::\s*\w+\s*\(|\{)/.exec(last[2]!)?.[1];
}

/** The type of a Rust expression as written where it can be read, else undefined. */
function typeText(expr: AstNode, memberType: RustMemberType, depth = 0): string | undefined {
  if (depth > 6) return undefined;
  switch (expr.kind()) {
    case 'self':
      return enclosingImpl(expr);
    case 'identifier': {
      // `source: &Self` is the impl's type.
      const declared = declaredType(expr, expr.text(), memberType, depth);
      return declared?.replace(/\bSelf\b/g, () => enclosingImpl(expr) ?? 'Self');
    }
    case 'reference_expression':
    case 'unary_expression':
    case 'parenthesized_expression': {
      // `&x`, `(x)`, and `*x` (a method call derefs as far as it needs: `(**self).flush()`).
      if (expr.kind() === 'unary_expression' && !expr.text().startsWith('*')) return undefined;
      const inner = expr.field('value') ?? expr.namedChildren().at(-1);
      return inner ? typeText(inner, memberType, depth + 1) : undefined;
    }
    case 'struct_expression':
      return expr.field('name')?.text();
    case 'field_expression': {
      const owner = rustSimpleType(typeText(expr.field('value')!, memberType, depth + 1));
      const field = expr.field('field')?.text();
      return owner && field ? memberType(owner, field) : undefined;
    }
    case 'try_expression': {
      // `x?` of a Result<T, E> or an Option<T>: T.
      const inner = expr.namedChildren()[0];
      const text = inner ? typeText(inner, memberType, depth + 1) : undefined;
      return /^(?:Result|Option)\s*<([\s\S]*)>$/.exec(text?.trim() ?? '')?.[1]?.split(',')[0];
    }
    case 'call_expression': {
      const fn = expr.field('function');
      if (!fn) return undefined;
      if (fn.kind() === 'scoped_identifier') {
        const prefix = fn.field('path')?.text();
        const name = fn.field('name')?.text();
        // `mem::take(self)`, `mem::replace(&mut x, y)`: what the first argument points to.
        if (/(^|::)mem$/.test(prefix ?? '') && (name === 'take' || name === 'replace')) {
          const first = expr.field('arguments')?.namedChildren()[0];
          return first ? typeText(first, memberType, depth + 1) : undefined;
        }
        const owner = prefix === 'Self' ? enclosingImpl(expr) : rustSimpleType(prefix);
        if (!owner || !name || !/^[A-Z]/.test(owner)) return undefined;
        return memberType(owner, name) ?? (name === 'new' || name === 'default' ? owner : undefined);
      }
      if (fn.kind() === 'field_expression') {
        const owner = rustSimpleType(typeText(fn.field('value')!, memberType, depth + 1));
        const name = fn.field('field')?.text();
        if (!owner || !name) return undefined;
        // A view of the receiver itself (`self.as_ref()` of a Box<T>: the T it holds).
        return memberType(owner, name) ?? (SAME_TYPE.has(name) ? owner : undefined);
      }
      // A tuple struct made (`IntoIter(v)`), or a function's return.
      if (fn.kind() === 'identifier') return /^[A-Z]/.test(fn.text()) ? fn.text() : memberType('', fn.text());
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Whether a Rust method's name here can be the allowed types' method: its declaration in one of their `impl`s or
 * traits, a call on a receiver of one of them (`self`, a typed variable, a constructor, a field, a call of known
 * type), `Type::name` or `Self::name` of one of them. A receiver whose type cannot be read counts only when
 * `unknownFits` (no other type of the project, nor std, has the name); a bare call is a function's, not the method.
 */
export function rustReceiverFits(
  node: AstNode,
  allowed: ReadonlySet<string>,
  unknownFits: boolean,
  projectTypes: ReadonlySet<string>,
  memberType: RustMemberType,
  /** The file holds a definition the rename starts from. */
  definingFile = true,
): boolean {
  const parent = node.parent();
  const fits = (type: string | undefined) => {
    if (type === undefined) return unknownFits;
    if (allowed.has(type)) return true;
    if (projectTypes.has(type) || STD_TYPES.has(type) || /^[a-z]/.test(type)) return false;
    // A type parameter (`L: Log`): whose method it is cannot be read. Any other type is another crate's
    // (`UnsafeCell`), whose method it is.
    return isTypeParameter(node, type) && unknownFits;
  };
  if (!parent) return false;
  if (
    (parent.kind() === 'function_item' || parent.kind() === 'function_signature_item') &&
    sameNode(parent.field('name'), node)
  ) {
    const impl = node.ancestors().find((a) => a.kind() === 'impl_item' || a.kind() === 'trait_item');
    // A method of another crate's trait (`impl ExactSizeIterator for IntoIter { fn len }`) is that trait's name.
    const traitName = impl?.kind() === 'impl_item' ? rustSimpleType(impl.field('trait')?.text()) : undefined;
    if (traitName !== undefined) return allowed.has(traitName);
    // A function outside any `impl` or trait is a function of that name, not the method; an inherent method is
    // declared where the renamed one is (once_cell's five `OnceCell`s are as many types).
    const owner = impl ? enclosingImpl(node) : undefined;
    return owner !== undefined && allowed.has(owner) && (definingFile || impl?.kind() === 'trait_item');
  }
  if (parent.kind() === 'field_expression' && sameNode(parent.field('field'), node)) {
    const call = parent.parent();
    // A field read (`self.args`) is no call of the method.
    if (call?.kind() !== 'call_expression' || !sameNode(call.field('function'), parent)) return false;
    return fits(rustSimpleType(typeText(parent.field('value')!, memberType)));
  }
  if (parent.kind() === 'scoped_identifier' && sameNode(parent.field('name'), node)) {
    const prefix = parent.field('path')?.text();
    if (prefix === 'Self') return fits(enclosingImpl(node));
    const owner = rustSimpleType(prefix);
    return owner !== undefined && /^[A-Z]/.test(owner) && fits(owner);
  }
  // In a macro's arguments (`assert!(v.spilled())`) the call is tokens: `receiver . name` or `Type :: name`.
  if (TOKENS.has(parent.kind())) {
    const op = node.prev();
    const before = op?.prev();
    if (!op || !before) return false;
    if (op.text() === '.') {
      if (before.kind() === 'self') return fits(enclosingImpl(node));
      if (before.kind() !== 'identifier') return unknownFits;
      const declared = declaredType(node, before.text(), memberType, 0) ?? letInTokens(node, before.text());
      return fits(rustSimpleType(declared));
    }
    if (op.text() === '::') {
      if (before.text() === 'Self') return fits(enclosingImpl(node));
      return /^[A-Z]/.test(before.text()) && fits(before.text());
    }
    return false;
  }
  // A bare name is a function's or a variable's, never a method's.
  return false;
}

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
