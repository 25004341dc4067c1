// Organises a file's imports: sorted, duplicates merged, unused names dropped (TS/JS and Dart).
import { type AstNode, findKinds, parseSource } from './ast-grep.js';
import type { LanguageSpec } from './languages.js';

interface Spec {
  name: string;
  alias?: string;
}

interface TsImport {
  module: string;
  typeOnly: boolean;
  defaultName?: string;
  namespace?: string;
  named: Spec[];
  sideEffect: boolean;
}

/** Names used in code outside the import statements. */
function usedNames(lang: LanguageSpec, root: AstNode, imports: AstNode[]): Set<string> {
  const ranges = imports.map((n) => [n.range().start.index, n.range().end.index] as const);
  const used = new Set<string>();
  for (const node of findKinds(lang, root, [...lang.identifiers, 'type_identifier'])) {
    const at = node.range().start.index;
    if (!ranges.some(([from, to]) => from <= at && at < to)) used.add(node.text());
  }
  return used;
}

function parseTsImport(text: string): TsImport | undefined {
  const sideEffect = /^import\s*['"]([^'"]+)['"]/.exec(text);
  if (sideEffect) return { module: sideEffect[1]!, typeOnly: false, named: [], sideEffect: true };
  const m = /^import\s+(type\s+)?([\s\S]*?)\s*from\s*['"]([^'"]+)['"]/.exec(text);
  if (!m) return undefined;
  const clause = m[2]!;
  const result: TsImport = { module: m[3]!, typeOnly: Boolean(m[1]), named: [], sideEffect: false };
  const braces = /\{([\s\S]*)\}/.exec(clause);
  for (const part of (braces?.[1] ?? '').split(',')) {
    const spec = /^\s*((?:type\s+)?[\w$]+)(?:\s+as\s+([\w$]+))?\s*$/.exec(part);
    if (spec) result.named.push({ name: spec[1]!, ...(spec[2] ? { alias: spec[2] } : {}) });
  }
  const rest = clause.replace(/\{[\s\S]*\}/, '');
  const ns = /\*\s*as\s+([\w$]+)/.exec(rest);
  if (ns) result.namespace = ns[1]!;
  const def = /^\s*([\w$]+)/.exec(rest);
  if (def) result.defaultName = def[1]!;
  return result;
}

const localName = (s: Spec) => s.alias ?? s.name.replace(/^type\s+/, '');

function renderTs(imp: TsImport, quote: string, semi: string): string {
  if (imp.sideEffect) return `import ${quote}${imp.module}${quote}${semi}`;
  const parts: string[] = [];
  if (imp.defaultName) parts.push(imp.defaultName);
  if (imp.namespace) parts.push(`* as ${imp.namespace}`);
  if (imp.named.length > 0) {
    const names = imp.named.map((s) => (s.alias ? `${s.name} as ${s.alias}` : s.name));
    parts.push(`{ ${names.join(', ')} }`);
  }
  return `import ${imp.typeOnly ? 'type ' : ''}${parts.join(', ')} from ${quote}${imp.module}${quote}${semi}`;
}

/** Packages first, then relative paths; alphabetical within each. */
const moduleOrder = (m: string) => (m.startsWith('.') ? 1 : 0);

function organizeTs(lang: LanguageSpec, source: string, root: AstNode, nodes: AstNode[]): string[] {
  const used = usedNames(lang, root, nodes);
  const merged = new Map<string, TsImport>();
  for (const node of nodes) {
    const text = node.text();
    const imp = parseTsImport(text);
    if (!imp) return [];
    const key = `${imp.module}\0${imp.typeOnly}\0${imp.namespace ?? ''}`;
    const into = merged.get(key);
    if (!into) merged.set(key, imp);
    else {
      into.defaultName ??= imp.defaultName;
      into.sideEffect &&= imp.sideEffect;
      for (const spec of imp.named)
        if (!into.named.some((s) => localName(s) === localName(spec))) into.named.push(spec);
    }
  }
  const quote = /from\s*(['"])/.exec(source)?.[1] ?? "'";
  const semi = /\bfrom\s*['"][^'"]+['"](;?)/.exec(source)?.[1] ?? ';';
  const kept: TsImport[] = [];
  for (const imp of merged.values()) {
    if (!imp.sideEffect) {
      if (imp.defaultName && !used.has(imp.defaultName)) delete imp.defaultName;
      if (imp.namespace && !used.has(imp.namespace)) delete imp.namespace;
      imp.named = imp.named
        .filter((s) => used.has(localName(s)))
        .sort((a, b) => localName(a).localeCompare(localName(b)));
      if (!imp.defaultName && !imp.namespace && imp.named.length === 0) continue;
    }
    kept.push(imp);
  }
  kept.sort((a, b) => moduleOrder(a.module) - moduleOrder(b.module) || a.module.localeCompare(b.module));
  return kept.map((imp) => renderTs(imp, quote, semi));
}

/** dart: first, then package:, then relative; an import with `as`/`show` whose names are unused is dropped. */
function organizeDart(lang: LanguageSpec, root: AstNode, nodes: AstNode[]): string[] {
  const used = usedNames(lang, root, nodes);
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const node of nodes) {
    const text = node.text().replace(/\s+/g, ' ').trim();
    if (seen.has(text)) continue;
    seen.add(text);
    const prefix = /\bas\s+(\w+)/.exec(text)?.[1];
    if (prefix && !used.has(prefix)) continue;
    const show = /\bshow\s+([\w\s,]+?)(?:\bhide\b|;)/.exec(text)?.[1];
    if (show && !prefix) {
      const names = show
        .split(',')
        .map((s) => s.trim())
        .filter((s) => used.has(s));
      if (names.length === 0) continue;
      kept.push(text.replace(/\bshow\s+[\w\s,]+?(?=\bhide\b|;)/, `show ${names.sort().join(', ')}`));
      continue;
    }
    kept.push(text);
  }
  const rank = (t: string) => (/['"]dart:/.test(t) ? 0 : /['"]package:/.test(t) ? 1 : 2);
  const uri = (t: string) => /['"]([^'"]+)['"]/.exec(t)?.[1] ?? t;
  return kept.sort((a, b) => rank(a) - rank(b) || uri(a).localeCompare(uri(b)));
}

/** The file with its imports organised (unchanged when it has none); undefined for other languages. */
export function organizeImports(lang: LanguageSpec, source: string): string | undefined {
  if (!['typescript', 'tsx', 'javascript', 'dart'].includes(lang.id)) return undefined;
  const root = parseSource(lang, source);
  const dart = lang.id === 'dart';
  const nodes = root
    .children()
    .filter((n) =>
      dart ? n.kind() === 'import_or_export' && /^import\b/.test(n.text()) : n.kind() === 'import_statement',
    );
  if (nodes.length === 0) return source;
  const lines = dart ? organizeDart(lang, root, nodes) : organizeTs(lang, source, root, nodes);
  if (!dart && lines.length === 0 && nodes.some((n) => !parseTsImport(n.text()))) return source;
  // The new block goes where the first import was; the other imports go, with the line each stood on. A file
  // with CRLF line ends keeps them.
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  let out = '';
  let at = 0;
  nodes.forEach((node, i) => {
    const start = node.range().start.index;
    let end = node.range().end.index;
    if (source.startsWith('\r\n', end)) end += 2;
    else if (source[end] === '\n') end += 1;
    out += source.slice(at, start);
    if (i === 0 && lines.length > 0) out += `${lines.join('\n')}\n`.replace(/\r?\n/g, eol);
    at = end;
  });
  return out + source.slice(at);
}
