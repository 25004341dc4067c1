// The map cache's file: a JSON header, then the ranking graph, the listing and the scores as raw typed arrays and
// NUL-joined text, so a warm map reads one file and views its arrays in place (base64 in JSON cost a parse and a
// copy of every array, ~80 ms on 28k files).
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { replaceFile } from '../core/replace-file.js';
import type { RankInput, Scores } from './rank.js';

const MAGIC = 'KMAP';
const VERSION = 36;

/** What a map cache holds: the ranking input, its scores with nothing mentioned, and what the listing rests on. */
export interface MapCache {
  fingerprint: string;
  input: RankInput;
  /** Per file, 1 for definitions from a lexical scan (quick-tags.ts), 0 for a parse's. */
  quick: Uint8Array;
  base: Scores;
  /** Listed source files the ranking left out (too large, unreadable): the listing is these and input.paths. */
  unranked: string[];
  /** The directories the walk entered (relative, '' the root) and their mtimes when it read them. */
  dirs: string[];
  dirTimes: Float64Array;
  /** The .gitignore files the walk read (relative): a change to one changes the listing. */
  ignores: string[];
  /** The file beside this one holding each file's definitions as JSON text, and where each starts (bytes). */
  definitionsFile: string;
  definitionOffsets: Float64Array;
}

interface Header {
  version: number;
  fingerprint: string;
  entryPoints: string[];
  packageEntryPoints: string[];
  definitionsFile: string;
  /** Section name → [byte offset, byte length]. */
  sections: Record<string, [number, number]>;
}

type Typed = Int32Array | Float64Array | Uint8Array;
const TEXTS = ['paths', 'names', 'unranked', 'dirs', 'ignores'] as const;

/** The cache as bytes: magic, header length, header, then each section at an offset aligned for 8-byte elements. */
export function encodeMapCache(cache: MapCache): Buffer {
  const { input } = cache;
  const arrays: Record<string, Typed> = {
    sizes: input.sizes,
    support: input.support,
    quick: cache.quick,
    offsets: input.graph.offsets,
    targets: input.graph.targets,
    weights: input.graph.weights,
    nameOffsets: input.graph.nameOffsets,
    definers: input.graph.definers,
    authority: cache.base.authority,
    hub: cache.base.hub,
    dirTimes: cache.dirTimes,
    definitionOffsets: cache.definitionOffsets,
  };
  const texts: Record<(typeof TEXTS)[number], string[]> = {
    paths: input.paths,
    names: input.graph.names,
    unranked: cache.unranked,
    dirs: cache.dirs,
    ignores: cache.ignores,
  };
  const parts: Buffer[] = [];
  const sections: Record<string, [number, number]> = {};
  let at = 0;
  const add = (name: string, bytes: Buffer) => {
    const pad = (8 - (at % 8)) % 8;
    if (pad) parts.push(Buffer.alloc(pad));
    at += pad;
    sections[name] = [at, bytes.length];
    parts.push(bytes);
    at += bytes.length;
  };
  for (const [name, array] of Object.entries(arrays))
    add(name, Buffer.from(array.buffer, array.byteOffset, array.byteLength));
  for (const name of TEXTS) add(name, Buffer.from(texts[name].join('\0')));
  const header: Header = {
    version: VERSION,
    fingerprint: cache.fingerprint,
    entryPoints: input.entryPoints,
    packageEntryPoints: input.packageEntryPoints,
    definitionsFile: cache.definitionsFile,
    sections,
  };
  const json = Buffer.from(JSON.stringify(header));
  // The sections' offsets count from the start of the body, which begins 8-aligned after the header.
  const lead = Buffer.alloc(8 + json.length + ((8 - (json.length % 8)) % 8));
  lead.write(MAGIC, 0, 'latin1');
  lead.writeUInt32LE(json.length, 4);
  json.copy(lead, 8);
  return Buffer.concat([lead, ...parts]);
}

function isHeader(value: unknown): value is Header {
  const h = value as Header;
  return (
    typeof h === 'object' &&
    h !== null &&
    h.version === VERSION &&
    typeof h.fingerprint === 'string' &&
    Array.isArray(h.entryPoints) &&
    Array.isArray(h.packageEntryPoints) &&
    typeof h.definitionsFile === 'string' &&
    !h.definitionsFile.includes('/') &&
    typeof h.sections === 'object' &&
    h.sections !== null
  );
}

/** The cache in `bytes`, its arrays viewing them; undefined for another version or a damaged file (it is rebuilt). */
export function decodeMapCache(bytes: Buffer): MapCache | undefined {
  try {
    if (bytes.toString('latin1', 0, 4) !== MAGIC) return undefined;
    const length = bytes.readUInt32LE(4);
    const header: unknown = JSON.parse(bytes.toString('utf8', 8, 8 + length));
    if (!isHeader(header)) return undefined;
    const bodyStart = 8 + length + ((8 - (length % 8)) % 8);
    // A view needs its offset aligned to its element size: copy the body once if the buffer's is not.
    const body =
      (bytes.byteOffset + bodyStart) % 8 === 0
        ? bytes.subarray(bodyStart)
        : Buffer.from(bytes.subarray(bodyStart));
    const section = (name: string): Buffer => {
      const [offset, size] = header.sections[name] ?? [-1, -1];
      if (!(offset >= 0 && size >= 0 && offset + size <= body.length)) throw new Error(`no section ${name}`);
      return body.subarray(offset, offset + size);
    };
    const view = <T extends Typed>(
      name: string,
      Type: { new (b: ArrayBuffer, o: number, l: number): T; BYTES_PER_ELEMENT: number },
    ): T => {
      const b = section(name);
      if (b.length % Type.BYTES_PER_ELEMENT !== 0) throw new Error(`bad section ${name}`);
      return new Type(b.buffer as ArrayBuffer, b.byteOffset, b.length / Type.BYTES_PER_ELEMENT);
    };
    const text = (name: string): string[] => {
      const b = section(name);
      return b.length === 0 ? [] : b.toString('utf8').split('\0');
    };
    const paths = text('paths');
    const n = paths.length;
    const input: RankInput = {
      paths,
      entryPoints: header.entryPoints,
      packageEntryPoints: header.packageEntryPoints,
      sizes: view('sizes', Int32Array),
      support: view('support', Uint8Array),
      graph: {
        offsets: view('offsets', Int32Array),
        targets: view('targets', Int32Array),
        weights: view('weights', Float64Array),
        nameOffsets: view('nameOffsets', Int32Array),
        definers: view('definers', Int32Array),
        names: text('names'),
      },
    };
    const cache: MapCache = {
      fingerprint: header.fingerprint,
      input,
      quick: view('quick', Uint8Array),
      base: { authority: view('authority', Float64Array), hub: view('hub', Float64Array) },
      unranked: text('unranked'),
      dirs: text('dirs'),
      dirTimes: view('dirTimes', Float64Array),
      ignores: text('ignores'),
      definitionsFile: header.definitionsFile,
      definitionOffsets: view('definitionOffsets', Float64Array),
    };
    // Arrays of the wrong length would index out of bounds in ranking: the whole cache is rebuilt instead.
    const consistent =
      input.sizes.length === n &&
      input.support.length === n &&
      cache.quick.length === n &&
      input.graph.offsets.length === n + 1 &&
      input.graph.targets.length === input.graph.weights.length &&
      input.graph.nameOffsets.length === input.graph.names.length + 1 &&
      cache.definitionOffsets.length === n + 1 &&
      cache.dirTimes.length === cache.dirs.length &&
      (cache.base.authority.length === n || cache.base.authority.length === 0) &&
      cache.base.hub.length === cache.base.authority.length;
    return consistent ? cache : undefined;
  } catch {
    return undefined;
  }
}

/** The cache file's contents, when there is one to read. */
export function readMapCacheFile(file: string): MapCache | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  return decodeMapCache(bytes);
}

/** The definitions file a cache names, read from its header alone (to remove it once a new cache replaces it). */
export function definitionsFileOf(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const lead = Buffer.alloc(8);
    readSync(fd, lead, 0, 8, 0);
    if (lead.toString('latin1', 0, 4) !== MAGIC || lead.readUInt32LE(4) > 1 << 24) return undefined;
    const json = Buffer.alloc(lead.readUInt32LE(4));
    readSync(fd, json, 0, json.length, 8);
    const header: unknown = JSON.parse(json.toString('utf8'));
    return isHeader(header) ? header.definitionsFile : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes the cache to a temp file and renames it, so a concurrent reader sees the old cache or the new one. */
export async function writeMapCacheFile(file: string, bytes: Buffer): Promise<void> {
  // A cache that cannot be written only costs the next map a walk and a ranking.
  await replaceFile(file, bytes).catch(() => {});
}
