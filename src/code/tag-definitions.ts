// A file's definitions from its syntax tree, by the rules of languages.ts (and commonjs.ts's assignments): name,
// kind, signature, doc comment, place, the class a member belongs to, and whether it is exported.
import type { AstNode } from './ast-grep.js';
import { type Assigned, assignedDefinitions, isRequire } from './commonjs.js';
import type { DefinitionRule, LanguageSpec, SymbolKind } from './languages.js';

export interface Definition {
  name: string;
  kind: SymbolKind;
  /** 1-based lines of the whole definition. */
  line: number;
  endLine: number;
  /** The declaration without its body, on one line. */
  signature: string;
  doc?: string;
  /** The class (struct, impl, mixin…) a method or field belongs to. */
  container?: string;
  exported: boolean;
}

const NAME = /^[A-Za-z_$][\w$]*$/;
const MAX_SIGNATURE = 200;
const MAX_DOC = 300;
/** Words that may precede a declaration on its line and belong in its signature. */
const PREFIX_WORDS = /^[\s\w@]*$/;

function nameOf(node: AstNode, rule: DefinitionRule): string | undefined {
  const field = node.field(rule.nameField ?? 'name');
  let text = field?.text();
  if (text === undefined) {
    const child = node.children().find((c) => /identifier/.test(c.kind()));
    text = child?.text();
  }
  if (text === undefined) return undefined;
  // Rust `impl<T> Trait for S<T>` and generic types: the bare name; `impl Log for &'_ T`, `for std::sync::Arc<T>`:
  // the type's own name, past the reference and the path.
  const bare = text
    .replace(/^&\s*('\w+\s+)?(mut\s+)?/, '')
    .replace(/<[\s\S]*$/, '')
    .replace(/^[\w:]*::/, '')
    .trim();
  return NAME.test(bare) ? bare : undefined;
}

function lineStart(source: string, index: number): number {
  return source.lastIndexOf('\n', index - 1) + 1;
}

function lineEnd(source: string, index: number): number {
  const end = source.indexOf('\n', index);
  return end < 0 ? source.length : end;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SIGNATURE ? `${flat.slice(0, MAX_SIGNATURE - 1)}…` : flat;
}

/** The declaration from its line's start (`export`, `pub`, modifiers) to its body, or its first line. */
function signatureOf(source: string, node: AstNode): string {
  const start = node.range().start.index;
  const from = lineStart(source, start);
  const begin = start - from < MAX_SIGNATURE && PREFIX_WORDS.test(source.slice(from, start)) ? from : start;
  const body = node.field('body');
  const end = body ? body.range().start.index : lineEnd(source, start);
  // Bounded: a long line (generated code, a big literal) must not be copied and flattened whole.
  let text = source.slice(begin, Math.min(Math.max(end, start), begin + 4 * MAX_SIGNATURE));
  let cut = text.length;
  while (cut > 0 && /[\s{:=]/.test(text[cut - 1]!)) cut -= 1;
  text = text.slice(0, cut);
  return oneLine(text);
}

const DOC_MARKERS = /^\s*(\/\*\*?|\*\/|\*|\/\/[/!]?|#)\s?|\s*\*\/\s*$/g;

/** How far up a doc comment is followed: past this, the lines above are taken for no doc. */
const MAX_DOC_LINES = 1000;

/**
 * A doc's beginning, its summary, in whole lines up to MAX_DOC characters, saying how many lines were left out (a
 * long doc's end is examples and notes; its first lines say what the symbol does).
 */
export function docSummary(lines: readonly string[]): string | undefined {
  const text = lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
  if (text.length === 0) return undefined;
  let kept = 0;
  let length = -1;
  while (kept < text.length && length + 1 + text[kept]!.length <= MAX_DOC) length += 1 + text[kept++]!.length;
  if (kept === text.length) return text.join(' ');
  // A first line longer than the whole budget: its start.
  const shown = kept > 0 ? text.slice(0, kept).join(' ') : `${text[0]!.slice(0, MAX_DOC - 1)}…`;
  const left = text.length - Math.max(kept, 1);
  return left > 0 ? `${shown} … (${left} more line${left === 1 ? '' : 's'})` : shown;
}

/** The comment lines right above the definition (decorators skipped), or a Python docstring. */
function docOf(source: string, node: AstNode, lang: LanguageSpec): string | undefined {
  const lines: string[] = [];
  let at = lineStart(source, node.range().start.index);
  while (at > 0 && lines.length < MAX_DOC_LINES) {
    const prevStart = lineStart(source, at - 1);
    const line = source.slice(prevStart, at - 1);
    if (/^\s*(@|#\[)/.test(line) && lines.length === 0) {
      at = prevStart;
      continue;
    }
    if (!lang.docComment.test(line)) break;
    lines.unshift(line);
    at = prevStart;
  }
  const doc = docSummary(lines.map((l) => l.replace(DOC_MARKERS, '')));
  if (doc || lang.id !== 'python') return doc;
  const body = node.field('body');
  const docstring =
    body && /^\s*(?:"""|''')([\s\S]*?)(?:"""|''')/.exec(source.slice(body.range().start.index));
  return docstring?.[1] === undefined ? undefined : docSummary(docstring[1].split('\n'));
}

interface Found {
  def: Definition;
  start: number;
  end: number;
  container: boolean;
  containerOnly: boolean;
}

function isExported(
  lang: LanguageSpec,
  source: string,
  node: AstNode,
  name: string,
  signature: string,
): boolean {
  switch (lang.exportRule) {
    case 'export-keyword': {
      const start = node.range().start.index;
      return /\bexport\b/.test(source.slice(lineStart(source, start), start)) || /^export\b/.test(signature);
    }
    case 'no-underscore':
      return !name.startsWith('_');
    case 'capitalised':
      return /^[A-Z]/.test(name);
    case 'pub':
      return /^pub\b/.test(signature);
    case 'public':
      return /\bpublic\b/.test(signature);
  }
}

/** `program`: the file's root, when it may define by assignment (commonjs.ts): its top-level statements are read. */
export function findDefinitions(
  lang: LanguageSpec,
  source: string,
  nodes: AstNode[],
  program?: AstNode,
): Definition[] {
  const rules = new Map(lang.definitions.map((rule) => [rule.kind, rule]));
  const found: Found[] = [];
  const assigned = program ? assignedDefinitions(program) : undefined;
  for (const { node, def } of assigned?.defined ?? []) found.push(definedAt(lang, source, node, def));
  for (const node of nodes) {
    const rule = rules.get(node.kind())!;
    if (rule.parents && !rules.get(node.kind())!.parents!.includes(node.parent()?.kind() ?? '')) continue;
    const parts = rule.each ? node.children().filter((c) => c.kind() === rule.each) : [node];
    for (const part of parts) {
      const name = nameOf(part, rule);
      if (!name || isRequire(part)) continue;
      const range = part.range();
      const signature = signatureOf(source, part);
      found.push({
        def: {
          name,
          // `let` is a lexical declaration too, but no constant.
          kind:
            rule.kind === 'lexical_declaration' && source.startsWith('let', node.range().start.index)
              ? 'variable'
              : rule.symbol,
          line: range.start.line + 1,
          endLine: node.range().end.line + 1,
          signature,
          exported: isExported(lang, source, part, name, signature),
          ...optional('doc', docOf(source, rule.each ? node : part, lang)),
        },
        start: range.start.index,
        end: node.range().end.index,
        container: lang.containers.includes(node.kind()),
        containerOnly: rule.containerOnly === true,
      });
    }
  }
  // In source order: the assigned functions were found apart.
  if (program) found.sort((a, b) => a.start - b.start);
  // What `module.exports` is set to is exported, with the functions assigned to its members.
  const exportedAs = assigned?.exportedAs;
  if (exportedAs && exportedAs.size > 0)
    for (const { def } of found)
      if (exportedAs.has(def.container ?? def.name) && (def.container !== undefined || def.kind !== 'method'))
        def.exported = true;
  return placeInContainers(found, lang.id === 'rust');
}

/** A definition found outside the language's rules (a CommonJS API's), at `node`. */
function definedAt(lang: LanguageSpec, source: string, node: AstNode, def: Assigned['def']): Found {
  const range = node.range();
  return {
    def: {
      ...def,
      line: range.start.line + 1,
      endLine: range.end.line + 1,
      signature: signatureOf(source, node),
      ...optional('doc', docOf(source, node, lang)),
    },
    start: range.start.index,
    end: range.end.index,
    container: false,
    containerOnly: false,
  };
}

const LOCAL_KINDS: ReadonlySet<SymbolKind> = new Set(['variable', 'constant', 'field']);
const BODY_KINDS: ReadonlySet<SymbolKind> = new Set(['function', 'method']);

/**
 * Methods get their class; variables inside a function body are locals, not definitions, and so are the methods of an
 * object literal there (an observer's `next`, a resolver's `string`): they would otherwise define names that every
 * file uses (`.next(`, `: string`) and rank their file first.
 */
function placeInContainers(found: Found[], rust = false): Definition[] {
  const containers = found.filter((f) => f.container);
  const bodies = found.filter((f) => BODY_KINDS.has(f.def.kind));
  const inside = (outer: Found, inner: Found) =>
    outer !== inner && outer.start <= inner.start && inner.end <= outer.end;
  const result: Definition[] = [];
  for (const f of found) {
    if (f.containerOnly) continue;
    if (LOCAL_KINDS.has(f.def.kind) && bodies.some((b) => inside(b, f))) continue;
    let owner: Found | undefined;
    for (const c of containers) if (inside(c, f) && (!owner || owner.start <= c.start)) owner = c;
    // A body between the definition and its innermost class: the function's own, not the class's; an object
    // literal's method there is none at all.
    const local = bodies.some((b) => inside(b, f) && (!owner || owner.start < b.start));
    if (f.def.kind === 'method' && local) continue;
    // A function's own definitions (a decorator's `wrapper`, a method's helper) are no module's exports.
    if (bodies.some((b) => inside(b, f))) f.def.exported = false;
    if (owner && !local) {
      f.def.container = owner.def.name;
      if (f.def.kind === 'function') f.def.kind = 'method';
      if (f.def.kind === 'variable' || f.def.kind === 'constant') f.def.kind = 'field';
      // A member is public when its class is, unless the language marks members themselves. A Rust `impl` block
      // has no visibility of its own: its `pub fn` is public.
      if (!owner.def.exported && !owner.containerOnly) f.def.exported = false;
      // A Rust trait's items are as public as the trait (they take no `pub`).
      if (rust && owner.def.kind === 'interface') f.def.exported = owner.def.exported;
    }
    result.push(f.def);
  }
  return result;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
