// A file's imports and exports as written: each imported name with its alias, default and namespace imports,
// a module bound to a name of its own (`import x as y`, Go and Dart prefixes), re-exports and a module's own export
// lists and default export. Read from the syntax tree where the grammar names the parts, so comments and line
// continuations inside an import are never taken for names.
import type { AstNode } from './ast-grep.js';
import type { LanguageSpec } from './languages.js';
import { useTree } from './use-tree.js';

export interface ImportedName {
  /** As the module spells it; `default` for a default import, `*` for all of a module. */
  name: string;
  /** The name it is bound to here, when that differs. */
  alias?: string;
  /** A name for the type checker only: `import { type A }`, or any name of an `import type` / `export type`. */
  typeOnly?: boolean;
}

export interface Import {
  /** As written: './a', 'package:app/b.dart', 'os.path', 'crate::x', 'fmt', 'a.b.C'. */
  module: string;
  /** Names taken from it as the module spells them (no `default` or `*`): what resolves `from . import mod`. */
  names: string[];
  /** The names taken, as written, aliases included. */
  bindings: ImportedName[];
  /** The module itself bound to a name: `import numpy as np`, `import * as ns`, Go `f "fmt"`, Dart `as p`. */
  alias?: string;
  line: number;
  /** Re-exported (`export … from`, Dart `export`, Rust `pub use`). */
  reexport: boolean;
  /** `import type` / `export type … from`: names for the type checker only. */
  typeOnly?: boolean;
  /** CommonJS: a `require('m')` call, not an import statement (the file is no ES module for it). */
  commonJs?: boolean;
  text: string;
}

/** A name a module exports by a statement of its own: `export { a as b }`, `export default x`. */
export interface LocalExport {
  name: string;
  /** `default` for a default export. */
  alias?: string;
  /** `export { type A }`, `export type { A }`. */
  typeOnly?: boolean;
  line: number;
}

export interface FoundImports {
  imports: Import[];
  exports: LocalExport[];
  /** Source ranges holding only import or export syntax: names there are not uses. */
  skip: [number, number][];
}

/** A statement on one line, whole: what it is parsed from (a Rust use tree of 400 characters). */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
/** The same, cut for showing. */
const oneLine = (text: string) => flat(text).slice(0, 200);
const unquote = (text: string) => text.replace(/^['"`]|['"`]$/g, '');
const withoutComments = (text: string) => text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|#[^\n]*/g, ' ');
const named = (name: string, alias?: string): ImportedName =>
  alias && alias !== name ? { name, alias } : { name };

/**
 * The names of an import or export clause, an inline `type A` marked: read from the specifier's text (a name called
 * `type`, `{ type as t }`, is a value), as each child node the parser hands over costs an allocation across napi.
 */
function specifiers(node: AstNode, kind: string): ImportedName[] {
  return node
    .children()
    .filter((c) => c.kind() === kind)
    .map((s) => {
      const text = s.text();
      const own = s.field('name')?.text() ?? text;
      const name = named(own, s.field('alias')?.text());
      return own !== 'type' && /^type\s/.test(text) ? { ...name, typeOnly: true } : name;
    });
}

/** TypeScript and JavaScript `import` and `export` statements. */
function scriptStatement(node: AstNode, found: FoundImports, line: number): void {
  const range = node.range();
  const source = node.field('source');
  const text = node.kind() === 'import_statement' || source ? node.text() : '';
  const children = node.children();
  // A `type` keyword of the statement's own (`import type …`, `export type { … }`); `export type * from` parses as an
  // error around `type`, hence the text as well.
  const typeOnly = children.some((c) => c.kind() === 'type') || /^(import|export)\s+type\s*[{*]/.test(text);
  const bindings: ImportedName[] = [];
  let alias: string | undefined;
  if (node.kind() === 'import_statement') {
    const clause = children.find((c) => c.kind() === 'import_clause');
    for (const part of clause?.children() ?? []) {
      if (part.kind() === 'identifier') bindings.push(named('default', part.text()));
      else if (part.kind() === 'namespace_import') {
        alias = part
          .children()
          .findLast((c) => c.kind() === 'identifier')
          ?.text();
        bindings.push(named('*', alias));
      } else if (part.kind() === 'named_imports') bindings.push(...specifiers(part, 'import_specifier'));
    }
  } else {
    const clause = children.find((c) => c.kind() === 'export_clause');
    const star = children.find((c) => c.kind() === 'namespace_export' || c.kind() === '*');
    if (!source) {
      const isDefault = children.some((c) => c.kind() === 'default');
      if (clause) {
        for (const s of specifiers(clause, 'export_specifier'))
          found.exports.push({ ...s, ...(typeOnly ? { typeOnly } : {}), line });
        found.skip.push([range.start.index, range.end.index]);
      } else if (isDefault) {
        const value = node.field('declaration') ?? node.field('value') ?? children.at(-1);
        const name =
          value?.field('name')?.text() ?? (value?.kind() === 'identifier' ? value.text() : undefined);
        const what =
          name ??
          (value?.kind().includes('function')
            ? 'function'
            : value?.kind().includes('class')
              ? 'class'
              : 'expression');
        found.exports.push({ name: what, alias: 'default', line });
        if (value?.kind() === 'identifier') found.skip.push([range.start.index, range.end.index]);
      }
      return;
    }
    if (clause) bindings.push(...specifiers(clause, 'export_specifier'));
    if (star) {
      alias = star
        .children()
        .findLast((c) => c.kind() === 'identifier')
        ?.text();
      bindings.push(named('*', alias));
    }
  }
  if (!source) return;
  found.skip.push([range.start.index, range.end.index]);
  // Every name of an `import type` is type-only, as an inline `type` makes one.
  if (typeOnly) for (const b of bindings) b.typeOnly = true;
  const module = unquote(source.text());
  found.imports.push({
    module,
    names: bindings.map((b) => b.name).filter((n) => n !== 'default' && n !== '*'),
    bindings,
    ...(alias ? { alias } : {}),
    line,
    reexport: node.kind() === 'export_statement',
    ...(typeOnly ? { typeOnly } : {}),
    text: oneLine(text),
  });
}

/** Python `import a.b as c, d` (one import per module) and `from m import (a as b,  # comment\n c)`. */
function pythonStatement(node: AstNode, found: FoundImports, line: number): void {
  const range = node.range();
  found.skip.push([range.start.index, range.end.index]);
  const text = oneLine(withoutComments(node.text()));
  // `if TYPE_CHECKING:` imports are for the type checker only.
  const guard = node.parent()?.parent();
  const typeOnly =
    guard?.kind() === 'if_statement' && /TYPE_CHECKING/.test(guard.field('condition')?.text() ?? '');
  const extra = typeOnly ? { typeOnly } : {};
  const item = (c: AstNode): ImportedName | undefined =>
    c.kind() === 'dotted_name'
      ? named(c.text())
      : c.kind() === 'aliased_import'
        ? named(c.field('name')?.text() ?? '', c.field('alias')?.text())
        : c.kind() === 'wildcard_import'
          ? named('*')
          : undefined;
  if (node.kind() === 'import_statement') {
    for (const c of node.children()) {
      const taken = item(c);
      if (!taken || taken.name === '*') continue;
      const imp: Import = {
        module: taken.name,
        names: [],
        bindings: [],
        line,
        reexport: false,
        text,
        ...extra,
      };
      if (taken.alias) imp.alias = taken.alias;
      found.imports.push(imp);
    }
    return;
  }
  const moduleNode = node.field('module_name');
  if (!moduleNode) return;
  const moduleStart = moduleNode.range().start.index;
  const bindings = node
    .children()
    .filter((c) => c.range().start.index !== moduleStart)
    .map(item)
    .filter((b): b is ImportedName => b !== undefined && b.name !== '');
  found.imports.push({
    module: moduleNode.text(),
    names: bindings.map((b) => b.name).filter((n) => n !== '*'),
    bindings,
    line,
    reexport: false,
    text,
    ...extra,
  });
}

/** Rust `use a::b::{c as d, e};`, `use a::b as c;`, `use a::*;`, `mod x;`, `extern crate core as std;`. */
function rustStatement(node: AstNode, found: FoundImports, line: number): void {
  const whole = flat(withoutComments(node.text()));
  const text = whole.slice(0, 200);
  if (node.kind() === 'extern_crate_declaration') {
    const crate = node.field('name')?.text();
    const alias = node.field('alias')?.text();
    if (!crate) return;
    const range = node.range();
    found.skip.push([range.start.index, range.end.index]);
    found.imports.push({
      module: crate,
      names: [],
      bindings: [],
      line,
      reexport: /^pub\b/.test(whole),
      text,
      ...(alias ? { alias } : {}),
    });
    return;
  }
  if (node.kind() === 'mod_item') {
    // `mod x { … }` is an inline module, not a file.
    const mod = /^(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/.exec(whole)?.[1];
    if (mod) found.imports.push({ module: mod, names: [], bindings: [], line, reexport: false, text });
    return;
  }
  const range = node.range();
  found.skip.push([range.start.index, range.end.index]);
  const path = /\buse\s+([^;]+?)\s*;?$/.exec(whole)?.[1];
  if (!path) return;
  const reexport = /^pub\b/.test(whole);
  if (path.includes('{')) {
    // A use tree (`std::{sync::{atomic::{AtomicBool, Ordering}, mpsc}, thread}`): one import per module it reaches.
    const byModule = new Map<string, ImportedName[]>();
    for (const [module, binding] of useTree(path))
      byModule.set(module, [...(byModule.get(module) ?? []), binding]);
    for (const [module, bindings] of byModule) {
      const names = bindings.map((b) => b.name).filter((n) => n !== '*');
      found.imports.push({ module, names, bindings, line, reexport, text });
    }
    return;
  }
  const m = /^([\w:]+?)(?:::(\*))?(?:\s+as\s+(\w+))?$/.exec(path);
  if (!m) return;
  const module = m[1]!;
  const bindings = [m[2] ? named('*') : named(module.split('::').pop()!, m[3])];
  const names = bindings.map((b) => b.name).filter((n) => n !== '*');
  found.imports.push({ module, names, bindings, line, reexport, text });
}

/** Go import specs, Java imports, Dart imports and exports: one module each. */
function otherStatement(lang: LanguageSpec, node: AstNode, found: FoundImports, line: number): void {
  const range = node.range();
  found.skip.push([range.start.index, range.end.index]);
  const whole = flat(withoutComments(node.text()));
  const text = whole.slice(0, 200);
  if (lang.id === 'go') {
    const module = unquote(node.field('path')?.text() ?? '');
    const alias = node.field('name')?.text();
    const last = module.split('/').pop() ?? module;
    const imp: Import = {
      module,
      names: [last],
      bindings: [],
      line,
      reexport: false,
      text,
    };
    if (alias) imp.alias = alias;
    if (module) found.imports.push(imp);
  } else if (lang.id === 'java') {
    const m = /^import\s+(?:static\s+)?([\w.]+?)(\.\*)?\s*;?$/.exec(whole);
    if (!m) return;
    const name = m[2] ? '*' : m[1]!.split('.').pop()!;
    const module = m[2] ? `${m[1]}.*` : m[1]!;
    found.imports.push({
      module,
      names: name === '*' ? [] : [name],
      bindings: [named(name)],
      line,
      reexport: false,
      text,
    });
  } else if (lang.id === 'dart') {
    const module = /^(?:import|export)\s+['"]([^'"]+)['"]/.exec(whole)?.[1];
    if (!module) return;
    const alias = /\bas\s+(\w+)/.exec(whole)?.[1];
    const shown = /\bshow\s+([\w\s,]+?)(?:\bhide\b|;|$)/.exec(whole)?.[1];
    const bindings = (shown?.match(/\w+/g) ?? []).map((n) => named(n));
    const imp: Import = {
      module,
      names: bindings.map((b) => b.name),
      bindings,
      line,
      reexport: text.startsWith('export'),
      text,
    };
    if (alias) imp.alias = alias;
    found.imports.push(imp);
  }
}

/** The import and export statements among a parsed file's nodes (in source order). */
export function findImports(lang: LanguageSpec, nodes: AstNode[]): FoundImports {
  const found: FoundImports = { imports: [], exports: [], skip: [] };
  for (const node of nodes) {
    const line = node.range().start.line + 1;
    if (lang.id === 'typescript' || lang.id === 'tsx' || lang.id === 'javascript')
      scriptStatement(node, found, line);
    else if (lang.id === 'python') pythonStatement(node, found, line);
    else if (lang.id === 'rust') rustStatement(node, found, line);
    else otherStatement(lang, node, found, line);
  }
  return found;
}

/**
 * CommonJS `require('m')` calls (nodes of kind call_expression whose callee is `require`, a string argument): what
 * each binds where its shape says (`const m = require('m')` the module, `const { a, b: c } = require('m')` names,
 * `const a = require('m').a` one name); anything else takes the module alone (`require('m')`, `require('d')('x')`).
 */
export function requireImports(calls: AstNode[]): Import[] {
  const found: Import[] = [];
  for (const call of calls) {
    if (call.field('function')?.text() !== 'require') continue;
    const arg = call.field('arguments')?.namedChildren()[0];
    if (arg?.kind() !== 'string') continue;
    const module = unquote(arg.text());
    if (!module) continue;
    let value: AstNode = call;
    let parent = call.parent();
    let property: string | undefined;
    if (
      parent?.kind() === 'member_expression' &&
      parent.field('object')?.range().start.index === call.range().start.index
    ) {
      property = parent.field('property')?.text();
      value = parent;
      parent = parent.parent();
    }
    const bindings: ImportedName[] = [];
    let alias: string | undefined;
    const declared =
      parent?.kind() === 'variable_declarator' &&
      parent.field('value')?.range().start.index === value.range().start.index
        ? parent.field('name')
        : null;
    if (declared?.kind() === 'identifier') {
      if (property) bindings.push(named(property, declared.text()));
      else {
        alias = declared.text();
        bindings.push(named('*', alias));
      }
    } else if (declared?.kind() === 'object_pattern' && !property) {
      for (const part of declared.namedChildren()) {
        if (part.kind() === 'shorthand_property_identifier_pattern') bindings.push(named(part.text()));
        else if (part.kind() === 'pair_pattern') {
          const key = part.field('key')?.text();
          const local = part.field('value');
          if (key && local?.kind() === 'identifier') bindings.push(named(key, local.text()));
        }
      }
    }
    found.push({
      module,
      names: bindings.map((b) => b.name).filter((n) => n !== '*'),
      bindings,
      ...(alias ? { alias } : {}),
      line: call.range().start.line + 1,
      reexport: false,
      commonJs: true,
      text: oneLine((parent?.kind() === 'variable_declarator' ? parent : value).text()),
    });
  }
  return found;
}

/** The names an import binds in the importing file: what its code uses to reach the module. */
export function localNames(imp: Import, language: string): string[] {
  const locals = imp.bindings.filter((b) => b.name !== '*' || b.alias).map((b) => b.alias ?? b.name);
  if (imp.alias) locals.push(imp.alias);
  else if (imp.bindings.length === 0 && language === 'python') locals.push(imp.module.split('.')[0]!);
  else if (language === 'go') locals.push(imp.module.split('/').pop()!);
  return [...new Set(locals)];
}
