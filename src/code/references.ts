// References to a name, from the syntax tree: identifiers in code only (never in strings or comments), without
// the uses of a local binding (parameter, local variable) of the same name that shadows it in a function.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { NapiConfig } from '@ast-grep/napi';
import { type AstNode, findKinds, parseSource, sameNode } from './ast-grep.js';
import type { CodeIndex } from './code-index.js';
import {
  goForeignImportNames,
  goForeignMember,
  goReceiverFits,
  goReceiverType,
  interfaceBodies,
  isGoInterface,
} from './go-references.js';
import { localNames } from './imports.js';
import {
  isJavaPackagePart,
  type JavaMemberType,
  JDK_METHODS,
  javaFamily,
  javaImportsOther,
  javaMemberTypes,
  javaQualifier,
  javaReceiverFits,
} from './java-references.js';
import { type LanguageSpec, languageOf, type SymbolKind } from './languages.js';
import { ImportResolver } from './module-graph.js';
import {
  isForeignRustPath,
  isRustModulePath,
  RUST_STD_METHODS,
  RUST_TRAIT_IMPL,
  rustBindingScope,
  rustImplTrait,
  rustMemberTypes,
  rustQualifier,
  rustReceiverFits,
  rustSimpleType,
} from './rust-references.js';
import { type Definition, type FileTags, type Import, referenceCount } from './tags.js';

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
interface GoPackage {
  same: boolean | undefined;
  aliases: ReadonlySet<string>;
}

export interface FileReferences {
  path: string;
  source: string;
  occurrences: Occurrence[];
  /** Occurrences left out because a local binding shadows the name there. */
  shadowed: number;
}

const MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set(['method', 'field']);
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether `node` is declared here by a local binding rule of the language (see LanguageSpec.localBindings). */
function isBinding(lang: LanguageSpec, node: AstNode): boolean {
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
function bindingScope(lang: LanguageSpec, node: AstNode): [number, number] | undefined {
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

function isMemberAccess(lang: LanguageSpec, node: AstNode): boolean {
  const parent = node.parent();
  if (!parent) return false;
  return (lang.memberAccess ?? []).some(
    (m) => m.parent === parent.kind() && (m.field === '' || sameNode(parent.field(m.field), node)),
  );
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
function goQualifier(node: AstNode, packages: ReadonlySet<string>): 'package' | 'other' | 'none' {
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
  rustMethod?: (node: AstNode) => boolean,
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
  goMethod?: (node: AstNode, fieldNamed: boolean) => boolean,
): { occurrences: Occurrence[]; shadowed: number } {
  const root = parseSource(lang, source);
  const kinds = members ? [...lang.identifiers, ...lang.memberIdentifiers] : lang.identifiers;
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
  const nodes = findKinds(lang, root, kinds, `^${escapeRegex(name)}$`)
    .filter((node) => !(lang.id === 'java' && isJavaPackagePart(node)))
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
    .filter((node) =>
      members
        ? (!javaAllowed ||
            javaReceiverFits(node, javaAllowed, javaUnknownFits, javaMemberType!, javaMethodsOnly)) &&
          (!rustMethod || rustMethod(node)) &&
          !(goImported && goForeignMember(node, goImported, goResults)) &&
          (!goMethod || goMethod(node, goFieldNamed))
        : !isMemberAccess(lang, node) &&
          !(lang.id === 'rust' && (isRustModulePath(node) || (rustPrivate && isForeignRustPath(node)))) &&
          !(rustThrough && !rustThrough(rustQualifier(node) ?? 'self')) &&
          (!ownItem || isForeignRustPath(node)) &&
          (!packages || goQualifier(node, packages) !== 'other') &&
          (goPackage?.same !== false || goQualifier(node, packages!) === 'package'),
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
    const { start, end } = node.range();
    if (bindings.has(start.index)) {
      shadowed += 1;
      continue;
    }
    // A local shadows bare names only: `in.peek()` is no use of a local `peek`.
    if (
      shadows.some(([from, to]) => from <= start.index && start.index < to) &&
      !(members && (isMemberAccess(lang, node) || lang.memberIdentifiers.includes(node.kind())))
    ) {
      shadowed += 1;
      continue;
    }
    occurrences.push({
      line: start.line + 1,
      column: start.column + 1,
      start: start.index,
      end: end.index,
      shorthand: node.kind() === 'shorthand_property_identifier',
      definition: definitionLines.has(start.line + 1),
    });
  }
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
  return { occurrences, shadowed };
}

/** `Class.member` → the class and its member (the last two parts of a longer path); a plain name → itself. */
export function qualifiedName(name: string): { owner?: string; member: string } {
  const parts = name.split('.');
  if (parts.length < 2 || parts.some((p) => p === '')) return { member: name };
  return { owner: parts.at(-2)!, member: parts.at(-1)! };
}

/** The class, struct or type a definition is a member of: its container, or the receiver's type of a Go method. */
export function ownerOf(def: Definition): string | undefined {
  return def.container ?? (def.kind === 'method' ? goReceiverType(def.signature) : undefined);
}

/**
 * The definitions named `name` (in `inFile` when given); `Class.member` names the members of that class (struct,
 * impl, a Go method's receiver type) only. At `line`: see below.
 */
export function definitionsOf(index: CodeIndex, name: string, inFile?: string, line?: number) {
  const { owner, member } = qualifiedName(name);
  const found = [];
  for (const [file, tags] of index.files) {
    if (inFile !== undefined && file !== inFile) continue;
    for (const def of tags.definitions)
      if (def.name === member && (owner === undefined || ownerOf(def) === owner))
        found.push({ path: file, def });
  }
  // At a line: the definition there, and those of its type of that name (a Java method's overloads); none there,
  // all of them.
  const at =
    line === undefined
      ? undefined
      : found.find((d) => d.def.line <= line && line <= (d.def.endLine ?? d.def.line));
  // Go names a method's type only in its receiver (`func (c *Context) JSON`).
  return at
    ? found.filter(
        (d) =>
          d.def.container === at.def.container &&
          goReceiverType(d.def.signature) === goReceiverType(at.def.signature),
      )
    : found;
}

/**
 * Whether the file names `name` where its tags count no use: defining it, importing or re-exporting it (a Rust
 * `pub use crate::sink::{Sink, SinkMatch}` in lib.rs, a barrel's `export { a } from`), or exporting it by a list.
 */
function namesInSyntax(tags: FileTags, name: string): boolean {
  return (
    tags.definitions.some((d) => d.name === name) ||
    tags.imports.some(
      (imp) =>
        imp.bindings.some((b) => b.name === name || b.alias === name) ||
        // A Java import through a class (`import static org.jsoup.nodes.Document.OutputSettings.Syntax`).
        (tags.language === 'java' && imp.module.split('.').includes(name)),
    ) ||
    (tags.exports ?? []).some((e) => e.name === name || e.alias === name)
  );
}

/**
 * Every reference to `name` across the repository. Given the file that defines it (`definedIn`), files in
 * languages whose imports resolve (TS/JS, Python, Dart) count only when they are that file or import it.
 */
export async function findProjectReferences(
  index: CodeIndex,
  name: string,
  definedIn?: string,
  signal?: AbortSignal,
  line?: number,
): Promise<FileReferences[]> {
  const defs = definitionsOf(index, name, definedIn, line);
  // Files read before the search proper (the definitions' files, a trait's impls, interfaces) are read once: the
  // search takes each text from here, and lets it go.
  const texts = new Map<string, Promise<string | undefined>>();
  const textOf = (file: string) => {
    let text = texts.get(file);
    if (!text) {
      text = fs.readFile(path.join(index.root, file), 'utf8').catch(() => undefined);
      texts.set(file, text);
    }
    return text;
  };
  const members = defs.length > 0 && defs.every((d) => MEMBER_KINDS.has(d.def.kind));
  const resolver = new ImportResolver(index);
  const results: FileReferences[] = [];
  // A Go package-level name defined in one package: its import path, so other packages' files count only where
  // they name it through an import of that path.
  const dirs = [...new Set(defs.map((d) => path.posix.dirname(d.path)))];
  const goModule = index.project?.goModule;
  const goDir =
    !members && goModule && dirs.length === 1 && defs.every((d) => d.path.endsWith('.go'))
      ? dirs[0]!
      : undefined;
  const goPath = goDir === undefined ? undefined : goDir === '.' ? goModule : `${goModule}/${goDir}`;
  // A name its language keeps private is used only where it is defined: a Rust item without `pub` in its own
  // module and the modules below it (lib.rs's in the whole crate, `flags/hiargs.rs`'s in `flags/hiargs/`), an
  // unexported Go name in its own package.
  const rustBelow =
    definedIn === undefined
      ? undefined
      : /(^|\/)(lib|main|mod)\.rs$/.test(definedIn)
        ? path.posix.dirname(definedIn)
        : definedIn.replace(/\.rs$/, '');
  const privateTo = (file: string, language: string): boolean | undefined => {
    if (definedIn === undefined || defs.length === 0 || defs.some((d) => d.def.exported)) return undefined;
    if (language === 'rust')
      return file === definedIn || rustBelow === '.' || file.startsWith(`${rustBelow}/`);
    if (language === 'go') return path.posix.dirname(file) === path.posix.dirname(definedIn);
    return undefined;
  };
  // A Java member is used through its class: a file never naming the class (or declaring it) calls another
  // type's method of that name (gson's GsonBuilder.setLenient beside java.util.Calendar's).
  const javaClasses =
    members && definedIn !== undefined && defs.every((d) => d.path.endsWith('.java') && d.def.container)
      ? [...new Set(defs.map((d) => d.def.container!))]
      : undefined;
  // …and the classes extending or implementing one, whose overrides are the same method.
  const javaAllowed = javaClasses
    ? javaFamily(index, javaClasses, defs.every((d) => d.def.kind === 'method') ? name : undefined)
    : undefined;
  const memberTypes = javaMemberTypes(index);
  const javaPackage =
    definedIn?.endsWith('.java') === true
      ? /^\s*package\s+([\w.]+)\s*;/m.exec((await textOf(definedIn)) ?? '')?.[1]
      : undefined;
  // Ambiguous on a receiver of unknown type: a name other classes define too, or the JDK's own (`isEmpty`).
  const javaUnknownFits =
    javaAllowed === undefined ||
    (!JDK_METHODS.has(name) &&
      ![...index.files.values()].some(
        (t) =>
          t.language === 'java' &&
          t.definitions.some(
            (d) => d.name === name && d.container !== undefined && !javaAllowed.has(d.container),
          ),
      ));
  // A Rust method's types (the `impl`s and traits defining it): another type's method of that name, or std's
  // (`str::is_empty`), is not it; a receiver whose type cannot be read is it only when no other has the name.
  const rustTypes =
    members &&
    definedIn?.endsWith('.rs') === true &&
    defs.every((d) => d.path.endsWith('.rs') && d.def.container)
      ? new Set<string>()
      : undefined;
  let rustMethod: ((node: AstNode, file: string) => boolean) | undefined;
  if (rustTypes) {
    const projectTypes = new Set<string>();
    for (const tags of index.files.values())
      if (tags.language === 'rust')
        for (const d of tags.definitions)
          if (d.kind === 'class' || d.kind === 'enum' || d.kind === 'interface' || d.kind === 'type')
            projectTypes.add(d.name);
    // A method of another crate's trait (`impl ExactSizeIterator for IntoIter { fn len }`) is that trait's name:
    // its type is not one the rename may take.
    const projectTraits = new Set<string>();
    for (const tags of index.files.values())
      if (tags.language === 'rust')
        for (const d of tags.definitions) if (d.kind === 'interface') projectTraits.add(d.name);
    /** The project's traits the method is a method of: it is theirs in every type implementing them. */
    const traits = new Set<string>();
    for (const d of defs) {
      const source = (await textOf(d.path)) ?? '';
      const trait = rustImplTrait(source, d.def.line);
      if (trait !== undefined && !projectTypes.has(trait)) continue;
      rustTypes.add(d.def.container!);
      if (trait !== undefined) traits.add(trait);
      else if (projectTraits.has(d.def.container!)) traits.add(d.def.container!);
    }
    for (const trait of traits) rustTypes.add(trait);
    if (traits.size > 0)
      for (const [file, tags] of index.files) {
        if (tags.language !== 'rust') continue;
        const source = (await textOf(file)) ?? '';
        for (const [, trait, type] of source.matchAll(RUST_TRAIT_IMPL))
          if (traits.has(rustSimpleType(trait) ?? '')) {
            const implementor = rustSimpleType(type);
            if (implementor) rustTypes.add(implementor);
          }
      }
    let otherDefines = false;
    for (const tags of index.files.values())
      if (tags.language === 'rust')
        for (const d of tags.definitions)
          if (d.name === name && d.container !== undefined && !rustTypes.has(d.container))
            otherDefines = true;
    const unknownFits = !otherDefines && !RUST_STD_METHODS.has(name);
    const rustMembers = rustMemberTypes(index);
    const defFiles = new Set(defs.map((d) => d.path));
    rustMethod = (node, file) =>
      rustReceiverFits(
        node,
        rustTypes,
        unknownFits,
        projectTypes,
        (owner, member) => rustMembers(owner, member, file),
        defFiles.has(file),
      );
  }
  // A Rust item other files define their own of (once_cell's `imp::OnceCell` beside `sync::OnceCell`): a path to
  // it through a module is ours only through the modules ours is in.
  let rustThrough: ((module: string) => boolean) | undefined;
  if (!members && definedIn?.endsWith('.rs') === true) {
    const defFiles = new Set(defs.map((d) => d.path));
    const others = [...index.files].some(
      ([file, tags]) =>
        tags.language === 'rust' &&
        !defFiles.has(file) &&
        tags.definitions.some((d) => d.name === name && d.container === undefined && d.kind !== 'module'),
    );
    if (others) {
      const modules = new Set(['self', 'super', 'crate', 'Self']);
      for (const file of defFiles) {
        const stem = path.posix.basename(file, '.rs');
        modules.add(stem === 'mod' ? path.posix.basename(path.posix.dirname(file)) : stem);
        const source = (await textOf(file)) ?? '';
        for (const [, inline] of source.matchAll(/^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*\{/gm))
          modules.add(inline!);
      }
      rustThrough = (module) => modules.has(module);
    }
  }
  // A Go method's receiver types (read off their declarations): another type's method of the name is not it.
  const goMethods =
    members && defs.length > 0 && defs.every((d) => d.path.endsWith('.go') && d.def.kind === 'method');
  // A method a project interface declares (mux's matcher.Match) is one method in every type defining it: renamed
  // alone, a type would stop satisfying the interface.
  let goInterfaceMethod = false;
  if (goMethods) {
    const declared = new RegExp(`^\\s+${escapeRegex(name)}\\(`, 'm');
    for (const [file, t] of index.files)
      if (t.language === 'go' && t.definitions.some(isGoInterface))
        if (declared.test(interfaceBodies((await textOf(file)) ?? '', t.definitions))) {
          goInterfaceMethod = true;
          break;
        }
  }
  const goReceivers = goMethods
    ? new Set(
        goInterfaceMethod
          ? [...index.files.values()].flatMap((t) =>
              t.language === 'go'
                ? t.definitions
                    .filter((d) => d.name === name && d.kind === 'method')
                    .map((d) => goReceiverType(d.signature) ?? '')
                : [],
            )
          : defs.map((d) => goReceiverType(d.def.signature) ?? ''),
      )
    : undefined;
  const goUnknownFits =
    goReceivers !== undefined &&
    (goInterfaceMethod ||
      ![...index.files.values()].some(
        (t) =>
          t.language === 'go' &&
          t.definitions.some(
            (d) =>
              d.name === name && d.kind === 'method' && !goReceivers.has(goReceiverType(d.signature) ?? ''),
          ),
      ));
  // Go: each function's and method's first result type, by name (what a call of the name gives).
  let goResultTypes: Map<string, string[]> | undefined;
  const goResults = (called: string): readonly string[] => {
    if (!goResultTypes) {
      goResultTypes = new Map();
      for (const tags of index.files.values())
        if (tags.language === 'go')
          for (const d of tags.definitions) {
            if (d.kind !== 'function' && d.kind !== 'method') continue;
            const first = /\)\s*\(?\s*([*[\]\w.]+)/.exec(
              d.signature.replace(/^func\s*(\([^)]*\))?\s*\w+/, ''),
            )?.[1];
            if (!first) continue;
            const list = goResultTypes.get(d.name) ?? [];
            list.push(first);
            goResultTypes.set(d.name, list);
          }
    }
    return goResultTypes.get(called) ?? [];
  };
  for (const [file, tags] of index.files) {
    if (privateTo(file, tags.language) === false) continue;
    if (
      javaClasses &&
      file !== definedIn &&
      tags.language === 'java' &&
      ![...javaAllowed!].some(
        (c) => referenceCount(tags, c) > 0 || tags.definitions.some((d) => d.name === c),
      )
    )
      continue;
    // Another file defining a top-level item of that name uses its own (ripgrep's core has a private hostname
    // beside grep_cli's public one): only a Rust path to ours (`grep_cli::hostname`) can be ours there.
    const ownItem =
      definedIn !== undefined &&
      file !== definedIn &&
      !members &&
      tags.definitions.some(
        (d) => d.name === name && d.container === undefined && d.kind !== 'method' && d.kind !== 'module',
      );
    if (ownItem && tags.language !== 'rust') continue;
    if (
      referenceCount(tags, name) === 0 &&
      !namesInSyntax(tags, name) &&
      // A Go test file whose examples are named for it (`ExampleRoute_HeadersRegexp`) and use it only through calls.
      !(
        tags.language === 'go' &&
        tags.definitions.some((d) => /^Example/.test(d.name) && d.name.includes(name))
      )
    )
      continue;
    if (
      definedIn !== undefined &&
      file !== definedIn &&
      ['typescript', 'tsx', 'javascript', 'python', 'dart'].includes(tags.language)
    ) {
      const imports = tags.imports.some((imp) =>
        resolver.resolve(file, imp, tags.language).includes(definedIn),
      );
      if (!imports) continue;
    }
    signal?.throwIfAborted();
    // A component (.vue, .svelte) is mapped, not searched or renamed by name.
    const lang = languageOf(file);
    if (!lang) continue;
    const source = await textOf(file);
    texts.delete(file);
    if (source === undefined) continue;
    const lines = new Set(tags.definitions.filter((d) => d.name === name).map((d) => d.line));
    let goPackage: GoPackage | undefined;
    if (lang.id === 'go') {
      goPackage = {
        same: goPath === undefined ? undefined : path.posix.dirname(file) === goDir,
        aliases: goPackageNames(tags.imports, goPath),
      };
      if (goPackage.same === false && goPackage.aliases.size === 0) continue;
    }
    const { occurrences, shadowed } = findOccurrences(
      lang,
      source,
      name,
      members,
      lines,
      goPackage,
      lang.id === 'rust' && privateTo(file, 'rust') === true,
      ownItem,
      lang.id === 'java' ? javaAllowed : undefined,
      javaUnknownFits,
      memberTypes,
      defs.every((d) => d.def.kind === 'method'),
      javaPackage,
      lang.id === 'rust' && rustMethod ? (node) => rustMethod!(node, file) : undefined,
      lang.id === 'rust' ? rustThrough : undefined,
      goResults,
      lang.id === 'go' ? goForeignImportNames(tags.imports, goModule) : undefined,
      goReceivers && lang.id === 'go'
        ? (node, fieldNamed) =>
            goReceiverFits(
              node,
              goReceivers,
              goUnknownFits && !fieldNamed,
              goForeignImportNames(tags.imports, undefined),
              goResults,
            )
        : undefined,
    );
    if (occurrences.length > 0 || shadowed > 0) results.push({ path: file, source, occurrences, shadowed });
  }
  return results;
}
