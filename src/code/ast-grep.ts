// Loads @ast-grep/napi and the language packages lazily, once, when a code tool first runs (never at start-up).
import { createRequire } from 'node:module';
import type { NapiConfig, Range } from '@ast-grep/napi';
import type { LanguageSpec } from './languages.js';

type Napi = typeof import('@ast-grep/napi');

/** Parsers that ship as separate packages, registered with ast-grep under these names. */
const DYNAMIC_LANGUAGES: Record<string, string> = {
  python: '@ast-grep/lang-python',
  rust: '@ast-grep/lang-rust',
  go: '@ast-grep/lang-go',
  java: '@ast-grep/lang-java',
  dart: '@ast-grep/lang-dart',
};

let loaded: Napi | undefined;

/** Loads the parsers; throws when the native packages cannot be loaded (so that is not mistaken for a bad file). */
export function napi(): Napi {
  if (loaded) return loaded;
  // require, not import(): dist/keel.js runs the bundle from V8's code cache, where import() of a package outside
  // the bundle is not available on Node 20. Native code stays in node_modules beside the bundle.
  const require = createRequire(import.meta.url);
  const api = require('@ast-grep/napi') as Napi;
  const registrations = Object.fromEntries(
    Object.entries(DYNAMIC_LANGUAGES).map(([name, pkg]) => [name, require(pkg)]),
  );
  api.registerDynamicLanguage(registrations);
  loaded = api;
  return api;
}

/** The part of ast-grep's node we use, with kinds as plain strings (the grammars are loaded at run time). */
export interface AstNode {
  kind(): string;
  text(): string;
  range(): Range;
  field(name: string): AstNode | null;
  parent(): AstNode | null;
  next(): AstNode | null;
  prev(): AstNode | null;
  children(): AstNode[];
  namedChildren(): AstNode[];
  ancestors(): AstNode[];
  findAll(config: NapiConfig): AstNode[];
}

/** Whether two nodes are the same node of a tree (same place, same kind). */
export const sameNode = (a: AstNode | null | undefined, b: AstNode): boolean =>
  a !== null && a !== undefined && a.range().start.index === b.range().start.index && a.kind() === b.kind();

/** The syntax tree of `source` in the given language. */
export function parseSource(lang: LanguageSpec, source: string): AstNode {
  return napi().parse(lang.astGrep, source).root() as unknown as AstNode;
}

/** The syntax tree of `source`, built on the thread pool. */
export async function parseSourceAsync(lang: LanguageSpec, source: string): Promise<AstNode> {
  return (await napi().parseAsync(lang.astGrep, source)).root() as unknown as AstNode;
}

const validKinds = new Map<string, Set<string>>();

/** The kinds the grammar knows, of those asked: a rule naming an unknown kind is refused by ast-grep. */
function known(lang: LanguageSpec, kinds: readonly string[]): string[] {
  let valid = validKinds.get(lang.astGrep);
  if (!valid) {
    valid = new Set();
    validKinds.set(lang.astGrep, valid);
  }
  const api = napi();
  return kinds.filter((kind) => {
    if (valid.has(kind)) return true;
    try {
      if (api.kind(lang.astGrep, kind) > 0) valid.add(kind);
    } catch {
      // Not a node kind of this grammar.
    }
    return valid.has(kind);
  });
}

/** The nodes under `root` of these kinds, optionally whose text matches `regex`, in source order. */
export function findKinds(
  lang: LanguageSpec,
  root: AstNode,
  kinds: readonly string[],
  regex?: string,
): AstNode[] {
  const any = known(lang, kinds).map((kind) => (regex === undefined ? { kind } : { kind, regex }));
  return any.length === 0 ? [] : root.findAll({ rule: { any } } as NapiConfig);
}
