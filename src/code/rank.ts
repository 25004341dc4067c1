// Ranks a repository's files by how much of the project depends on them: PageRank over resolved imports and over
// names used in one file and defined in another, personalised toward the declared entry points and the files and
// names the conversation mentions. Tests, fixtures, examples, docs, config, generated and vendored files come last.
import type { CodeIndex } from './code-index.js';
import { isConfigFile, isPlatformFile, isSupportFile } from './file-roles.js';
import { mentionedIn } from './mentions.js';
import { pageRank, reversed } from './page-rank.js';
import { buildGraph, type Graph } from './rank-graph.js';

export interface RankOptions {
  /** Text naming files or symbols to favour: the focus argument and the conversation so far. */
  mentions?: string;
}

export interface RankedFile {
  path: string;
  score: number;
  /** 0 mentioned, 1 declared entry point, 2 the project's code, 3 tests, fixtures, examples, config, generated, vendored. */
  tier: number;
}

/** The tier of tests, fixtures, examples, docs, config, generated and vendored files: after the project's code. */
export const SUPPORT_TIER = 3;

/** Teleport weight of a support file, against 1 for the project's own code: its uses count, a little. */
const SUPPORT_WEIGHT = 0.1;
/** Teleport weight of a platform shim (`_winconsole.py`, `*_windows.go`): code the other systems do without. */
const PLATFORM_WEIGHT = 0.3;
/** Teleport share of the support files a word only matched, against 1 for the files the text favours. */
const LESSER_SHARE = 0.1;
/** How much depending on the project's files counts against being depended on. */
const HUB_SHARE = 1;

/** All that ranking needs, apart from what the conversation mentions: kept in the map cache between runs. */
export interface RankInput {
  paths: string[];
  graph: Graph;
  /** Per file, its number of definitions. */
  sizes: Int32Array;
  /** Per file, 1 for a test, fixture, example, doc, config, generated or vendored file. */
  support: Uint8Array;
  entryPoints: string[];
  packageEntryPoints: string[];
}

/** The graph and per-file facts of an index. */
export function prepareRank(index: CodeIndex): RankInput {
  const paths = [...index.files.keys()];
  const support = Uint8Array.from(paths, (p) =>
    isSupportFile(p) || isConfigFile(p) || index.files.get(p)!.generated === true ? 1 : 0,
  );
  return {
    paths,
    graph: buildGraph(index, paths, support),
    sizes: Int32Array.from(paths, (p) => index.files.get(p)!.definitions.length),
    support,
    entryPoints: index.project?.entryPoints ?? [],
    packageEntryPoints: index.project?.packageEntryPoints ?? [],
  };
}

/** The authority and hub scores of every file, for one personalisation. */
export interface Scores {
  authority: Float64Array;
  hub: Float64Array;
}

/**
 * Files ranked most important first: mentioned files, declared entry points, the project's code, then the rest.
 * `base`: the scores with nothing mentioned (kept in the map cache), the answer when nothing is, and where the
 * iterations start when something is. Returns the scores too, and whether a mention personalised them.
 */
export function rankScored(
  input: RankInput,
  mentions = '',
  base?: Scores,
): { ranked: RankedFile[]; scores: Scores; personalised: boolean } {
  const { paths, graph, support } = input;
  const n = paths.length;
  const none = new Float64Array(0);
  if (n === 0) return { ranked: [], scores: { authority: none, hub: none }, personalised: false };
  // A support file only a word matched (a test's `code`, docs/conf.py's `project`) leads the support files, no more.
  const { favoured, lesser } = mentionedIn(paths, support, graph, mentions);
  const entries = new Set(input.entryPoints);
  const usable = base && base.authority.length === n && base.hub.length === n ? base : undefined;
  const scores =
    usable && favoured.size === 0 && lesser.size === 0
      ? usable
      : personalised(input, personalisation(input, entries, favoured, lesser), usable);
  const { authority, hub } = scores;
  const tierOf = (p: string, i: number) =>
    favoured.has(p) ? 0 : entries.has(p) ? 1 : support[i] ? SUPPORT_TIER : 2;
  const ranked = paths
    .map((path, i) => ({ path, score: authority[i]! + HUB_SHARE * hub[i]!, tier: tierOf(path, i) }))
    .sort((a, b) => a.tier - b.tier || b.score - a.score || (a.path < b.path ? -1 : 1));
  return { ranked, scores, personalised: favoured.size > 0 || lesser.size > 0 };
}

/**
 * The teleport vector: every file by its size, support files little, platform shims less, entry points and
 * mentioned files more.
 */
function personalisation(
  input: RankInput,
  entries: Set<string>,
  favoured: Set<string>,
  lesser = new Set<string>(),
): Float64Array {
  const { paths, support } = input;
  const n = paths.length;
  const packageEntries = new Set(input.packageEntryPoints);
  const personal = new Float64Array(n);
  let base = 0;
  // Larger files hold more of the project: their share of the teleport grows with the root of their definitions.
  for (let i = 0; i < n; i++) {
    const weight = support[i] ? SUPPORT_WEIGHT : isPlatformFile(paths[i]!) ? PLATFORM_WEIGHT : 1;
    base += personal[i] = weight * Math.sqrt(1 + input.sizes[i]!);
  }
  const boost = (set: Set<string>, share: number) => {
    if (set.size === 0) return;
    for (let i = 0; i < n; i++) if (set.has(paths[i]!)) personal[i]! += (base * share) / set.size;
  };
  boost(entries, 0.3);
  boost(packageEntries, 0.2);
  boost(favoured, 1);
  boost(lesser, LESSER_SHARE);
  let total = 0;
  for (let i = 0; i < n; i++) total += personal[i]!;
  for (let i = 0; i < n; i++) personal[i]! /= total;
  return personal;
}

/**
 * Authority (what the project depends on) plus hub (what depends on much of the project: the main class, the
 * facade), so the core shows beside the helpers everything uses.
 */
function personalised(input: RankInput, personal: Float64Array, start?: Scores): Scores {
  const { graph } = input;
  return {
    authority: pageRank(graph, personal, start?.authority),
    hub: pageRank(reversed(graph, input.paths.length), personal, start?.hub),
  };
}

/** The scores with nothing mentioned, from `start` when given: what the map cache keeps. */
export function baseScores(input: RankInput, start?: Scores): Scores {
  const entries = new Set(input.entryPoints);
  return personalised(input, personalisation(input, entries, new Set()), start);
}

/** Files ranked most important first: mentioned files, declared entry points, the project's code, then the rest. */
export function rankPrepared(input: RankInput, mentions = ''): RankedFile[] {
  return rankScored(input, mentions).ranked;
}

export function rankFiles(index: CodeIndex, options: RankOptions = {}): RankedFile[] {
  return rankPrepared(prepareRank(index), options.mentions);
}
