// A file's tags: its definitions (name, kind, signature, doc comment, place), imports and the names its code uses.
// Generic over the language tables of languages.ts; definitions and imports come from the tree-sitter tree.
import { type AstNode, findKinds, parseSource } from './ast-grep.js';
import { COMMONJS_LANGUAGES, mayAssign } from './commonjs.js';
import { isGeneratedText, isMinifiedText } from './file-roles.js';
import { findImports, type Import, type LocalExport, requireImports } from './imports.js';
import type { LanguageId, LanguageSpec } from './languages.js';
import { referencesWithImports } from './name-uses.js';
import { type Definition, findDefinitions } from './tag-definitions.js';

export type { Import, ImportedName, LocalExport } from './imports.js';
export type { Definition } from './tag-definitions.js';

export interface FileTags {
  language: LanguageId;
  definitions: Definition[];
  imports: Import[];
  /** Export statements of the module's own names (`export { a as b }`, `export default x`), when it has any. */
  exports?: LocalExport[];
  /**
   * Names used in code (not in comments or strings), with how often: the edges of the reference graph. One string
   * `name count name count …` per file: 28k files' tags as objects of names cost seconds of garbage collection.
   * Read it with referenceCount and forEachReference.
   */
  references: string;
  /** Generated or minified: kept for search, ranked last by the map. */
  generated?: boolean;
  /** From a lexical scan (quick-tags.ts), not a syntax tree: top-level definitions only, no end lines. */
  quick?: boolean;
}

/** How often a file's code uses `name`, bare, as a member or as a variable it declares (0: not at all). */
export function referenceCount(tags: FileTags, name: string): number {
  const text = ` ${tags.references} `;
  let total = 0;
  for (const key of [` ${name} `, ` .${name} `, ` ~${name} `, ` :${name} `, ` '${name} `]) {
    // Counts are digits and names never are, so the key can only match a name.
    const at = text.indexOf(key);
    if (at < 0) continue;
    const from = at + key.length;
    total += Number(text.slice(from, text.indexOf(' ', from)));
  }
  return total;
}

/**
 * Each name a file's code uses, with how often: `.name` for a use as a member (after a `.`), `:name` after a `::`
 * (a type's or a module's), `~name` for a name the file also declares a variable of (`const name`), `'name` as a
 * property name or a parameter's (`{ name: 1 }`, `f(name: T)`): said, not used.
 */
export function forEachReference(tags: FileTags, each: (name: string, count: number) => void): void {
  if (!tags.references) return;
  const parts = tags.references.split(' ');
  for (let i = 0; i + 1 < parts.length; i += 2) each(parts[i]!, Number(parts[i + 1]));
}

/** Parses `source` (unless its tree is given) and reads its tags. */
export function extractTags(lang: LanguageSpec, source: string, tree?: AstNode): FileTags {
  if (isMinifiedText(source))
    return { language: lang.id, definitions: [], imports: [], references: '', generated: true };
  const root = tree ?? parseSource(lang, source);
  // One search of the tree for definitions and imports alike: each search crosses into native code and back.
  const importKinds = new Set(lang.imports);
  const definitionKinds = new Set(lang.definitions.map((rule) => rule.kind));
  const nodes = findKinds(lang, root, [...new Set([...definitionKinds, ...importKinds])]);
  const kinds = nodes.map((node) => node.kind());
  const { imports, exports, skip } = findImports(
    lang,
    nodes.filter((_, i) => importKinds.has(kinds[i]!)),
  );
  // CommonJS: `require('m')` calls are imports too (searched for only where the text has one).
  if (COMMONJS_LANGUAGES.has(lang.id) && /\brequire\s*\(/.test(source)) {
    imports.push(...requireImports(findKinds(lang, root, ['call_expression'], '^require\\s*\\(')));
    imports.sort((a, b) => a.line - b.line);
  }
  return {
    language: lang.id,
    definitions: findDefinitions(
      lang,
      source,
      nodes.filter((_, i) => definitionKinds.has(kinds[i]!)),
      mayAssign(lang.id, source) ? root : undefined,
    ),
    imports,
    ...(exports.length > 0 ? { exports } : {}),
    references: referencesWithImports(lang, source, skip, imports),
    ...(isGeneratedText(source) ? { generated: true } : {}),
  };
}
