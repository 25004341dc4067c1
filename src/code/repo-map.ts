// The repository map: a signatures-only skeleton of the most important files, cut to a token budget.
import { shownPath } from '../core/shown-path.js';
import type { CodeIndex } from './code-index.js';
import { type RankedFile, rankFiles, SUPPORT_TIER } from './rank.js';
import type { Definition, FileTags } from './tags.js';

/** Rough tokens of text, as the conversation budget counts them. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

export interface RepoMap {
  text: string;
  shown: number;
  total: number;
}

const SHAPES: ReadonlySet<string> = new Set(['class', 'interface', 'type', 'enum', 'function', 'module']);

/**
 * Which definitions a cut block keeps first: exported classes, functions and types, their public methods, exported
 * constants, then the rest; private names last.
 */
function priority(def: Definition, exportedContainers: ReadonlySet<string>): number {
  if (/^_|^#/.test(def.name)) return 6;
  if (!def.container) return def.exported ? (SHAPES.has(def.kind) ? 0 : 2) : SHAPES.has(def.kind) ? 3 : 5;
  if (!exportedContainers.has(def.container)) return 5;
  return def.kind === 'method' ? 1 : 4;
}

/** Files tried after the first that did not fit: past these the map is full (each costs a read on a warm map). */
const MAX_MISSES = 50;

/** A signature cut for the map: a constant's long value says little. */
const MAX_SHOWN_SIGNATURE = 120;

/**
 * One file's block: its path, then each definition's line number and signature, members under their class. At most
 * `limit` definitions, the most public first, so that a large file does not crowd out the rest of the map.
 */
export function renderFile(
  path: string,
  tags: Pick<FileTags, 'definitions'>,
  limit = Number.POSITIVE_INFINITY,
): string {
  let shown = tags.definitions;
  if (shown.length > limit) {
    const exported = new Set(shown.filter((d) => !d.container && d.exported).map((d) => d.name));
    const rank = new Map(shown.map((d) => [d, priority(d, exported)]));
    const kept = new Set(
      [...shown].sort((a, b) => rank.get(a)! - rank.get(b)! || a.line - b.line).slice(0, Math.max(1, limit)),
    );
    shown = shown.filter((def) => kept.has(def));
  }
  const lines = [`${shownPath(path)}:`];
  for (const def of shown) {
    const indent = def.container ? '    ' : '  ';
    const signature =
      def.signature.length > MAX_SHOWN_SIGNATURE
        ? `${def.signature.slice(0, MAX_SHOWN_SIGNATURE - 1)}…`
        : def.signature;
    lines.push(`${indent}${String(def.line).padStart(4)}│ ${signature}`);
  }
  const rest = tags.definitions.length - shown.length;
  if (rest > 0) lines.push(`  (${rest} more definitions)`);
  return lines.join('\n');
}

/** The map of ranked files: each file's block (from `definitionsOf`) in rank order, as many as fit in the budget. */
export function renderMap(
  ranked: readonly RankedFile[],
  countOf: (path: string) => number,
  definitionsOf: (path: string) => Definition[],
  maxTokens: number,
): RepoMap {
  // About a dozen files in the default budget: the core's outline rather than one file's every member.
  const limit = Math.max(8, Math.min(60, Math.round(maxTokens / 150)));
  const blocks: string[] = [];
  let used = 0;
  let total = 0;
  let shown = 0;
  let full = false;
  let misses = 0;
  /** Whether a file of the project's own did not fit: a test, doc or example then takes none of the room left. */
  let ownMissed = false;
  for (const { path, tier } of ranked) {
    if (countOf(path) === 0) continue;
    total += 1;
    if (full || (ownMissed && tier === SUPPORT_TIER)) continue;
    const definitions = definitionsOf(path);
    // A mentioned file is shown whole; one too large for the room left, its most public definitions in half that
    // room, the rest for the files around it. Dropped, the file the focus named was the one missing from the map.
    let block = renderFile(path, { definitions }, tier === 0 ? Number.POSITIVE_INFINITY : limit);
    if (tier === 0 && used + estimateTokens(block) + 1 > maxTokens)
      block = largestFitting(path, definitions, Math.floor((maxTokens - used) / 2)) ?? block;
    const cost = estimateTokens(block) + 1;
    if (used + cost > maxTokens) {
      // A large file's block may not fit while smaller ones further down still do; but not for ever.
      misses += 1;
      full = maxTokens - used < 20 || misses >= MAX_MISSES;
      ownMissed ||= tier < SUPPORT_TIER;
      continue;
    }
    blocks.push(block);
    used += cost;
    shown += 1;
  }
  const rest = total - shown;
  if (rest > 0) blocks.push(`(${rest} more files with definitions not shown; raise max_tokens or set focus)`);
  return { text: blocks.join('\n'), shown, total };
}

/** The file's block with as many of its definitions as fit in `room` tokens (at least one), or undefined. */
function largestFitting(path: string, definitions: Definition[], room: number): string | undefined {
  let fits: string | undefined;
  let low = 1;
  let high = definitions.length;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const block = renderFile(path, { definitions }, middle);
    if (estimateTokens(block) <= room) {
      fits = block;
      low = middle + 1;
    } else high = middle - 1;
  }
  return fits;
}

export function buildRepoMap(index: CodeIndex, maxTokens: number, mentions: string): RepoMap {
  const definitionsOf = (path: string) => index.files.get(path)!.definitions;
  return renderMap(rankFiles(index, { mentions }), (p) => definitionsOf(p).length, definitionsOf, maxTokens);
}
