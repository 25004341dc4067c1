// Java by name (no language service): the hierarchy of a method's classes and the types a receiver can be read to
// have (declarations, casts, the project's field and method types from java-types.ts). references.ts asks these to
// leave out another type's method of the same name.
import { type AstNode, sameNode } from './ast-grep.js';
import type { CodeIndex } from './code-index.js';
import { javaDeclaredType } from './java-scopes.js';
import { inheritedElementType, type JavaMemberType, javaHeritage, simpleType } from './java-types.js';

/** The classes `names` with those extending or implementing them, all the way down (read from their signatures). */
export function javaFamily(index: CodeIndex, names: readonly string[], method?: string): Set<string> {
  const family = new Set(names);
  const heritages: [string, string[]][] = [];
  for (const tags of index.files.values()) {
    if (tags.language !== 'java') continue;
    for (const d of tags.definitions) {
      if (d.kind !== 'class' && d.kind !== 'interface') continue;
      const { supertypes } = javaHeritage(d.signature, d.name);
      heritages.push([d.name, supertypes.map((t) => simpleType(t) ?? t)]);
    }
  }
  // Up to the supertypes declaring the method too: an override and what it overrides are one method (jsoup's
  // Element.normalName and Node.normalName).
  if (method !== undefined) {
    const declares = new Set<string>();
    for (const tags of index.files.values())
      if (tags.language === 'java')
        for (const d of tags.definitions)
          if (d.name === method && d.kind === 'method' && d.container) declares.add(d.container);
    const parentsOf = new Map(heritages);
    for (let grew = true; grew; ) {
      grew = false;
      for (const name of [...family])
        for (const parent of parentsOf.get(name) ?? [])
          if (declares.has(parent) && !family.has(parent)) {
            family.add(parent);
            grew = true;
          }
    }
  }
  // Down the hierarchy as far as it goes (FutureTypeAdapter extends SerializationDelegatingTypeAdapter extends
  // TypeAdapter).
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, parents] of heritages)
      if (!family.has(name) && parents.some((p) => family.has(p))) {
        family.add(name);
        grew = true;
      }
  }
  return family;
}

/** The simple type of a Java expression where it can be read: a variable, a class, a cast, `new T(…)`, a field or a call of a known type. */
export function javaTypeOf(expr: AstNode, memberType: JavaMemberType, depth = 0): string | undefined {
  return simpleType(javaTypeText(expr, memberType, depth));
}

/** javaTypeOf's type as written, type arguments and all where they are known (`ArrayList<Element>`). */
function javaTypeText(expr: AstNode, memberType: JavaMemberType, depth: number): string | undefined {
  if (depth > 6) return undefined;
  switch (expr.kind()) {
    case 'this':
      return javaOwners(expr)[0];
    case 'identifier': {
      const declared = javaDeclaredType(expr, expr.text(), memberType);
      if (declared !== undefined) return declared ?? undefined;
      // Not declared in the method or its class: a field it inherits (TreeBuilder's `stack` in HtmlTreeBuilder).
      if (/^[a-z_$]/.test(expr.text()))
        for (const owner of javaOwners(expr)) {
          const type = owner ? memberType(owner, expr.text()) : undefined;
          if (type) return type;
        }
      return /^[A-Z]/.test(expr.text()) ? expr.text() : undefined;
    }
    case 'object_creation_expression':
    case 'cast_expression':
      return expr.field('type')?.text();
    case 'parenthesized_expression': {
      const inner = expr.namedChildren()[0];
      return inner ? javaTypeText(inner, memberType, depth + 1) : undefined;
    }
    case 'field_access': {
      const owner = expr.field('object');
      const type = owner ? simpleType(javaTypeText(owner, memberType, depth + 1)) : undefined;
      const field = expr.field('field')?.text();
      return type && field ? memberType(type, field) : undefined;
    }
    case 'method_invocation': {
      const owner = expr.field('object');
      const method = expr.field('name')?.text();
      if (!method) return undefined;
      if (owner) {
        const text = javaTypeText(owner, memberType, depth + 1);
        if (!text) return undefined;
        // Its own method, else an element accessor of the JDK container it is or extends (`stack.get(i)` of an
        // `ArrayList<Element>`, jsoup's `Elements extends Nodes<Element>`).
        const type = simpleType(text);
        return (
          (type ? memberType(type, method) : undefined) ?? inheritedElementType(memberType, text, method)
        );
      }
      // A call on nothing: a method of an enclosing class, declared in this file (an anonymous class's too) or
      // known to the index.
      for (const body of expr.ancestors()) {
        if (body.kind() !== 'class_body') continue;
        const declared = body
          .children()
          .find((c) => c.kind() === 'method_declaration' && c.field('name')?.text() === method);
        const type = declared?.field('type')?.text();
        if (type) return type;
      }
      for (const enclosing of javaOwners(expr)) {
        const type = enclosing
          ? (memberType(enclosing, method) ?? inheritedElementType(memberType, enclosing, method))
          : undefined;
        if (type) return type;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Whether a Java method's name here can be the allowed classes' method: a declaration inside one of them (or an
 * unknown class), a call or a reference (`Type::name`) on nothing or `this` inside one, or on a receiver whose type
 * is one of them; a receiver of another type is not it (`JsonReader in` for JsonWriter's beginObject,
 * `Streams.write`, `Element::text` for TextNode's). One whose type cannot be read is it when `unknownFits` (the name
 * is no other class's, nor the JDK's), else undecided: undefined.
 */
export function javaReceiverFits(
  node: AstNode,
  allowed: ReadonlySet<string>,
  unknownFits: boolean,
  memberType: JavaMemberType,
  methodsOnly = false,
): boolean | undefined {
  const parent = node.parent();
  const unread = unknownFits || undefined;
  if (parent?.kind() === 'method_declaration' && sameNode(parent.field('name'), node)) {
    const ownerName = javaOwner(node);
    return ownerName === undefined || allowed.has(ownerName);
  }
  // A method is declared, called or referenced (`X::name`), never read as a field (`start.tagName.value()`),
  // declared as a variable (`String tagName`) or written as a package (`org.jsoup.select.Elements`).
  const referenced = parent?.kind() === 'method_reference' && sameNode(parent.namedChildren().at(-1), node);
  const called = parent?.kind() === 'method_invocation' && sameNode(parent.field('name'), node);
  if (methodsOnly && !called && !referenced) return false;
  if (!called && !referenced) return true;
  // `X::name` is judged by X, as a call by its receiver: `Element::text` is Element's text, `this::text` ours.
  const object = referenced ? parent!.namedChildren()[0] : parent!.field('object');
  // A call on nothing, `this` or `super` is the enclosing classes' (an inner class may call its outer's).
  if (!object || object.kind() === 'this' || object.kind() === 'super') {
    const owners = javaOwners(node);
    return owners.length === 0 || owners.some((o) => o === undefined || allowed.has(o));
  }
  // A static field of one of the classes (`JsonElementTypeAdapter.ADAPTER.write(…)`) holds one of them.
  if (object.kind() === 'field_access') {
    const owner = object.field('object');
    if (owner?.kind() === 'identifier' && allowed.has(owner.text())) return true;
  }
  // A type written before `::` (`Element::text`, `org.jsoup.nodes.Element::text`, `List<T>::size`).
  const written =
    referenced &&
    (/type/.test(object.kind()) ||
      (object.kind() !== 'identifier' && /^([a-z_$][\w$]*\.)+[A-Z][\w$]*$/.test(object.text())))
      ? simpleType(object.text())
      : undefined;
  const type = written ?? javaTypeOf(object, memberType);
  if (type === undefined || !/^[A-Z]/.test(type)) return unread;
  return allowed.has(type);
}

/** Methods of the JDK's Object, String and collections: on a receiver of unknown type, most likely theirs. */
export const JDK_METHODS = new Set(
  (
    'equals hashCode toString getClass isEmpty size length get set add addAll remove removeAll clear contains ' +
    'containsKey containsValue put putAll keySet values entrySet iterator stream forEach charAt substring trim ' +
    'startsWith endsWith indexOf lastIndexOf split replace toLowerCase toUpperCase format append insert close ' +
    'flush write read next hasNext compareTo name ordinal valueOf getName getValue getKey apply accept test'
  ).split(' '),
);

const JAVA_TYPES = ['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration'];

/** The class a Java method is declared in: its class or interface, or an anonymous class's type. */
function javaOwner(node: AstNode): string | undefined {
  return javaOwners(node)[0];
}

/** The classes around a Java node, innermost first: declared ones by name, anonymous ones by their type. */
function javaOwners(node: AstNode): (string | undefined)[] {
  const owners: (string | undefined)[] = [];
  for (const a of node.ancestors()) {
    if (JAVA_TYPES.includes(a.kind())) owners.push(a.field('name')?.text());
    else if (a.kind() === 'object_creation_expression' && a.children().some((c) => c.kind() === 'class_body'))
      owners.push(
        a
          .field('type')
          ?.text()
          .replace(/<[\s\S]*$/, '')
          .split('.')
          .pop(),
      );
  }
  return owners;
}
