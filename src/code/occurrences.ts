// One file's occurrences of a name, from its syntax tree: identifiers in code only (never in strings or comments),
// without the uses of a local binding (parameter, local variable) of the same name that shadows it in a function.
import type { NapiConfig } from '@ast-grep/napi';
import { type AstNode, findKinds, parseSource, sameNode } from './ast-grep.js';
import { goForeignMember, goQualifier } from './go-references.js';
import { isJavaPackagePart, javaImportsOther, javaQualifier } from './java-names.js';
import { javaReceiverFits } from './java-references.js';
import type { JavaMemberType } from './java-types.js';
import type { LanguageSpec } from './languages.js';
import {
  allEntriesNamed,
  attributeObject,
  isKeywordArgumentName,
  isPythonModulePath,
  mayNameMember,
} from './python-names.js';
import { isForeignRustPath, isRustModulePath, rustBindingScope, rustQualifier } from './rust-names.js';

export interface Occurrence {
  /** 1-based line and column. */
  line: number;
  column: number;
  /** UTF-16 offsets in the source. */
  start: number;
  end: number;
  /** An object literal's shorthand `{ name }`: renaming it must keep the key. */
  shorthand: boolean;
  /** The name as declared by a definition of the file (not a use). */
  definition: boolean;
}

/**
 * Go, a package-level name: whether this file is in its package (undefined: unknown), and the names its imports
 * bind to packages that may hold it (`gin` in `gin.New`).
 */
export interface GoPackage {
  same: boolean | undefined;
  aliases: ReadonlySet<string>;
}

/**
 * The names a file binds to modules (`import requests`, `import * as errors`, `from . import sessions`): `all` of
 * them, and those of the modules that carry the searched name (its own file, a barrel or package re-exporting it),
 * through which `requests.Session` is a use of it.
 */
export interface ModuleNames {
  all: ReadonlySet<string>;
  carriers: ReadonlySet<string>;
  /** Python: modules a `from … import` takes, as `<module> <name>` (`. auth` for `from . import auth as a`). */
  imported: ReadonlySet<string>;
}

export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether `node` is declared here by a local binding rule of the language (see LanguageSpec.localBindings). */
export function isBinding(lang: LanguageSpec, node: AstNode): boolean {
  const parent = node.parent();
  if (!parent) return false;
  const kind = parent.kind();
  for (const rule of lang.localBindings) {
    const any = rule.startsWith('*');
    const [body, outer] = (any ? rule.slice(1) : rule).split('<') as [string, string | undefined];
    const [ruleKind, field] = body.split('.') as [string, string | undefined];
    if (ruleKind !== kind) continue;
    if (outer !== undefined) {
      const grand = parent.parent();
      if (grand?.kind() !== outer || !sameNode(grand.namedChildren()[0], parent)) continue;
    }
    if (any) return true;
    if (field !== undefined) return sameNode(parent.field(field), node);
    return sameNode(
      parent.namedChildren().find((c) => c.kind() === node.kind()),
      node,
    );
  }
  return false;
}

/** The source range a local binding covers: its nearest function-like ancestor (Dart: with the body after it). */
export function bindingScope(lang: LanguageSpec, node: AstNode): [number, number] | undefined {
  const scope = node.ancestors().find((a) => lang.scopes.includes(a.kind()));
  if (!scope) return undefined;
  const range = scope.range();
  let end = range.end.index;
  if (lang.bodyFollows?.includes(scope.kind())) {
    const holder = scope.parent()?.kind() === 'method_signature' ? scope.parent()! : scope;
    const body = holder.next();
    if (body?.kind() === 'function_body') end = body.range().end.index;
  }
  return [range.start.index, end];
}

/** A node as an occurrence of its name; an object literal's shorthand (`{ name }`, Rust's `S { name }`) marked. */
export function occurrenceOf(node: AstNode, definition: boolean): Occurrence {
  const { start, end } = node.range();
  return {
    line: start.line + 1,
    column: start.column + 1,
    start: start.index,
    end: end.index,
    shorthand:
      node.kind() === 'shorthand_property_identifier' ||
      node.parent()?.kind() === 'shorthand_field_initializer',
    definition,
  };
}

/** The object's text of a member access (`requests` in `requests.Session`), when the language names its field. */
function objectText(lang: LanguageSpec, node: AstNode): string | undefined {
  if (lang.id === 'python') return attributeObject(node);
  const parent = node.parent();
  if (parent?.kind() !== 'member_expression' || !sameNode(parent.field('property'), node)) return undefined;
  return parent.field('object')?.text();
}

export function isMemberAccess(lang: LanguageSpec, node: AstNode): boolean {
  const parent = node.parent();
  if (!parent) return false;
  return (lang.memberAccess ?? []).some(
    (m) => m.parent === parent.kind() && (m.field === '' || sameNode(parent.field(m.field), node)),
  );
}

/**
 * The occurrences of `name` in one file. `members`: the name is a method or field, so `obj.name` counts too;
 * otherwise member accesses are other things with the same name. `definitionLines`: lines where the file defines it.
 */
export function findOccurrences(
  lang: LanguageSpec,
  source: string,
  name: string,
  members: boolean,
  definitionLines: ReadonlySet<number> = new Set(),
  /** Go, a package-level name: whether this file is in its package, and the names binding its import path here. */
  goPackage?: GoPackage,
  /** A Rust item without `pub`: `other::name` is another module's (only `self::`, `super::`, `crate::` may be it). */
  rustPrivate = false,
  /** The file defines its own item of that name: only a path to another crate's (`grep_cli::name`) is the name. */
  ownItem = false,
  /** A Java method's classes (and their subclasses): a call on a variable declared of another type is not it. */
  javaAllowed?: ReadonlySet<string>,
  /** A Java call on a receiver of unwritten type counts: the name is no other class's and no JDK type's. */
  javaUnknownFits = true,
  /** The project's Java member types, for receivers that are fields or calls. */
  javaMemberType: JavaMemberType = () => undefined,
  /** Every definition is a Java method: a field access of the name is something else. */
  javaMethodsOnly = false,
  /** The Java package the name is defined in (`org.jsoup.nodes`), when known. */
  javaPackageOfDefinition?: string,
  /** A Rust method's: whether a use is a call of it (rustReceiverFits), not of another type's of that name. */
  rustMethod?: (node: AstNode) => boolean | undefined,
  /**
   * A Rust item other modules define their own of: whether a path through module `m` (`imp::OnceCell`) may lead
   * to this one.
   */
  rustThrough?: (module: string) => boolean,
  /** Go: the first result types the project's functions and methods of a name declare. */
  goResults: (name: string) => readonly string[] = () => [],
  /** Go: the names this file's imports of other modules' packages bind (`http`, `url`): never the project's. */
  goForeignImports?: ReadonlySet<string>,
  /**
   * A Go method's: whether a use is it (goReceiverFits), not another type's method or a package's name;
   * `fieldNamed`: this file declares a struct field of the name, so a selector of unread type may be that field.
   */
  goMethod?: (node: AstNode, fieldNamed: boolean) => boolean | undefined,
  /** TS/JS and Python: the names this file binds to modules (see ModuleNames). */
  modules?: ModuleNames,
): { occurrences: Occurrence[]; shadowed: number; undecided: Occurrence[] } {
  const root = parseSource(lang, source);
  const throughModules = !members && (modules?.carriers.size ?? 0) > 0;
  const kinds =
    members || throughModules ? [...lang.identifiers, ...lang.memberIdentifiers] : lang.identifiers;
  // Go writes another package's names as selectors too (`gin.New`): of a selector's fields, only those of an
  // imported package are the name itself when it is no method or field; a bare name outside the name's own
  // package is that package's own.
  const packages = lang.id === 'go' && !members ? goPackage?.aliases : undefined;
  // Java: a file importing another package's type of that name (`import org.w3c.dom.Element`) means that one
  // where the name stands alone; a qualified name is the package's it names (`org.jsoup.nodes.Element`).
  const otherImported =
    lang.id === 'java' && !members && javaImportsOther(source, name, javaPackageOfDefinition);
  const goImported = lang.id === 'go' && members ? goForeignImports : undefined;
  const goFieldNamed =
    goMethod !== undefined &&
    root.findAll({
      rule: {
        kind: 'field_identifier',
        regex: `^${escapeRegex(name)}$`,
        inside: { kind: 'field_declaration' },
      },
    } as NapiConfig).length > 0;
  /**
   * A member's use here: true, false, or undefined when it cannot be told (its receiver's type unread, and other
   * types have a member of the name), which the result lists apart.
   */
  const memberVerdict = (node: AstNode): boolean | undefined => {
    if (goImported && goForeignMember(node, goImported, goResults)) return false;
    let verdict: boolean | undefined = true;
    for (const judge of [
      javaAllowed &&
        (() => javaReceiverFits(node, javaAllowed, javaUnknownFits, javaMemberType, javaMethodsOnly)),
      rustMethod && (() => rustMethod(node)),
      goMethod && (() => goMethod(node, goFieldNamed)),
    ]) {
      if (!judge) continue;
      const fits = judge();
      if (fits === false) return false;
      if (fits === undefined) verdict = undefined;
    }
    return verdict;
  };
  const undecidedNodes: AstNode[] = [];
  // `errors.HTTPError`, `requests.Session`: a module carrying the name, reached through its binding.
  const carried = (node: AstNode) => modules?.carriers.has(objectText(lang, node) ?? '\0') === true;
  const python = lang.id === 'python';
  // A file binding the name to a module (`from . import auth`) means that module by its bare name.
  const moduleNamed = python && !members && modules?.all.has(name) === true;
  const nodes = findKinds(lang, root, kinds, `^${escapeRegex(name)}$`)
    .filter((node) => !(lang.id === 'java' && isJavaPackagePart(node)))
    .filter(
      (node) => !(python && (isPythonModulePath(node, modules?.imported) || isKeywordArgumentName(node))),
    )
    .filter((node) => {
      if (!python || !members) return !(moduleNamed && !carried(node));
      // A member is reached through an object, never through a module (`requests.auth` is the module auth).
      const object = attributeObject(node);
      return object === undefined ? mayNameMember(node) : !modules?.all.has(object);
    })
    .filter((node) => {
      if (lang.id !== 'java' || members) return true;
      const qualifier = javaQualifier(node);
      if (qualifier === undefined) return !otherImported;
      return (
        javaPackageOfDefinition === undefined ||
        !/^[a-z]/.test(qualifier) ||
        qualifier === javaPackageOfDefinition
      );
    })
    .filter((node) => {
      if (!members) return true;
      const verdict = memberVerdict(node);
      if (verdict === undefined) undecidedNodes.push(node);
      return verdict === true;
    })
    .filter(
      (node) =>
        members ||
        ((lang.memberIdentifiers.includes(node.kind()) || isMemberAccess(lang, node)
          ? carried(node)
          : true) &&
          !(lang.id === 'rust' && (isRustModulePath(node) || (rustPrivate && isForeignRustPath(node)))) &&
          !(rustThrough && !rustThrough(rustQualifier(node) ?? 'self')) &&
          (!ownItem || isForeignRustPath(node)) &&
          (!packages || goQualifier(node, packages) !== 'other') &&
          (goPackage?.same !== false || goQualifier(node, packages!) === 'package')),
    );
  const shadows: [number, number][] = [];
  /** The local bindings themselves (Rust's, whose scope may not hold them: `if let Some(x) = …`). */
  const bindings = new Set<number>();
  for (const node of nodes) {
    if (lang.id === 'rust') {
      const scope = rustBindingScope(node);
      if (scope) {
        shadows.push(scope);
        bindings.add(node.range().start.index);
      }
      continue;
    }
    if (!isBinding(lang, node)) continue;
    const scope = bindingScope(lang, node);
    // From the binding on: a function's own name, before a local of that name in its body, is not shadowed.
    if (scope) shadows.push([Math.max(scope[0], node.range().start.index), scope[1]]);
  }
  const occurrences: Occurrence[] = [];
  let shadowed = 0;
  for (const node of nodes) {
    const { start } = node.range();
    if (bindings.has(start.index)) {
      shadowed += 1;
      continue;
    }
    // A local shadows bare names only: `in.peek()` is no use of a local `peek`.
    if (
      shadows.some(([from, to]) => from <= start.index && start.index < to) &&
      !(members && (isMemberAccess(lang, node) || lang.memberIdentifiers.includes(node.kind()))) &&
      !carried(node)
    ) {
      shadowed += 1;
      continue;
    }
    occurrences.push(occurrenceOf(node, definitionLines.has(start.line + 1) && declaresName(lang, node)));
  }
  // A Python module's `__all__` names what it exports as strings: `from m import *` gives only those.
  if (python && !members)
    for (const entry of allEntriesNamed(root, name))
      occurrences.push({ ...entry, shorthand: false, definition: false });
  // Go's examples are named for what they show (`ExampleRoute_Methods`): go vet, which go test runs, refuses one
  // naming a type, function or method that does not exist, so the name in theirs goes too.
  if (lang.id === 'go' && goPackage?.same !== false && /^func Example/m.test(source))
    for (const fn of root.findAll({ rule: { kind: 'function_declaration' } } as NapiConfig)) {
      const id = fn.field('name');
      const text = id?.text() ?? '';
      const whole =
        !members && text.startsWith(`Example${name}`) && /^(_|$)/.test(text.slice(7 + name.length));
      const method =
        members && new RegExp(`^Example[A-Z]\\w*?_${escapeRegex(name)}(_[a-z]\\w*)?$`).test(text);
      if (!id || (!whole && !method)) continue;
      const at = whole ? 7 : text.indexOf(`_${name}`, 7) + 1;
      const { start } = id.range();
      occurrences.push({
        line: start.line + 1,
        column: start.column + 1 + at,
        start: start.index + at,
        end: start.index + at + name.length,
        shorthand: false,
        definition: false,
      });
    }
  // A definition no declaration rule reads its name off (CommonJS's `exports.name = function`): the line's first.
  for (const line of definitionLines) {
    const onLine = occurrences.filter((o) => o.line === line);
    if (onLine.length > 0 && !onLine.some((o) => o.definition)) onLine[0]!.definition = true;
  }
  const undecided = undecidedNodes.map((node) => occurrenceOf(node, false));
  return { occurrences, shadowed, undecided };
}

/**
 * Whether `node` is the name a definition rule of the language reads off a declaration (`def name`, `name = 1`,
 * `func (r T) name`): the definition itself, not a use on its line (`def countdown(n): return countdown(n - 1)`).
 */
function declaresName(lang: LanguageSpec, node: AstNode): boolean {
  const at = node.range().start.index;
  let holder = node.parent();
  for (let depth = 0; holder && depth < 2; depth += 1, holder = holder.parent()) {
    const kind = holder.kind();
    for (const rule of lang.definitions) {
      if (rule.containerOnly || (rule.each ?? rule.kind) !== kind) continue;
      const named =
        holder.field(rule.nameField ?? 'name') ?? holder.children().find((c) => /identifier/.test(c.kind()));
      if (named?.range().start.index === at) return true;
    }
  }
  return false;
}
