// Organises a TS/JS file's imports: sorted, duplicates merged, unused names dropped, in the groups TypeScript's own
// organizeImports keeps (imports apart by a blank line or a comment), a side-effect import staying where it is.
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
  /** The statement's text as written, when it alone made this import: kept as it was if nothing in it changed. */
  text?: string;
}

/** How the organised imports are written: the project formatter's line width (wrapped past it, one name a line). */
export interface ScriptImportStyle {
  /** The line width the project's formatter keeps to (biome, prettier, .editorconfig); unknown: 80, or the file's longest import. */
  lineWidth?: number;
}

type Compare = (a: string, b: string) => number;
const ordinal: Compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const ignoringCase: Compare = (a, b) => ordinal(a.toLowerCase(), b.toLowerCase()) || ordinal(a, b);
const locale: Compare = (a, b) => a.localeCompare(b);

/**
 * The order the file's own import lists keep: by code unit (`METHODS` before `METHOD_NAME_ALL`, as eslint's
 * sort-imports), ignoring case, or the locale's: whichever most of its lists of two or more names are sorted by
 * (the locale's on a tie, or when none is).
 */
function detectedOrder(lists: readonly string[][]): Compare {
  const informative = lists.filter((names) => names.length > 1);
  const sortedBy = (compare: Compare) =>
    informative.filter((names) => names.every((name, i) => i === 0 || compare(names[i - 1]!, name) <= 0))
      .length;
  let best: [Compare, number] = [locale, sortedBy(locale)];
  for (const compare of [ordinal, ignoringCase]) {
    const count = sortedBy(compare);
    if (count > best[1]) best = [compare, count];
  }
  return best[0];
}

/** Names used in code outside the import statements. */
export function usedNames(lang: LanguageSpec, root: AstNode, imports: AstNode[]): Set<string> {
  const ranges = imports.map((n) => [n.range().start.index, n.range().end.index] as const);
  const used = new Set<string>();
  for (const node of findKinds(lang, root, [...lang.identifiers, 'type_identifier'])) {
    const at = node.range().start.index;
    if (!ranges.some(([from, to]) => from <= at && at < to)) used.add(node.text());
  }
  return used;
}

function parseTsImport(text: string): TsImport | undefined {
  // `import type {} from 'x'` names nothing: it is there for what the module declares (zustand's devtools takes
  // the Window augmentation of '@redux-devtools/extension'), kept where it is as TypeScript's organizeImports keeps it.
  const sideEffect =
    /^import\s*['"]([^'"]+)['"]/.exec(text) ??
    /^import\s+(?:type\s+)?\{\s*\}\s*from\s*['"]([^'"]+)['"]/.exec(text);
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

interface Layout {
  quote: string;
  semi: string;
  width: number;
  indent: string;
  trailingComma: boolean;
}

function renderTs(imp: TsImport, layout: Layout): string {
  const { quote, semi } = layout;
  if (imp.sideEffect) return `import ${quote}${imp.module}${quote}${semi}`;
  const head: string[] = [];
  if (imp.defaultName) head.push(imp.defaultName);
  if (imp.namespace) head.push(`* as ${imp.namespace}`);
  const names = imp.named.map((s) => (s.alias ? `${s.name} as ${s.alias}` : s.name));
  const type = imp.typeOnly ? 'type ' : '';
  const from = ` from ${quote}${imp.module}${quote}${semi}`;
  const parts = names.length > 0 ? [...head, `{ ${names.join(', ')} }`] : head;
  const line = `import ${type}${parts.join(', ')}${from}`;
  if (line.length <= layout.width || names.length === 0) return line;
  // Past the width: one name a line, as prettier and biome write it.
  const lead = head.length > 0 ? `${head.join(', ')}, ` : '';
  const list = names.map(
    (n, i) => `${layout.indent}${n}${i < names.length - 1 || layout.trailingComma ? ',' : ''}`,
  );
  return `import ${type}${lead}{\n${list.join('\n')}\n}${from}`;
}

/** The same import, name for name in the same order: its text can stay as written. */
const sameImport = (a: TsImport, b: TsImport) =>
  a.defaultName === b.defaultName &&
  a.namespace === b.namespace &&
  a.named.length === b.named.length &&
  a.named.every((s, i) => s.name === b.named[i]!.name && s.alias === b.named[i]!.alias);

/** Packages first, then relative paths; alphabetical within each. */
const moduleOrder = (m: string) => (m.startsWith('.') ? 1 : 0);

interface TsContext {
  used: ReadonlySet<string>;
  layout: Layout;
  order: Compare;
}

/** The file's imports and how their lines are written; undefined when one of them cannot be read (left alone). */
function tsContext(
  lang: LanguageSpec,
  source: string,
  root: AstNode,
  nodes: AstNode[],
  style: ScriptImportStyle,
) {
  const written = nodes.map((n) => parseTsImport(n.text()));
  if (written.some((imp) => imp === undefined)) return undefined;
  const texts = nodes.map((n) => n.text());
  const wrapped = texts.filter((t) => /\{\s*\n/.test(t));
  const layout: Layout = {
    quote: /from\s*(['"])/.exec(source)?.[1] ?? "'",
    semi: /\bfrom\s*['"][^'"]+['"](;?)/.exec(source)?.[1] ?? ';',
    // Unknown, the formatters' 80, or wider where the file's own one-line imports are.
    width: style.lineWidth ?? Math.max(80, ...texts.filter((t) => !t.includes('\n')).map((t) => t.length)),
    indent: /\{[ \t]*\n([ \t]+)/.exec(wrapped[0] ?? '')?.[1] ?? (/^\t/m.test(source) ? '\t' : '  '),
    trailingComma: wrapped.length === 0 || wrapped.some((t) => /,\s*\}/.test(t)),
  };
  const order = detectedOrder(written.map((imp) => imp!.named.map(localName)));
  return { used: usedNames(lang, root, nodes), layout, order };
}

/** One group's imports organised: merged by module, unused names dropped, sorted. */
function organizeTs(nodes: AstNode[], { used, layout, order }: TsContext): string[] {
  const merged = new Map<string, TsImport>();
  for (const node of nodes) {
    const text = node.text();
    const imp = parseTsImport(text)!;
    const key = `${imp.module}\0${imp.typeOnly}\0${imp.namespace ?? ''}`;
    const into = merged.get(key);
    if (!into) merged.set(key, { ...imp, text });
    else {
      delete into.text;
      into.defaultName ??= imp.defaultName;
      for (const spec of imp.named)
        if (!into.named.some((s) => localName(s) === localName(spec))) into.named.push(spec);
    }
  }
  const kept: TsImport[] = [];
  for (const imp of merged.values()) {
    const before = { ...imp, named: [...imp.named] };
    if (imp.defaultName && !used.has(imp.defaultName)) delete imp.defaultName;
    if (imp.namespace && !used.has(imp.namespace)) delete imp.namespace;
    imp.named = imp.named
      .filter((s) => used.has(localName(s)))
      .sort((a, b) => order(localName(a), localName(b)));
    if (!imp.defaultName && !imp.namespace && imp.named.length === 0) continue;
    if (imp.text !== undefined && !sameImport(before, imp)) delete imp.text;
    kept.push(imp);
  }
  kept.sort((a, b) => moduleOrder(a.module) - moduleOrder(b.module) || locale(a.module, b.module));
  // An import nothing changed in stays as written (wrapped, commented, formatted as the project formats it).
  return kept.map((imp) => imp.text ?? renderTs(imp, layout));
}

const isSideEffect = (node: AstNode) => parseTsImport(node.text())?.sideEffect === true;

/**
 * The groups organised apart, as TypeScript's organizeImports groups them: a blank line or a comment between two
 * imports (or code) starts a new one. A side-effect import (`import './polyfill'`) is a group of its own: it runs
 * its module at its place among the imports, so nothing is moved across it (biome and eslint's sorters keep it so;
 * TypeScript's would sort it among the others).
 */
function importGroups(source: string, nodes: readonly AstNode[]): AstNode[][] {
  const groups: AstNode[][] = [];
  let previous: AstNode | undefined;
  for (const node of nodes) {
    const gap = previous ? source.slice(previous.range().end.index, node.range().start.index) : '';
    const apart =
      !previous ||
      isSideEffect(node) ||
      isSideEffect(previous) ||
      /\S/.test(gap) ||
      (gap.match(/\n/g)?.length ?? 0) >= 2;
    if (apart) groups.push([node]);
    else groups.at(-1)!.push(node);
    previous = node;
  }
  return groups;
}

/**
 * The source with each group's imports replaced by its lines: written where the group's first import was, the
 * other imports gone with the line each stood on; a group left empty takes a blank line around it along. A file
 * with CRLF line ends keeps them.
 */
export function replaceImportGroups(
  source: string,
  groups: readonly { nodes: AstNode[]; lines: string[] }[],
) {
  const eol = source.includes('\r\n') ? '\r\n' : '\n';
  let out = '';
  let at = 0;
  const lineEnd = (index: number) =>
    source.startsWith('\r\n', index) ? index + 2 : source[index] === '\n' ? index + 1 : index;
  for (const { nodes, lines } of groups) {
    // Emptied between blank lines (or at the file's start or end): one of them goes too.
    const last = lineEnd(nodes.at(-1)!.range().end.index);
    const blankAfter = /^[ \t]*\r?\n/.exec(source.slice(last));
    let blankBefore: RegExpExecArray | null = null;
    if (lines.length === 0 && (blankAfter || last === source.length))
      blankBefore = /(?:^|\n)([ \t]*\r?\n)$/.exec(source.slice(at, nodes[0]!.range().start.index));
    const first = nodes[0]!.range().start.index === 0;
    nodes.forEach((node, i) => {
      let start = node.range().start.index;
      let end = lineEnd(node.range().end.index);
      if (i === 0 && blankBefore) start -= blankBefore[1]!.length;
      if (i === nodes.length - 1 && lines.length === 0 && first && blankAfter) end += blankAfter[0].length;
      out += source.slice(at, start);
      if (i === 0 && lines.length > 0) out += `${lines.join('\n')}\n`.replace(/\r?\n/g, eol);
      at = end;
    });
  }
  return out + source.slice(at);
}

/** The TS/JS file with its imports organised (unchanged when it has none); undefined for other languages. */
export function organizeImports(
  lang: LanguageSpec,
  source: string,
  style: ScriptImportStyle = {},
): string | undefined {
  if (!['typescript', 'tsx', 'javascript'].includes(lang.id)) return undefined;
  const root = parseSource(lang, source);
  const nodes = root.children().filter((n) => n.kind() === 'import_statement');
  if (nodes.length === 0) return source;
  const context = tsContext(lang, source, root, nodes, style);
  if (!context) return source;
  // A side-effect import stays as written; a later one of a module already run is dropped (it runs once).
  const ran = new Set<string>();
  const groups = importGroups(source, nodes).map((group) => {
    if (!isSideEffect(group[0]!)) return { nodes: group, lines: organizeTs(group, context) };
    const module = parseTsImport(group[0]!.text())!.module;
    const lines = ran.has(module) ? [] : [group[0]!.text()];
    ran.add(module);
    return { nodes: group, lines };
  });
  return replaceImportGroups(source, groups);
}
