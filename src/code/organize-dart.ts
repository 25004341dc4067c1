// Organises a Dart file's imports: dart:, package:, then relative, sorted; duplicates dropped (the same text, or the
// same file by another URI: `package:demo/src/counter.dart` and `counter.dart` from lib/src); unused ones dropped
// where the names tell: a prefix or `show` names never used, or a library none of whose names appears. Without the
// Dart analysis server the last is by name, and only for the project's own libraries.
import type { AstNode } from './ast-grep.js';
import { parseSource } from './ast-grep.js';
import type { CodeIndex } from './code-index.js';
import type { LanguageSpec } from './languages.js';
import type { ImportResolver } from './module-graph.js';
import { replaceImportGroups, usedNames } from './organize-imports.js';

/** What is known of an imported library: its file and the names it gives, or why they cannot be told by name. */
export type DartLibrary = { file: string; names: ReadonlySet<string> } | { file?: string; unknown: string };

/** An import's parts: its URI, and the rest as written (prefix, show/hide, deferred), spaces normalised. */
function partsOf(text: string): { uri: string; rest: string } | undefined {
  const m = /^import\s+(['"])([^'"]+)\1([\s\S]*)$/.exec(text.replace(/\s+/g, ' ').trim());
  return m ? { uri: m[2]!, rest: m[3]!.trim() } : undefined;
}

/** `show a, b` / `hide c`: the names after the combinator. */
const combinator = (text: string, word: 'show' | 'hide') =>
  new RegExp(`\\b${word}\\s+([\\w\\s,]+?)(?=\\b(?:show|hide)\\b|;|$)`).exec(text)?.[1]?.match(/\w+/g) ?? [];

/**
 * The libraries the URIs of `file` name, read from the code index: each library's public top-level names and those
 * its `export`s give (show/hide applied), or why they cannot be told by name: the SDK's or another package's
 * library (no analysis server to read it), a library with parts or extensions (used without naming them), one not
 * in the index.
 */
export async function dartLibraries(
  index: CodeIndex,
  resolver: ImportResolver,
  file: string,
  uris: readonly string[],
  read: (file: string) => Promise<string | undefined>,
): Promise<Map<string, DartLibrary>> {
  const resolve = (from: string, uri: string): string | undefined =>
    resolver.resolve(
      from,
      { module: uri, names: [], bindings: [], line: 0, reexport: false, text: '' },
      'dart',
    )[0];
  const memo = new Map<string, Promise<DartLibrary>>();
  const library = (at: string, seen: ReadonlySet<string>): Promise<DartLibrary> => {
    let found = memo.get(at);
    if (!found) {
      found = readLibrary(at, seen);
      memo.set(at, found);
    }
    return found;
  };
  const readLibrary = async (at: string, seen: ReadonlySet<string>): Promise<DartLibrary> => {
    const tags = index.files.get(at);
    if (!tags) return { file: at, unknown: 'not read' };
    const text = (await read(at)) ?? '';
    if (/^\s*part\s+['"]/m.test(text)) return { file: at, unknown: 'it has parts' };
    const top = tags.definitions.filter((d) => d.container === undefined);
    if (top.some((d) => /^extension\b/.test(d.signature)))
      return { file: at, unknown: 'its extensions are used without their names' };
    const names = new Set(top.filter((d) => d.exported).map((d) => d.name));
    for (const exp of tags.imports.filter((i) => i.reexport)) {
      const target = resolve(at, exp.module);
      if (!target) return { file: at, unknown: `it exports ${exp.module}` };
      if (seen.has(target)) continue;
      const given = await library(target, new Set([...seen, at]));
      if ('unknown' in given)
        return { file: at, unknown: `it exports ${exp.module}, whose names are unknown` };
      const shown = combinator(exp.text, 'show');
      const hidden = new Set(combinator(exp.text, 'hide'));
      for (const name of shown.length > 0 ? shown.filter((n) => given.names.has(n)) : given.names)
        if (!hidden.has(name)) names.add(name);
    }
    return { file: at, names };
  };
  const result = new Map<string, DartLibrary>();
  for (const uri of uris) {
    if (result.has(uri)) continue;
    const target = resolve(file, uri);
    if (target) result.set(uri, await library(target, new Set([file])));
    else if (uri.startsWith('dart:')) result.set(uri, { unknown: "the SDK's" });
    else if (uri.startsWith('package:')) result.set(uri, { unknown: "another package's" });
    else result.set(uri, { unknown: 'not found' });
  }
  return result;
}

/** What organising did besides sorting, for the result: duplicates and unused imports dropped, what was not checked. */
export interface DartOrganized {
  text: string;
  /** `'counter.dart': the same file as 'package:demo/src/counter.dart'`, `'x.dart': unused`. */
  dropped: string[];
  /** Imports checked for use by name, and kept. */
  checked: string[];
  /** Imports whose use could not be told, and why. */
  unchecked: { uri: string; why: string }[];
}

/** Names in the file's dartdoc references (`[Counter]`): the analyzer counts those as uses of an import. */
function docReferences(source: string): Set<string> {
  const names = new Set<string>();
  for (const line of source.matchAll(/^\s*\/\/\/.*$/gm))
    for (const ref of line[0].matchAll(/\[([A-Za-z_$][\w$]*)/g)) names.add(ref[1]!);
  return names;
}

/** The Dart file with its imports organised (see the file's head); `libraries` from dartLibraries. */
export function organizeDartImports(
  lang: LanguageSpec,
  source: string,
  libraries: ReadonlyMap<string, DartLibrary> = new Map(),
): DartOrganized {
  const root = parseSource(lang, source);
  const nodes = root.children().filter((n) => n.kind() === 'import_or_export' && /^import\b/.test(n.text()));
  const result: DartOrganized = { text: source, dropped: [], checked: [], unchecked: [] };
  if (nodes.length === 0) return result;
  const used = usedNames(lang, root, nodes);
  for (const name of docReferences(source)) used.add(name);
  /** Each kept import's file (or URI) and the rest of it: a second import of both is a duplicate. */
  const seen = new Map<string, string>();
  const kept: string[] = [];
  for (const node of nodes) {
    const text = node.text().replace(/\s+/g, ' ').trim();
    const parts = partsOf(text);
    if (!parts) {
      kept.push(text);
      continue;
    }
    const library = libraries.get(parts.uri);
    const key = `${library?.file ?? parts.uri}\0${parts.rest}`;
    const first = seen.get(key);
    if (first !== undefined) {
      result.dropped.push(
        first === parts.uri
          ? `'${parts.uri}': imported twice`
          : `'${parts.uri}': the same file as '${first}'`,
      );
      continue;
    }
    seen.set(key, parts.uri);
    const prefix = /\bas\s+(\w+)/.exec(parts.rest)?.[1];
    if (prefix) {
      if (!used.has(prefix)) result.dropped.push(`'${parts.uri}': its prefix ${prefix} is not used`);
      else kept.push(text);
      continue;
    }
    const show = combinator(parts.rest, 'show');
    if (show.length > 0) {
      const names = show.filter((s) => used.has(s));
      if (names.length === 0) result.dropped.push(`'${parts.uri}': none of the names it shows is used`);
      else
        kept.push(
          text.replace(
            /\bshow\s+[\w\s,]+?(?=\bhide\b|;)/,
            (m) => `show ${names.sort().join(', ')}${/\s$/.test(m) ? ' ' : ''}`,
          ),
        );
      continue;
    }
    if (!library || 'unknown' in library) {
      result.unchecked.push({ uri: parts.uri, why: library?.unknown ?? 'not found' });
      kept.push(text);
      continue;
    }
    const hidden = new Set(combinator(parts.rest, 'hide'));
    const gives = [...library.names].filter((n) => !hidden.has(n));
    if (gives.some((n) => used.has(n))) {
      result.checked.push(`'${parts.uri}'`);
      kept.push(text);
    } else result.dropped.push(`'${parts.uri}': unused (by name: none of the names it gives appears)`);
  }
  const rank = (t: string) => (/['"]dart:/.test(t) ? 0 : /['"]package:/.test(t) ? 1 : 2);
  const uri = (t: string) => /['"]([^'"]+)['"]/.exec(t)?.[1] ?? t;
  kept.sort((a, b) => rank(a) - rank(b) || uri(a).localeCompare(uri(b)));
  result.text = replaceImportGroups(source, [{ nodes: nodes as AstNode[], lines: kept }]);
  return result;
}

/** The URIs a Dart file imports, for dartLibraries. */
export function dartImportUris(source: string): string[] {
  return [...source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}
