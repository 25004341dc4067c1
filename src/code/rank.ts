// Ranks a repository's files by a reference graph, as Aider does: file A → file B when A uses a name B defines,
// then PageRank personalised toward the files and names the conversation (or the caller) mentions.
import type { CodeIndex } from './code-index.js';

export interface RankOptions {
  /** Text naming files or symbols to favour: the focus argument and the conversation so far. */
  mentions?: string;
}

const DAMPING = 0.85;
const ITERATIONS = 40;

/** Names worth little as evidence of a dependency: private, or defined in many files (`constructor`, `init`). */
function nameWeight(name: string, definers: number, mentioned: boolean): number {
  let weight = 1;
  if (mentioned) weight *= 10;
  // Long, specific names (camelCase, snake_case) say more than short generic ones.
  if (name.length >= 8 && /[a-z][A-Z]|_[a-z]/.test(name)) weight *= 10;
  if (name.startsWith('_')) weight *= 0.1;
  if (definers > 5) weight *= 0.1;
  return weight;
}

/** Files named in the text: by path, or by a base name of at least 4 characters as a whole word. */
export function mentionedFiles(paths: Iterable<string>, text: string): Set<string> {
  const found = new Set<string>();
  if (!text) return found;
  const words = new Set(text.split(/[^\w.\-/]+/));
  for (const rel of paths) {
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const stem = base.replace(/\.[^.]*$/, '');
    if (text.includes(rel) || words.has(base) || (stem.length >= 4 && words.has(stem))) found.add(rel);
  }
  return found;
}

/** Files ranked most important first, with their scores. */
export function rankFiles(index: CodeIndex, options: RankOptions = {}): { path: string; score: number }[] {
  const paths = [...index.files.keys()];
  const position = new Map(paths.map((p, i) => [p, i]));
  const definers = new Map<string, number[]>();
  paths.forEach((p, i) => {
    for (const def of index.files.get(p)!.definitions) {
      const list = definers.get(def.name) ?? [];
      if (list.at(-1) !== i) list.push(i);
      definers.set(def.name, list);
    }
  });
  const text = options.mentions ?? '';
  const mentionedNames = new Set(text.match(/[A-Za-z_$][\w$]{3,}/g) ?? []);

  // Each name's weight once (not once per file using it): the regex in nameWeight is the costly part.
  const nameWeights = new Map<string, number>();
  for (const [name, targets] of definers)
    nameWeights.set(name, nameWeight(name, targets.length, mentionedNames.has(name)) / targets.length);

  // Weighted edges, as adjacency lists of (target, weight), normalised per source below.
  const edges: Map<number, number>[] = paths.map(() => new Map());
  paths.forEach((p, from) => {
    const out = edges[from]!;
    const references = index.files.get(p)!.references;
    for (const name in references) {
      const targets = definers.get(name);
      if (!targets) continue;
      const weight = nameWeights.get(name)! * Math.sqrt(references[name]!);
      for (const to of targets) if (to !== from) out.set(to, (out.get(to) ?? 0) + weight);
    }
  });

  const n = paths.length;
  if (n === 0) return [];
  const favoured = mentionedFiles(paths, text);
  for (const [name, list] of definers)
    if (mentionedNames.has(name) && list.length <= 5) for (const i of list) favoured.add(paths[i]!);
  const personal = new Float64Array(n).fill(favoured.size > 0 ? 0 : 1 / n);
  for (const p of favoured) personal[position.get(p)!] = 1 / favoured.size;

  // The graph in compressed rows (targets and weights normalised per source): iterating typed arrays is what
  // keeps 40 rounds over tens of thousands of edges fast.
  const offsets = new Int32Array(n + 1);
  edges.forEach((out, from) => {
    offsets[from + 1] = offsets[from]! + out.size;
  });
  const targets = new Int32Array(offsets[n]!);
  const weights = new Float64Array(offsets[n]!);
  edges.forEach((out, from) => {
    let total = 0;
    for (const weight of out.values()) total += weight;
    let at = offsets[from]!;
    for (const [to, weight] of out) {
      targets[at] = to;
      weights[at++] = weight / total;
    }
  });
  let rank = Float64Array.from(personal);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let from = 0; from < n; from++) {
      const start = offsets[from]!;
      const stop = offsets[from + 1]!;
      if (start === stop) {
        dangling += rank[from]!;
        continue;
      }
      const share = DAMPING * rank[from]!;
      for (let e = start; e < stop; e++) next[targets[e]!]! += share * weights[e]!;
    }
    // Rank leaking from files that use nothing, and the teleport, go back by the personalisation.
    for (let i = 0; i < n; i++) next[i]! += (DAMPING * dangling + (1 - DAMPING)) * personal[i]!;
    rank = next;
  }
  return paths
    .map((path, i) => ({ path, score: rank[i]! + (favoured.has(path) ? 1 : 0) }))
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
}
