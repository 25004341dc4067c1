// References to a name, from the syntax tree: identifiers in code only (never in strings or comments), without
// the uses of a local binding (parameter, local variable) of the same name that shadows it in a function.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type AstNode, findKinds, parseSource } from './ast-grep.js';
import type { CodeIndex } from './code-index.js';
import { type LanguageSpec, languageOf, type SymbolKind } from './languages.js';
import { ImportResolver } from './module-graph.js';
import { type FileTags, referenceCount } from './tags.js';

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

export interface FileReferences {
  path: string;
  source: string;
  occurrences: Occurrence[];
  /** Occurrences left out because a local binding shadows the name there. */
  shadowed: number;
}

const MEMBER_KINDS: ReadonlySet<SymbolKind> = new Set(['method', 'field']);
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const same = (a: AstNode | null | undefined, b: AstNode) =>
  a !== null && a !== undefined && a.range().start.index === b.range().start.index && a.kind() === b.kind();

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
      if (grand?.kind() !== outer || !same(grand.namedChildren()[0], parent)) continue;
    }
    if (any) return true;
    if (field !== undefined) return same(parent.field(field), node);
    return same(
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
    (m) => m.parent === parent.kind() && (m.field === '' || same(parent.field(m.field), node)),
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
): { occurrences: Occurrence[]; shadowed: number } {
  const root = parseSource(lang, source);
  const kinds = members ? [...lang.identifiers, ...lang.memberIdentifiers] : lang.identifiers;
  const nodes = findKinds(lang, root, kinds, `^${escapeRegex(name)}$`).filter(
    (node) => members || !isMemberAccess(lang, node),
  );
  const shadows: [number, number][] = [];
  for (const node of nodes) {
    if (!isBinding(lang, node)) continue;
    const scope = bindingScope(lang, node);
    if (scope) shadows.push(scope);
  }
  const occurrences: Occurrence[] = [];
  let shadowed = 0;
  for (const node of nodes) {
    const { start, end } = node.range();
    if (shadows.some(([from, to]) => from <= start.index && start.index < to)) {
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
  return { occurrences, shadowed };
}

/** The definitions named `name` (in `inFile` when given) and whether any is a member (method or field). */
export function definitionsOf(index: CodeIndex, name: string, inFile?: string) {
  const found = [];
  for (const [file, tags] of index.files) {
    if (inFile !== undefined && file !== inFile) continue;
    for (const def of tags.definitions) if (def.name === name) found.push({ path: file, def });
  }
  return found;
}

/**
 * Whether the file names `name` where its tags count no use: defining it, importing or re-exporting it (a Rust
 * `pub use crate::sink::{Sink, SinkMatch}` in lib.rs, a barrel's `export { a } from`), or exporting it by a list.
 */
function namesInSyntax(tags: FileTags, name: string): boolean {
  return (
    tags.definitions.some((d) => d.name === name) ||
    tags.imports.some((imp) => imp.bindings.some((b) => b.name === name || b.alias === name)) ||
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
): Promise<FileReferences[]> {
  const defs = definitionsOf(index, name, definedIn);
  const members = defs.length > 0 && defs.every((d) => MEMBER_KINDS.has(d.def.kind));
  const resolver = new ImportResolver(index);
  const results: FileReferences[] = [];
  for (const [file, tags] of index.files) {
    if (referenceCount(tags, name) === 0 && !namesInSyntax(tags, name)) continue;
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
    const source = await fs.readFile(path.join(index.root, file), 'utf8').catch(() => undefined);
    if (source === undefined) continue;
    const lines = new Set(tags.definitions.filter((d) => d.name === name).map((d) => d.line));
    const { occurrences, shadowed } = findOccurrences(lang, source, name, members, lines);
    if (occurrences.length > 0 || shadowed > 0) results.push({ path: file, source, occurrences, shadowed });
  }
  return results;
}
