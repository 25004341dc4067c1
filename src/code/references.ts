// References to a name across the project: which files may name it (imports, a private item's module, a Java
// member's classes, a Rust method's types, a Go method's receivers), each searched by occurrences.ts.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AstNode } from './ast-grep.js';
import type { CodeIndex } from './code-index.js';
import {
  goForeignImportNames,
  goPackageNames,
  goReceiverFits,
  goReceiverType,
  interfaceBodies,
  isGoInterface,
} from './go-references.js';
import { JDK_METHODS, javaFamily } from './java-references.js';
import { javaMemberTypes } from './java-types.js';
import { languageOf, type SymbolKind } from './languages.js';
import { type LocalBinding, localBindingIn } from './local-binding.js';
import { ImportResolver } from './module-graph.js';
import { escapeRegex, findOccurrences, type GoPackage, type Occurrence } from './occurrences.js';
import { carriersFor, moduleReceivers, RESOLVED_LANGUAGES } from './reexports.js';
import { RUST_STD_METHODS, rustReceiverFits } from './rust-references.js';
import { RUST_TRAIT_IMPL, rustImplTrait, rustMemberTypes, rustSimpleType } from './rust-types.js';
import { definitionsOf } from './symbol-definitions.js';
import { type FileTags, referenceCount } from './tags.js';

export interface FileReferences {
  path: string;
  source: string;
  occurrences: Occurrence[];
  /** Occurrences left out because a local binding shadows the name there. */
  shadowed: number;
  /**
   * Uses of a member of the name whose receiver's type could not be read while other types have a member of that
   * name: maybe this symbol, maybe another's; left out, for the result to name.
   */
  undecided: Occurrence[];
  /** The local binding (parameter, local variable) the position pointed at: its occurrences are its scope's. */
  local?: LocalBinding;
}

const MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set(['method', 'field']);

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
  /** With `line`: the column the position gives, to tell a local from a same-named definition on its line. */
  column?: number,
): Promise<FileReferences[]> {
  // A position at a local variable or a parameter (a `let identifier` beside a fn identifier): that binding alone.
  if (definedIn !== undefined && line !== undefined) {
    const local = await localBindingIn(index, name, definedIn, line, column);
    if (local) {
      const { source, ...binding } = local;
      return [
        {
          path: definedIn,
          source,
          occurrences: local.occurrences,
          shadowed: 0,
          undecided: [],
          local: binding,
        },
      ];
    }
  }
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
  const carriersOf = carriersFor(index, resolver, defs, name, members, definedIn);
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
  let rustMethod: ((node: AstNode, file: string) => boolean | undefined) | undefined;
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
    // A Java file never naming the method's classes most likely calls another type's of that name: there a
    // receiver of unread type is undecided, never taken for ours; one read to be of our classes still is.
    const javaElsewhere =
      javaClasses !== undefined &&
      file !== definedIn &&
      tags.language === 'java' &&
      ![...javaAllowed!].some(
        (c) => referenceCount(tags, c) > 0 || tags.definitions.some((d) => d.name === c),
      );
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
      // A Python module re-exporting it may name it only in its `__all__` (`from ._auth import *` in __init__.py).
      !(tags.language === 'python' && !members && definedIn !== undefined && carriersOf().has(file)) &&
      // A Go test file whose examples are named for it (`ExampleRoute_HeadersRegexp`) and use it only through calls.
      !(
        tags.language === 'go' &&
        tags.definitions.some((d) => /^Example/.test(d.name) && d.name.includes(name))
      )
    )
      continue;
    // Importers of its file, or of a barrel or package re-exporting it (`from requests import Session` through
    // requests/__init__.py, ky's index.ts): the others cannot name it.
    if (definedIn !== undefined && file !== definedIn && RESOLVED_LANGUAGES.has(tags.language)) {
      const known = carriersOf();
      const imports =
        known.has(file) ||
        tags.imports.some((imp) => resolver.resolve(file, imp, tags.language).some((t) => known.has(t)));
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
    const { occurrences, shadowed, undecided } = findOccurrences(
      lang,
      source,
      name,
      members,
      lines,
      goPackage,
      lang.id === 'rust' && privateTo(file, 'rust') === true,
      ownItem,
      lang.id === 'java' ? javaAllowed : undefined,
      javaUnknownFits && !javaElsewhere,
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
      RESOLVED_LANGUAGES.has(lang.id)
        ? moduleReceivers(file, tags.imports, lang.id, resolver, members ? undefined : carriersOf())
        : undefined,
    );
    if (occurrences.length > 0 || shadowed > 0 || undecided.length > 0)
      results.push({ path: file, source, occurrences, shadowed, undecided });
  }
  return results;
}
