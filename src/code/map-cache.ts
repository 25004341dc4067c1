// The codebase map between runs: the ranking graph and each file's definitions, kept under a fingerprint of the
// source files' paths, sizes and times (and the root manifests'), so a warm map walks and stats the tree but reads
// neither the tags cache nor any source file, and parses the definitions of only the files it shows.
import { createHash } from 'node:crypto';
import { closeSync, promises as fs, openSync, readFileSync, readSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import {
  cacheFileFor,
  cacheWrites,
  type Listed,
  type LoadOptions,
  loadCodeIndex,
  settleCache,
  writeCache,
} from './code-index.js';
import { languageOf } from './languages.js';
import { prepareRank, type RankInput, rankPrepared } from './rank.js';
import { type RepoMap, renderMap } from './repo-map.js';
import { listSourceFiles } from './source-files.js';
import { type Definition, extractTags } from './tags.js';

const MAP_CACHE_VERSION = 2;
/**
 * A cold map needing more parses than this scans files instead (quick-tags.ts) for the ranking, and parses only the
 * files it shows: 28k files scanned cost what ~3k parses do.
 */
const QUICK_ABOVE = 4000;
const MANIFESTS = ['package.json', 'pyproject.toml', 'go.mod', 'Cargo.toml'];

export interface LoadedMap {
  map: RepoMap;
  files: number;
  /** Files parsed for this map (0 when the map cache answered). */
  parsed: number;
  /** Files ranked from a lexical scan rather than a parse (a large repository's first map). */
  scanned: number;
}

interface MapCache {
  version: number;
  fingerprint: string;
  paths: string[];
  entryPoints: string[];
  packageEntryPoints: string[];
  /** Typed arrays, base64; `quick`: 1 for a file whose definitions came from a scan. */
  sizes: string;
  quick: string;
  support: string;
  offsets: string;
  targets: string;
  weights: string;
  nameOffsets: string;
  definers: string;
  /** Names joined by newlines. */
  names: string;
  /** The file beside this one holding each file's definitions as JSON text, and where each starts (bytes). */
  definitionsFile: string;
  definitionOffsets: string;
}

/** Paths, sizes and times of the source files and manifests, hashed: any change, addition or removal changes it. */
async function fingerprintOf(
  root: string,
  signal?: AbortSignal,
): Promise<{ fingerprint: string; listed: Listed }> {
  const paths = await listSourceFiles(root, signal);
  const stats: (Stats | undefined)[] = [];
  const lines: string[] = [];
  for (const rel of [...paths, ...MANIFESTS]) {
    const stat = statSync(`${root}/${rel}`, { throwIfNoEntry: false });
    lines.push(stat ? `${rel}\0${stat.mtimeMs}\0${stat.size}\n` : `${rel}\0\n`);
    if (stats.length < paths.length) stats.push(stat);
  }
  return { fingerprint: createHash('sha1').update(lines.join('')).digest('hex'), listed: { paths, stats } };
}

const encode = (array: ArrayBufferView) =>
  Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');

function decode<T>(text: string, Type: { new (buffer: ArrayBuffer): T }): T {
  const bytes = Buffer.from(text, 'base64');
  // A copy: the buffer's offset inside Node's pool may not be aligned for the element size.
  return new Type(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

async function readMapCache(file: string, fingerprint: string): Promise<MapCache | undefined> {
  try {
    const cache = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<MapCache>;
    // Our own output; a cache of another version or state, or of the wrong shape, is rebuilt.
    const ok =
      cache.version === MAP_CACHE_VERSION &&
      cache.fingerprint === fingerprint &&
      Array.isArray(cache.paths) &&
      typeof cache.definitionsFile === 'string' &&
      !cache.definitionsFile.includes('/');
    return ok ? (cache as MapCache) : undefined;
  } catch {
    return undefined;
  }
}

function fromCache(cache: MapCache): RankInput {
  return {
    paths: cache.paths,
    entryPoints: cache.entryPoints,
    packageEntryPoints: cache.packageEntryPoints,
    sizes: decode(cache.sizes, Int32Array),
    support: decode(cache.support, Uint8Array),
    graph: {
      offsets: decode(cache.offsets, Int32Array),
      targets: decode(cache.targets, Int32Array),
      weights: decode(cache.weights, Float64Array),
      nameOffsets: decode(cache.nameOffsets, Int32Array),
      definers: decode(cache.definers, Int32Array),
      names: cache.names === '' ? [] : cache.names.split('\n'),
    },
  };
}

function toCache(
  fingerprint: string,
  input: RankInput,
  quick: Uint8Array,
  definitionsFile: string,
  offsets: Float64Array,
): MapCache {
  const { graph } = input;
  return {
    version: MAP_CACHE_VERSION,
    fingerprint,
    paths: input.paths,
    entryPoints: input.entryPoints,
    packageEntryPoints: input.packageEntryPoints,
    sizes: encode(input.sizes),
    quick: encode(quick),
    support: encode(input.support),
    offsets: encode(graph.offsets),
    targets: encode(graph.targets),
    weights: encode(graph.weights),
    nameOffsets: encode(graph.nameOffsets),
    definers: encode(graph.definers),
    names: graph.names.join('\n'),
    definitionsFile,
    definitionOffsets: encode(offsets),
  };
}

/**
 * Writes the definitions file (named by the fingerprint, so a reader of the old cache never reads the new
 * definitions), then the cache, then removes the definitions file the old cache named.
 */
async function writeMapCache(
  file: string,
  fingerprint: string,
  input: RankInput,
  quick: Uint8Array,
  all: Definition[][],
) {
  const texts = all.map((d) => Buffer.from(d.length > 0 ? JSON.stringify(d) : ''));
  const offsets = new Float64Array(texts.length + 1);
  texts.forEach((t, i) => {
    offsets[i + 1] = offsets[i]! + t.length;
  });
  const previous = await fs.readFile(file, 'utf8').then(
    (text) => (JSON.parse(text) as Partial<MapCache>).definitionsFile,
    () => undefined,
  );
  const name = `${path.basename(file, '.json')}-${fingerprint.slice(0, 16)}.defs`;
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    await fs.writeFile(path.join(path.dirname(file), name), Buffer.concat(texts), { mode: 0o600 });
  } catch {
    return;
  }
  await writeCache(file, toCache(fingerprint, input, quick, name, offsets));
  if (typeof previous === 'string' && previous !== name && !previous.includes('/'))
    await fs.rm(path.join(path.dirname(file), previous), { force: true });
}

/** Reads one file's definitions from the definitions file, by its offsets. */
function definitionsReader(
  file: string,
  cache: MapCache,
): { read: (i: number) => Definition[]; close: () => void } | undefined {
  const offsets = decode(cache.definitionOffsets, Float64Array);
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

/** The map of the repository at `root`, from the map cache when nothing changed, else from the code index. */
export async function loadRepoMap(
  root: string,
  options: LoadOptions,
  maxTokens: number,
  mentions: string,
): Promise<LoadedMap> {
  await cacheWrites();
  const file = options.cacheDir ? cacheFileFor(options.cacheDir, root, 'map') : undefined;
  const { fingerprint, listed } = file
    ? await fingerprintOf(root, options.signal)
    : { fingerprint: '', listed: undefined };
  const cached = file ? await readMapCache(file, fingerprint) : undefined;
  let input: RankInput | undefined;
  let reader: { read: (i: number) => Definition[]; close: () => void } | undefined;
  let parsed = 0;
  let scanned = 0;
  let quick: Uint8Array | undefined;
  if (file && cached) {
    reader = definitionsReader(file, cached);
    if (reader) input = fromCache(cached);
    quick = typeof cached.quick === 'string' ? decode(cached.quick, Uint8Array) : undefined;
  }
  if (!input || !reader) {
    const quickAbove = options.quickAbove ?? QUICK_ABOVE;
    const index = await loadCodeIndex(root, { ...options, quickAbove, ...(listed ? { listed } : {}) });
    parsed = index.stats.parsed;
    scanned = index.stats.quick;
    input = prepareRank(index);
    const all = input.paths.map((p) => index.files.get(p)!.definitions);
    quick = Uint8Array.from(input.paths, (p) => (index.files.get(p)!.quick ? 1 : 0));
    reader = { read: (i) => all[i]!, close: () => {} };
    const write = file ? writeMapCache.bind(undefined, file, fingerprint, input, quick, all) : undefined;
    if (write) await settleCache(write, all.length);
  }
  const ranking = input;
  const { read } = reader;
  const position = new Map(ranking.paths.map((p, i) => [p, i]));
  // A shown file ranked from a scan is parsed for its definitions: signatures, members and doc comments exact.
  const definitionsOf = (p: string): Definition[] => {
    const i = position.get(p)!;
    if (!quick?.[i]) return read(i);
    const exact = parsedDefinitions(root, p);
    if (exact) parsed += 1;
    return exact ?? read(i);
  };
  let map: RepoMap;
  try {
    map = renderMap(
      rankPrepared(ranking, mentions),
      (p) => ranking.sizes[position.get(p)!]!,
      definitionsOf,
      maxTokens,
    );
  } finally {
    reader.close();
  }
  return { map, files: ranking.paths.length, parsed, scanned };
}

/** The definitions of one file from its syntax tree; undefined when it cannot be read or parsed now. */
function parsedDefinitions(root: string, rel: string): Definition[] | undefined {
  const lang = languageOf(rel);
  if (!lang) return undefined;
  try {
    return extractTags(lang, readFileSync(path.join(root, rel), 'utf8')).definitions;
  } catch {
    return undefined;
  }
}
