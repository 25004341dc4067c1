// What the conversation mentions of a repository, for the map's ranking: files by path or name, symbols by name.
// The words every request uses (project, code, this, works, describe, explain) mention nothing, and a test's, a
// doc's or a config file's symbol matched by a word counts less than the project's own.
import type { Graph } from './rank-graph.js';

/**
 * Words of requests and of prose about code, not names of anything in particular: "describe this project",
 * "explain how the code works". Only words of 4 letters or more: shorter ones are never taken as mentions.
 */
const GENERIC_WORDS = new Set(
  (
    'about above after again also always another anything around back been before being below best between both ' +
    'could does doing done down during each either else even ever every everything fine first from further give ' +
    'good have having here into just know last like little look looks make makes many maybe more most much must ' +
    'need needs next none only other ours over please quite really same seem seems should show shown some ' +
    'something still such sure take tell than thank thanks that their them then there these they thing things ' +
    'this those through under until upon very want wants well were what when where whether which while will with ' +
    'within without would your yours ' +
    // Requests and the words about code in them.
    'describe described describes explain explained explains explanation summarize summarise summary overview ' +
    'understand understanding walk help learn figure wonder wondering idea ideas detail details brief briefly ' +
    'overall general high level whole entire quick context purpose part parts piece pieces stuff main start ' +
    'starts started starting getting together entry entries point points handle handled handles handling ' +
    'project projects code codes codebase repo repos repository repositories source sources file files folder ' +
    'folders directory directories structure structured architecture design designed logic implementation ' +
    'implemented feature features function functions method methods class classes module modules package ' +
    'packages library libraries work works working worked used uses using happen happens happening ' +
    'test tests testing tested'
  ).split(' '),
);

/** True for a word of prose, not a name: a generic word, in lower case or capitalised at a sentence's start. */
export function isGenericWord(word: string): boolean {
  return /^[A-Za-z][a-z]*$/.test(word) && GENERIC_WORDS.has(word.toLowerCase());
}

/**
 * Names the text mentions (4 characters or more), generic words left out unless written as code (`` `describe` ``).
 */
export function mentionedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const span of text.match(/`[^`\n]+`/g) ?? [])
    for (const name of span.match(/[A-Za-z_$][\w$]{3,}/g) ?? []) names.add(name);
  for (const name of text.match(/[A-Za-z_$][\w$]{3,}/g) ?? []) if (!isGenericWord(name)) names.add(name);
  return names;
}

/** Files the text names: by path or base name (`test/hooks.ts`, `hooks.ts`), or by a stem of 4 characters or more. */
export function mentionedFiles(
  paths: Iterable<string>,
  text: string,
): { named: Set<string>; stem: Set<string> } {
  const named = new Set<string>();
  const stem = new Set<string>();
  if (!text) return { named, stem };
  const words = new Set(text.split(/[^\w.\-/]+/));
  for (const rel of paths) {
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const bare = base.replace(/\.[^.]*$/, '');
    if (text.includes(rel) || words.has(base)) named.add(rel);
    else if (bare.length >= 4 && words.has(bare) && !isGenericWord(bare)) stem.add(rel);
  }
  return { named, stem };
}

/** A mentioned name defined in more files than this says nothing about which. */
const MAX_DEFINERS = 5;

/**
 * The files the text favours: `favoured`, the project's own files it names or whose names it mentions, and any file
 * it names by path or base name; `lesser`, support files (tests, docs, examples, config, generated) that only a
 * stem or a symbol's name matched: "how does retry work" is about the code's retry, not test/retry.ts's.
 */
export function mentionedIn(
  paths: readonly string[],
  support: Uint8Array,
  graph: Graph,
  text: string,
): { favoured: Set<string>; lesser: Set<string> } {
  const { named, stem } = mentionedFiles(paths, text);
  const matched = new Set<number>();
  paths.forEach((p, i) => {
    if (stem.has(p)) matched.add(i);
  });
  const names = text ? mentionedNames(text) : new Set<string>();
  if (names.size > 0)
    graph.names.forEach((name, id) => {
      const start = graph.nameOffsets[id]!;
      const stop = graph.nameOffsets[id + 1]!;
      if (stop - start <= MAX_DEFINERS && names.has(name.replace(/^\./, '')))
        for (let d = start; d < stop; d++) matched.add(graph.definers[d]!);
    });
  const favoured = new Set(named);
  const lesser = new Set<string>();
  for (const i of matched) {
    const p = paths[i]!;
    if (!named.has(p)) (support[i] ? lesser : favoured).add(p);
  }
  return { favoured, lesser };
}
