// The codebase map between runs: the ranking graph, its scores with nothing mentioned and each file's definitions,
// kept under a fingerprint of the source files' paths, sizes and times (and the root manifests' and .gitignores'),
// so a warm map stats the tree (walking it only when a directory changed) and reads neither the tags cache nor any
// source file; it ranks from the kept scores and reads the definitions of only the files it shows.
import { closeSync, promises as fs, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { ownName } from '../core/replace-file.js';
import { cacheWrites, removeLeftovers, settleCache } from './cache-writes.js';
import { cacheFileFor, type LoadOptions, loadCodeIndex } from './code-index.js';
import { indexLanguageOf, indexSource } from './languages.js';
import { cachedListing, type Listing, listedOf, walkListing } from './map-listing.js';
import {
  definitionsFileOf,
  encodeMapCache,
  type MapCache,
  readMapCacheFile,
  writeMapCacheFile,
} from './map-store.js';
import { baseScores, prepareRank, type RankInput, rankScored, type Scores } from './rank.js';
import { type RepoMap, renderMap } from './repo-map.js';
import { type Definition, extractTags } from './tags.js';

/**
 * A cold map needing more parses than this scans files instead (quick-tags.ts) for the ranking, and parses only the
 * files it shows: 28k files scanned cost what ~3k parses do.
 */
const QUICK_ABOVE = 4000;

export interface LoadedMap {
  map: RepoMap;
  files: number;
  /** Files parsed for this map (0 when the map cache answered). */
  parsed: number;
  /** Files ranked from a lexical scan rather than a parse (a large repository's first map). */
  scanned: number;
}

interface Reader {
  read: (i: number) => Definition[];
  close: () => void;
}

/** Reads one file's definitions from the definitions file, by its offsets. */
function definitionsReader(file: string, cache: MapCache): Reader | undefined {
  const offsets = cache.definitionOffsets;
  let fd: number;
  try {
    fd = openSync(path.join(path.dirname(file), cache.definitionsFile), 'r');
  } catch {
    return undefined;
  }
  const read = (i: number): Definition[] => {
    const start = offsets[i]!;
    const length = offsets[i + 1]! - start;
    if (!(length > 0)) return [];
    const bytes = Buffer.alloc(length);
    try {
      readSync(fd, bytes, 0, length, start);
      return JSON.parse(bytes.toString('utf8')) as Definition[];
    } catch {
      return [];
    }
  };
  return { read, close: () => closeSync(fd) };
}

/**
 * Writes the definitions file (under a name of its own, so a reader of the old cache never reads the new
 * definitions), then the cache, then removes the definitions file the old cache named.
 */
async function writeMapCache(
  file: string,
  listing: Listing,
  input: RankInput,
  quick: Uint8Array,
  all: Definition[][],
  base: () => Scores,
): Promise<void> {
  const texts = all.map((d) => Buffer.from(d.length > 0 ? JSON.stringify(d) : ''));
  const offsets = new Float64Array(texts.length + 1);
  texts.forEach((t, i) => {
    offsets[i + 1] = offsets[i]! + t.length;
  });
  const previous = definitionsFileOf(file);
  const name = path.basename(ownName(file.replace(/\.json$/, ''), 'defs'));
  try {
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await removeLeftovers(file, previous);
    await fs.writeFile(path.join(path.dirname(file), name), Buffer.concat(texts), { mode: 0o600 });
  } catch {
    return;
  }
  const cache: MapCache = {
    fingerprint: listing.fingerprint,
    input,
    quick,
    base: base(),
    unranked: unrankedOf(listing, input),
    dirs: listing.dirs,
    dirTimes: listing.dirTimes,
    ignores: listing.ignores,
    definitionsFile: name,
    definitionOffsets: offsets,
  };
  await writeMapCacheFile(file, encodeMapCache(cache));
  if (previous && previous !== name && !previous.includes('/'))
    await fs.rm(path.join(path.dirname(file), previous), { force: true });
}

/** Listed source files the ranking left out (too large or unreadable for the index). */
function unrankedOf(listing: Listing, input: RankInput): string[] {
  if (listing.paths.length === input.paths.length) return [];
  const ranked = new Set(input.paths);
  return listing.paths.filter((p) => !ranked.has(p));
}

/** The listing of the tree, from the cache's when no directory changed and nothing else did either. */
async function listingFor(root: string, cached: MapCache | undefined, signal?: AbortSignal) {
  // The listing was the ranked files and those the ranking left out: the same paths, in the same (sorted) order.
  const listed = cached?.unranked.length
    ? [...cached.input.paths, ...cached.unranked].sort()
    : cached?.input.paths;
  const kept =
    cached && listed ? cachedListing(root, listed, cached.dirs, cached.dirTimes, cached.ignores) : undefined;
  // A changed .gitignore changes which files are listed: a changed fingerprint walks again.
  return kept && kept.fingerprint === cached?.fingerprint ? kept : walkListing(root, signal);
}

/** The map of the repository at `root`, from the map cache when nothing changed, else from the code index. */
export async function loadRepoMap(
  root: string,
  options: LoadOptions,
  maxTokens: number,
  mentions: string,
): Promise<LoadedMap> {
  await cacheWrites();
  const file = options.cacheDir ? cacheFileFor(options.cacheDir, root, 'map') : undefined;
  const cached = file ? readMapCacheFile(file) : undefined;
  const listing = file ? await listingFor(root, cached, options.signal) : undefined;
  const hit = cached && listing && cached.fingerprint === listing.fingerprint ? cached : undefined;
  let reader = file && hit ? definitionsReader(file, hit) : undefined;
  let input: RankInput;
  let quick: Uint8Array;
  let base: Scores | undefined;
  let all: Definition[][] | undefined;
  let parsed = 0;
  let scanned = 0;
  let tagsWrite: (() => Promise<void>) | undefined;
  if (hit && reader) {
    ({ input, quick, base } = hit);
  } else {
    const quickAbove = options.quickAbove ?? QUICK_ABOVE;
    const index = await loadCodeIndex(root, {
      ...options,
      quickAbove,
      ...(listing ? { listed: listedOf(listing) } : {}),
      deferWrite: (write) => {
        tagsWrite = write;
      },
    });
    parsed = index.stats.parsed;
    scanned = index.stats.quick;
    input = prepareRank(index);
    const defs = input.paths.map((p) => index.files.get(p)!.definitions);
    all = defs;
    quick = Uint8Array.from(input.paths, (p) => (index.files.get(p)!.quick ? 1 : 0));
    reader = { read: (i) => defs[i]!, close: () => {} };
  }
  const { read } = reader;
  const position = new Map(input.paths.map((p, i) => [p, i]));
  // A shown file ranked from a scan is parsed for its definitions: signatures, members and doc comments exact.
  const exact = new Map<number, Definition[]>();
  const definitionsOf = (p: string): Definition[] => {
    const i = position.get(p)!;
    if (!quick[i]) return read(i);
    const definitions = parsedDefinitions(root, p);
    if (!definitions) return read(i);
    parsed += 1;
    exact.set(i, definitions);
    return definitions;
  };
  const { ranked, scores, personalised } = rankScored(input, mentions, base);
  let map: RepoMap;
  try {
    map = renderMap(ranked, (p) => input.sizes[position.get(p)!]!, definitionsOf, maxTokens);
  } finally {
    reader.close();
  }
  if (file && listing && all) {
    // The files parsed for this map keep their exact definitions, so the next map need not parse them again.
    for (const [i, definitions] of exact) {
      all[i] = definitions;
      quick[i] = 0;
    }
    const defs = all;
    const baseOf = () => (personalised ? baseScores(input, scores) : scores);
    const tags = tagsWrite;
    // The map cache first (the next map's), then the tags cache (the next map after a change reads it rather than
    // every file): one after the other, so a run closing at once has the map's ready soonest.
    await settleCache(async () => {
      await writeMapCache(file, listing, input, quick, defs, baseOf);
      await tags?.();
    }, defs.length);
  } else if (tagsWrite) await settleCache(tagsWrite, input.paths.length);
  return { map, files: input.paths.length, parsed, scanned };
}

/** The definitions of one file from its syntax tree; undefined when it cannot be read or parsed now. */
function parsedDefinitions(root: string, rel: string): Definition[] | undefined {
  const lang = indexLanguageOf(rel);
  if (!lang) return undefined;
  try {
    return extractTags(lang, indexSource(rel, readFileSync(path.join(root, rel), 'utf8'))).definitions;
  } catch {
    return undefined;
  }
}
