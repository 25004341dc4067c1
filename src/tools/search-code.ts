// search_code: fuzzy search over the repository's definitions (functions, classes, types, methods…).
import * as z from 'zod';
import { isSupportFile } from '../code/file-roles.js';
import { fuzzyScore } from '../code/fuzzy.js';
import { SYMBOL_KINDS, type SymbolKind } from '../code/languages.js';
import type { Definition } from '../code/tags.js';
import { shownPath } from '../core/shown-path.js';
import { codeIndexOf } from './code-index-of.js';
import { defineTool, ok } from './tool.js';

const schema = z.strictObject({
  query: z.string().min(1),
  kind: z.enum(SYMBOL_KINDS as [SymbolKind, ...SymbolKind[]]).optional(),
});

const MAX_RESULTS = 40;
/** English words that join a query's words (a sentence-like query), left out when others remain. */
const FILLER = new Set(
  'a an the of to in on at by for from with without and or is are be that this it its as into how where what which when does do should can'.split(
    ' ',
  ),
);

/** Under this many names matching every word of a query, up to SOME_AFTER matching some follow them. */
const FEW = 5;
const SOME_AFTER = 10;
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
/** What a word found in a definition's parameters (or bases) counts: `mount(component, options)` for "mount component". */
const PARAMETER_WEIGHT = 0.5;

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

/** A word of several in the parameters (a class's bases) of a definition whose name lacks it, weighted; 0 if none. */
function parameterScore(word: string, def: { name: string; signature: string }): number {
  const open = def.signature.indexOf('(', Math.max(0, def.signature.indexOf(def.name)));
  if (open < 0) return 0;
  let best = 0;
  for (const [identifier] of def.signature.slice(open).matchAll(/[A-Za-z_$][\w$]*/g))
    best = Math.max(best, wordScore(word, identifier));
  return best * PARAMETER_WEIGHT;
}

interface Hit {
  path: string;
  def: Definition;
  /** The query's words matched, in the name or beside it (its class, its parameters). */
  words: number;
  /** Those in the name itself. */
  inName: number;
  score: number;
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
    // Words that only join the others ("search a file with memory map") match everything and say nothing.
    const words = args.query.split(/[\s,]+/).filter(Boolean);
    const meaningful = words.filter((word) => !FILLER.has(word.toLowerCase()));
    const terms = words.length > 1 && meaningful.length > 0 ? meaningful : words;
    const match = terms.length === 1 ? fuzzyScore : wordScore;
    const all: Hit[] = [];
    const some: Hit[] = [];
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
            score > 0 || terms.length === 1
              ? score
              : Math.max(
                  def.container === undefined ? 0 : wordScore(terms[i]!, def.container) * CONTAINER_WEIGHT,
                  parameterScore(terms[i]!, def),
                ),
          )
          .filter((score) => score > 0);
        const score = scores.reduce((sum, n) => sum + n, 0) * weight;
        const hit = { path, def, words: scores.length, inName, score };
        if (scores.length === terms.length) all.push(hit);
        else some.push(hit);
      }
    }
    // Most words first, then most of them in the name itself (BlogPage before BlogPersonRelationship.page for
    // "blog page"), then the closer match.
    const order = (a: Hit, b: Hit) =>
      b.words - a.words ||
      b.inName - a.inName ||
      b.score - a.score ||
      a.path.localeCompare(b.path) ||
      a.def.line - b.def.line;
    all.sort(order);
    some.sort(order);
    const line = ({ path, def }: Hit) =>
      `${shownPath(path)}:${def.line} ${def.kind} ${def.container ? `${def.container}.` : ''}${def.name}: ${def.signature}`;
    const lines = all.slice(0, MAX_RESULTS).map(line);
    // Few names match every word: the best of those matching some follow, marked (what was meant may lack a word).
    const room =
      all.length === 0
        ? Math.min(some.length, MAX_RESULTS)
        : all.length < FEW
          ? Math.min(some.length, SOME_AFTER)
          : 0;
    if (room > 0) {
      lines.push(
        all.length === 0
          ? `(no ${args.kind ?? 'symbol'} matches all of ${terms.join(', ')}; these match some)`
          : '(these match some of the words)',
        ...some.slice(0, room).map(line),
      );
    }
    const hits = all.length + some.length;
    const more = all.length - Math.min(all.length, MAX_RESULTS);
    const moreSome = some.length - room;
    if (more > 0) lines.push(`[${more} more matches; refine the query]`);
    else if (moreSome > 0 && all.length > 0)
      lines.push(`[${moreSome} more match some of the words; refine the query]`);
    else if (moreSome > 0) lines.push(`[${moreSome} more matches; refine the query]`);
    if (lines.length === 0) lines.push(`(no ${args.kind ?? 'symbol'} matches ${args.query})`);
    return ok(lines.join('\n'), { matches: hits }, `${hits} symbols match ${args.query}`);
  },
});
