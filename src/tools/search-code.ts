// search_code: fuzzy search over the repository's definitions (functions, classes, types, methods…).
import { z } from 'zod';
import { isSupportFile } from '../code/file-roles.js';
import { fuzzyScore } from '../code/fuzzy.js';
import { SYMBOL_KINDS, type SymbolKind } from '../code/languages.js';
import { codeIndexOf } from './code-index-of.js';
import { defineTool, ok } from './tool.js';

const schema = z.object({
  query: z.string().min(1),
  kind: z.enum(SYMBOL_KINDS as [SymbolKind, ...SymbolKind[]]).optional(),
});

const MAX_RESULTS = 40;
/** A test's, an example's or a generated file's match counts half: `createRouter` in an example after the library's. */
const SUPPORT_WEIGHT = 0.5;

/** A word's forms without its plural or -y ending: columns → column, classes → class, dependency → dependenc. */
function stems(word: string): string[] {
  const found = new Set<string>();
  if (word.length > 3 && /s$/i.test(word)) found.add(word.slice(0, -1));
  if (word.length > 4 && /es$/i.test(word)) found.add(word.slice(0, -2));
  if (word.length > 4 && /(ies|y)$/i.test(word)) found.add(word.replace(/(ies|y)$/i, ''));
  return [...found];
}

/** What a word found in a member's class name counts, against 1 in its own name. */
const CONTAINER_WEIGHT = 0.6;

/**
 * One word of several in a name: as a part of it, not scattered letters (a lone query keeps the fuzzy-finder's
 * subsequences: "gcm" finds getCodebaseMap, but "table" among three words must not match set_renderable). A word
 * matches its other number a little lower ("columns": add_column, "dependency": solve_dependencies).
 */
export function wordScore(word: string, name: string): number {
  let best = 0;
  for (const [candidate, weight] of [
    [word, 1] as const,
    ...stems(word).map((stem) => [stem, 0.8] as const),
  ]) {
    if (name.toLowerCase().includes(candidate.toLowerCase()))
      best = Math.max(best, fuzzyScore(candidate, name) * weight);
  }
  return best;
}

export const searchCodeTool = defineTool({
  name: 'search_code',
  description: 'Fuzzy-find symbol definitions by name, optionally of one kind.',
  schema,
  safety: 'safe',
  async preview(args, ctx) {
    return { reads: [ctx.workspace.root], writes: [], summary: `search symbols for ${args.query}` };
  },
  async execute(args, ctx) {
    const index = await codeIndexOf(ctx);
    // Several words ("retry transport", "parse_args, Config", "table render"): each is matched on its own, in the
    // name or in its class's ("Table render" finds Table._render). Names matching all of them come first; when none
    // does, those matching some, most words first.
    const terms = args.query.split(/[\s,]+/).filter(Boolean);
    const match = terms.length === 1 ? fuzzyScore : wordScore;
    const all = [];
    const some = [];
    for (const [path, tags] of index.files) {
      // The project's own code before its tests, examples, docs and generated files, on a like match.
      const weight = isSupportFile(path) || tags.generated ? SUPPORT_WEIGHT : 1;
      for (const def of tags.definitions) {
        if (args.kind && def.kind !== args.kind) continue;
        // A word in the name, or (of several) in its class's: its class's name alone does not make a member a
        // match (ReactiveEffect's fields for "reactive effect").
        const named = terms.map((term) => match(term, def.name));
        const inName = named.filter((score) => score > 0).length;
        if (inName === 0) continue;
        const scores = named
          .map((score, i) =>
            score > 0 || terms.length === 1 || def.container === undefined
              ? score
              : wordScore(terms[i]!, def.container) * CONTAINER_WEIGHT,
          )
          .filter((score) => score > 0);
        const score = scores.reduce((sum, n) => sum + n, 0) * weight;
        const hit = { path, def, words: scores.length, inName, score };
        if (scores.length === terms.length) all.push(hit);
        else some.push(hit);
      }
    }
    const partial = all.length === 0 && some.length > 0;
    const hits = partial ? some : all;
    // Most words first, then most of them in the name itself (BlogPage before BlogPersonRelationship.page for
    // "blog page"), then the closer match.
    hits.sort(
      (a, b) =>
        b.words - a.words ||
        b.inName - a.inName ||
        b.score - a.score ||
        a.path.localeCompare(b.path) ||
        a.def.line - b.def.line,
    );
    const lines = hits
      .slice(0, MAX_RESULTS)
      .map(
        ({ path, def }) =>
          `${path}:${def.line} ${def.kind} ${def.container ? `${def.container}.` : ''}${def.name}: ${def.signature}`,
      );
    if (hits.length > MAX_RESULTS)
      lines.push(`[${hits.length - MAX_RESULTS} more matches; refine the query]`);
    if (partial)
      lines.unshift(`(no ${args.kind ?? 'symbol'} matches all of ${terms.join(', ')}; these match some)`);
    if (lines.length === 0) lines.push(`(no ${args.kind ?? 'symbol'} matches ${args.query})`);
    return ok(lines.join('\n'), { matches: hits.length }, `${hits.length} symbols match ${args.query}`);
  },
});
