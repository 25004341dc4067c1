// The tags of every source file of a repository, cached by content hash under Keel's cache dir and updated
// incrementally: a file whose path, mtime and size are unchanged is not even read; one whose hash is unchanged is
// not parsed again.
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { replaceFile } from '../core/replace-file.js';
import { napi, parseSourceAsync } from './ast-grep.js';
import { cacheWrites, removeLeftovers, settleCache } from './cache-writes.js';
import { findProjectEntries, type ProjectEntries } from './entry-points.js';
import { isMinifiedText, isSupportFile } from './file-roles.js';
import { indexLanguageOf, indexSource, type LanguageSpec } from './languages.js';
import { quickTags } from './quick-tags.js';
import { listSourceFiles } from './source-files.js';
import { extractTags, type FileTags } from './tags.js';

/** Bumped whenever the shape or meaning of cached tags changes: an old cache is then ignored. */
const CACHE_VERSION = 23;
/** Larger files are generated or minified; their tags would cost more than they tell. */
export const MAX_FILE_BYTES = 1_000_000;
/** Files parsed on the thread pool at a time. */
const PARSE_WINDOW = 32;

export interface CodeIndex {
  root: string;
  /** Workspace-relative path (with `/`) → tags, in path order. */
  files: Map<string, FileTags>;
  /** Entry points and workspace packages the manifests declare. */
  project?: ProjectEntries;
  stats: {
    files: number;
    /** Files parsed in this load (new or changed content). */
    parsed: number;
    /** Files read and hashed because their mtime or size changed. */
    hashed: number;
    /** Files whose tags come from a lexical scan (`quickAbove`), not a parse. */
    quick: number;
  };
}

interface ManifestEntry {
  mtimeMs: number;
  size: number;
  hash: string;
}
const isRecord = (v: unknown): v is Record<string, never> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
// Our own output: only the envelope is checked (per-entry checks cost more than the parse on 28k files). An entry
// of the wrong shape never matches a file's stat, so that file is read and parsed again; a bad envelope is rebuilt.
const cacheSchema = z.object({
  version: z.literal(CACHE_VERSION),
  manifest: z.custom<Record<string, ManifestEntry>>(isRecord),
  tags: z.custom<Record<string, FileTags>>(isRecord),
});
type CacheFile = z.infer<typeof cacheSchema>;

/** `<cacheDir>/<folder>/<hash of the root>.json`: one file per repository (tags, or the map's graph). */
export function cacheFileFor(cacheDir: string, root: string, folder = 'tags'): string {
  const id = createHash('sha256').update(root).digest('hex').slice(0, 32);
  return path.join(cacheDir, folder, `${id}.json`);
}

async function readCache(file: string | undefined): Promise<CacheFile> {
  const empty: CacheFile = { version: CACHE_VERSION, manifest: {}, tags: {} };
  if (!file) return empty;
  try {
    const parsed = cacheSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
    return parsed.success ? parsed.data : empty;
  } catch {
    return empty;
  }
}

/**
 * The JSON text of an object in pieces of about a megabyte: the tags of 28k files as one string (and its copy as a
 * buffer) would add ~100 MB to the peak memory of a cold load.
 */
function* jsonPieces(value: Record<string, unknown>): Generator<string> {
  let piece = '{';
  let firstKey = true;
  for (const [key, field] of Object.entries(value)) {
    piece += `${firstKey ? '' : ','}${JSON.stringify(key)}:`;
    firstKey = false;
    if (!isRecord(field)) {
      piece += JSON.stringify(field);
      continue;
    }
    piece += '{';
    let first = true;
    for (const [k, v] of Object.entries(field as Record<string, unknown>)) {
      piece += `${first ? '' : ','}${JSON.stringify(k)}:${JSON.stringify(v)}`;
      first = false;
      if (piece.length > 1_000_000) {
        yield piece;
        piece = '';
      }
    }
    piece += '}';
  }
  yield `${piece}}`;
}

/**
 * Written to a temp file of this process's and renamed, so a concurrent reader sees the old cache or the new one;
 * what writers that are gone left is removed first.
 */
export async function writeCache(file: string, cache: object): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await removeLeftovers(file);
  // A cache that cannot be written only costs the next run a parse.
  await replaceFile(file, jsonPieces(cache as Record<string, unknown>)).catch(() => {});
}

/** crypto.hash where Node has it (20.12+): one call, no Hash object per file (28k of them cost ~0.3 s). */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'hex') => string }).hash;
const hashOf = (data: Buffer) =>
  oneShot ? oneShot('sha1', data, 'hex') : createHash('sha1').update(data).digest('hex');

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Parses the files in windows: a window's trees are built on the thread pool (parseAsync) while the previous
 * window's are read here, so the two cores share the work; the awaits between windows also let the parser's native
 * trees be freed (they go by finalizers that run between turns of the event loop) and Ctrl-C through.
 */
async function parseAll(
  queued: Map<string, { rel: string; data: Buffer }>,
  tags: Record<string, FileTags>,
  quick: boolean,
  signal?: AbortSignal,
): Promise<void> {
  if (queued.size === 0) return;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const items: { hash: string; lang: LanguageSpec | undefined; source: string }[] = [];
  for (const [hash, { rel, data }] of queued) {
    const lang = indexLanguageOf(rel);
    let source: string | undefined;
    try {
      source = indexSource(rel, decoder.decode(data));
    } catch {
      continue;
    }
    const scanned = quick && lang ? quickTags(lang, source) : undefined;
    if (scanned) tags[hash] = scanned;
    else items.push({ hash, lang, source });
  }
  if (items.length === 0) return;
  napi();
  const start = (from: number) =>
    items.slice(from, from + PARSE_WINDOW).map((item) => ({
      item,
      tree:
        item.lang && !isMinifiedText(item.source)
          ? parseSourceAsync(item.lang, item.source).catch(() => undefined)
          : Promise.resolve(undefined),
    }));
  let next = start(0);
  for (let at = 0; at < items.length; at += PARSE_WINDOW) {
    signal?.throwIfAborted();
    const current = next;
    next = start(at + PARSE_WINDOW);
    for (const { item, tree } of current) {
      if (!item.lang) continue;
      try {
        tags[item.hash] = extractTags(item.lang, item.source, await tree);
      } catch {
        // Not parseable: left out of the index.
      }
    }
  }
}

/** The source files as just listed and stat'ed (undefined: gone), when the caller has walked the tree already. */
export interface Listed {
  paths: string[];
  stats: (Pick<Stats, 'mtimeMs' | 'size' | 'nlink'> | undefined)[];
}

export interface LoadOptions {
  /** Keel's cache directory; without one nothing is kept between loads. */
  cacheDir?: string;
  signal?: AbortSignal;
  /**
   * When more files than this need parsing, files of the languages quick-tags.ts reads are scanned instead (the
   * map of a large repository). Without it, tags from a scan found in the cache are parsed again.
   */
  quickAbove?: number;
  listed?: Listed;
  /**
   * The secret file a source file is a hard link to (the workspace's `secretLink`): such a file is left out of the
   * index, so no tool built on it reads or shows it. Asked only for a file with more than one link.
   */
  secretLink?: (absolute: string) => string | undefined;
  /**
   * Takes the cache write instead of starting it, for a caller with more to do before it answers (the map): begun
   * now, the write of a large cache would take turns with that work at every await.
   */
  deferWrite?: (write: () => Promise<void>) => void;
}

/** Lists, reads (when changed) and parses (when new) the repository's source files. */
export async function loadCodeIndex(root: string, options: LoadOptions = {}): Promise<CodeIndex> {
  await cacheWrites();
  const file = options.cacheDir ? cacheFileFor(options.cacheDir, root) : undefined;
  const cache = await readCache(file);
  const paths = options.listed?.paths ?? (await listSourceFiles(root, options.signal));
  const manifest: CacheFile['manifest'] = {};
  const tags: CacheFile['tags'] = {};
  const stats = { files: 0, parsed: 0, hashed: 0, quick: 0 };
  const usable = (t: unknown): t is FileTags =>
    isRecord(t) && (options.quickAbove !== undefined || (t as { quick?: boolean }).quick !== true);
  const byPath = new Map<string, FileTags>();

  // Synchronous reads: for hundreds of small files they beat the thread pool's round trips several times over.
  const found: { rel: string; stat: Pick<Stats, 'mtimeMs' | 'size'>; hash: string }[] = [];
  const queued = new Map<string, { rel: string; data: Buffer }>();
  for (const [i, rel] of paths.entries()) {
    options.signal?.throwIfAborted();
    const absolute = path.join(root, rel);
    const stat = options.listed ? options.listed.stats[i] : statOrUndefined(absolute);
    if (!stat || stat.size > MAX_FILE_BYTES) continue;
    if (stat.nlink > 1 && options.secretLink?.(absolute) !== undefined) continue;
    const known = cache.manifest[rel];
    let hash = known?.hash;
    const fresh =
      known !== undefined &&
      known.mtimeMs === stat.mtimeMs &&
      known.size === stat.size &&
      typeof known.hash === 'string' &&
      usable(cache.tags[known.hash]);
    if (!fresh) {
      const data = readOrUndefined(absolute);
      if (!data || data.subarray(0, 8192).includes(0)) continue;
      stats.hashed += 1;
      hash = hashOf(data);
      if (!usable(cache.tags[hash]) && !queued.has(hash)) queued.set(hash, { rel, data });
    }
    // Two numbers, not the Stats: 28k Stats kept alive (four Dates each) cost more in collection than the stats.
    found.push({ rel, stat: { mtimeMs: stat.mtimeMs, size: stat.size }, hash: hash! });
  }
  const quick = options.quickAbove !== undefined && queued.size > options.quickAbove;
  await parseAll(queued, tags, quick, options.signal);
  for (const t of Object.values(tags)) if (t.quick) stats.quick += 1;
  stats.parsed = Object.keys(tags).length - stats.quick;
  for (const { rel, stat, hash } of found) {
    const fileTags = tags[hash] ?? cache.tags[hash];
    // Not valid UTF-8, or not parseable.
    if (!usable(fileTags)) continue;
    manifest[rel] = { mtimeMs: stat.mtimeMs, size: stat.size, hash };
    tags[hash] = fileTags;
    byPath.set(rel, fileTags);
  }
  stats.files = byPath.size;

  const changed = stats.hashed > 0 || Object.keys(cache.manifest).length !== Object.keys(manifest).length;
  if (file && changed) {
    const write = () => writeCache(file, { version: CACHE_VERSION, manifest, tags });
    if (options.deferWrite) options.deferWrite(write);
    else await settleCache(write, found.length);
  }
  const project = await findProjectEntries(root, new Set(byPath.keys()));
  // A Java application's entry is the class with `static void main` (no manifest names it): Spring Boot's, a CLI's.
  for (const [path, tags] of byPath)
    if (
      tags.language === 'java' &&
      !isSupportFile(path) &&
      tags.definitions.some(
        (d) => d.name === 'main' && /\bstatic\b[^(]*\bvoid\s+main\s*\(/.test(d.signature),
      ) &&
      !project.entryPoints.includes(path)
    )
      project.entryPoints.push(path);
  return { root, files: byPath, project, stats };
}
