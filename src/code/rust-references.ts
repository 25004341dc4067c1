// Rust by name (no rust-analyzer): the type a method call's receiver can be read to have (`self` in an `impl`, a
// typed parameter or `let`, a constructor, a field or a method of a known type), so references.ts leaves out
// another type's method of the same name (log's RecordBuilder::args beside Record::args, `str::is_empty`).
import { type AstNode, sameNode } from './ast-grep.js';
import { MAX_DEPTH, rustDeclaredType } from './rust-bindings.js';
import { type RustMemberType, rustSimpleType } from './rust-types.js';

/** The type `name` is declared with where `from` uses it (rust-bindings.ts), read with typeText. */
const declaredType = (from: AstNode, name: string, memberType: RustMemberType, depth: number) =>
  rustDeclaredType(from, name, (expr, at) => typeText(expr, memberType, at), depth);

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

/**
 * The traits a type parameter is bound by where `node` is: `<T: ByteOrder + Copy>` and `where T: ByteOrder` of the
 * enclosing fns, impls and traits (`io::Read` as `Read`).
 */
function typeParameterBounds(node: AstNode, type: string): string[] {
  const bounds: string[] = [];
  for (const a of node.ancestors()) {
    if (!['function_item', 'impl_item', 'trait_item'].includes(a.kind())) continue;
    const declared = (a.field('type_parameters')?.namedChildren() ?? []).filter(
      (c) => c.kind() === 'constrained_type_parameter',
    );
    const where = a.children().find((c) => c.kind() === 'where_clause');
    const predicates = (where?.namedChildren() ?? []).filter((c) => c.kind() === 'where_predicate');
    for (const holder of [...declared, ...predicates]) {
      if (holder.namedChildren()[0]?.text() !== type) continue;
      const traits = holder.children().find((c) => c.kind() === 'trait_bounds');
      for (const bound of traits?.namedChildren() ?? []) {
        const trait = rustSimpleType(bound.text());
        if (trait) bounds.push(trait);
      }
    }
  }
  return bounds;
}

/** The type an `impl` (or a trait) around `node` is for: `impl<A: Array> SmallVec<A>` → `SmallVec`. */
function enclosingImpl(node: AstNode): string | undefined {
  for (const a of node.ancestors()) {
    if (a.kind() === 'impl_item') return rustSimpleType(a.field('type')?.text());
    if (a.kind() === 'trait_item') return a.field('name')?.text();
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
  if (depth > MAX_DEPTH) return undefined;
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
    case 'scoped_identifier': {
      // An enum's variant (`Level::Error`): the enum. An associated constant (`Version::MAX`) may be of any type.
      const owner = expr.field('path')?.text();
      const name = expr.field('name')?.text() ?? '';
      const type = owner === 'Self' ? enclosingImpl(expr) : rustSimpleType(owner);
      return type && /^[A-Z]/.test(type) && /^[A-Z][a-z]/.test(name) ? type : undefined;
    }
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
        const name = fn.field('field')?.text();
        // std's ToString, whatever the receiver (`"chashu".to_string()`).
        if (name === 'to_string') return 'String';
        const owner = rustSimpleType(typeText(fn.field('value')!, memberType, depth + 1));
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
 * type), `Type::name` or `Self::name` of one of them. A receiver whose type cannot be read counts when
 * `unknownFits` (no other type of the project, nor std, has the name), else is undecided (undefined); a bare call
 * is a function's, not the method.
 */
export function rustReceiverFits(
  node: AstNode,
  allowed: ReadonlySet<string>,
  unknownFits: boolean,
  projectTypes: ReadonlySet<string>,
  memberType: RustMemberType,
  /** The file holds a definition the rename starts from. */
  definingFile = true,
): boolean | undefined {
  const parent = node.parent();
  const unread = unknownFits || undefined;
  const fits = (type: string | undefined) => {
    if (type === undefined) return unread;
    if (allowed.has(type)) return true;
    if (projectTypes.has(type) || STD_TYPES.has(type) || /^[a-z]/.test(type)) return false;
    // A type parameter bound by the method's trait (byteorder's `T::read_u16` with `T: ByteOrder`) is it;
    // by others only (`L: Log`), whose method it is cannot be read. Any other type is another crate's
    // (`UnsafeCell`), whose method it is.
    if (!isTypeParameter(node, type)) return false;
    return typeParameterBounds(node, type).some((trait) => allowed.has(trait)) || unread;
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
      if (before.kind() !== 'identifier') return unread;
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
