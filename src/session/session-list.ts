// A workspace's sessions listed from their `<id>.meta.json` sidecars alone (session-sidecar.ts writes them): where
// the sessions are, and each sidecar checked against its file's size. Nothing here parses a session file, so
// `keel sessions list`'s own small bundle (cli/sessions-list.ts) loads only this.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { workspaceKey } from '../config/paths.js';
import type { SessionSummary } from './session-summary.js';

/** `<data dir>/sessions/<workspace key>`: one workspace's sessions. */
export function sessionDir(dataDir: string, realRoot: string): string {
  return join(dataDir, 'sessions', workspaceKey(realRoot));
}

export const sidecarOf = (sessionFile: string) =>
  sessionFile.endsWith('.jsonl') ? `${sessionFile.slice(0, -'.jsonl'.length)}.meta.json` : sessionFile;

/** A summary's fields with their types, in the order a listing shows them; the optional ones may be missing. */
const summaryTypes = {
  id: 'string',
  title: 'string',
  workspace: 'string',
  provider: 'string',
  model: 'string',
  started: 'string',
  updated: 'string',
  turns: 'number',
  input_tokens: 'number',
  output_tokens: 'number',
  cache_read_tokens: 'number',
  cache_write_tokens: 'number',
  cost: 'number',
  cost_partial: 'boolean',
} as const satisfies Record<keyof SessionSummary, 'string' | 'number' | 'boolean'>;

const optional: ReadonlySet<string> = new Set(['cost', 'cost_partial'] satisfies (keyof SessionSummary)[]);

const summaryKeys = Object.keys(summaryTypes) as (keyof SessionSummary)[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * A sidecar's text as `{ bytes, summary }` (the summary's own fields only, in order), or undefined when it is not
 * one. Checked by hand, as session-file.ts checks event lines: zod's object walk was half the time of listing
 * 200 sessions.
 */
export function parseSidecar(text: string): { bytes: number; summary: SessionSummary } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.bytes !== 'number' || !isObject(value.summary)) return undefined;
  const fields = value.summary;
  const summary: Record<string, unknown> = {};
  // Indexed: a listing makes a few hundred calls, all before V8 optimises them, and unoptimised, for-of over
  // Object.entries cost ten times as much.
  for (let i = 0; i < summaryKeys.length; i++) {
    const key = summaryKeys[i]!;
    const field = fields[key];
    if (field === undefined && optional.has(key)) continue;
    if (typeof field !== summaryTypes[key]) return undefined;
    summary[key] = field;
  }
  return { bytes: value.bytes, summary: summary as unknown as SessionSummary };
}

/** A sidecar's content; undefined when it is missing or not a sidecar. */
function readSidecar(sessionFile: string): { bytes: number; summary: SessionSummary } | undefined {
  try {
    return parseSidecar(readFileSync(sidecarOf(sessionFile), 'utf8'));
  } catch {
    return undefined;
  }
}

/** By code point: ISO times and run ids sort right so, and localeCompare would load ICU's collator (~15 ms). */
const descending = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

export const newestFirst = (a: SessionSummary, b: SessionSummary) =>
  descending(a.updated, b.updated) || descending(a.id, b.id);

/**
 * The sessions of `dir` whose sidecars cover their files as they are, and the session files whose summaries must
 * be rebuilt from the file (listSessions in session-sidecar.ts does). Synchronous: a few hundred small reads
 * take a few milliseconds so, and several times that through the thread pool's promises.
 */
export function sidecarListing(dir: string): { summaries: SessionSummary[]; outdated: string[] } {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { summaries: [], outdated: [] };
  }
  const summaries: SessionSummary[] = [];
  const outdated: string[] = [];
  // Indexed, and paths joined as strings: in a single listing this code runs unoptimised, where for-of, path.join's
  // normalising and sidecarOf's regular expression made half its time.
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (!name.endsWith('.jsonl')) continue;
    const file = `${dir}${sep}${name}`;
    // Removed since readdir: not a session any more.
    const size = statSync(file, { throwIfNoEntry: false })?.size;
    if (size === undefined) continue;
    const sidecar = readSidecar(file);
    if (sidecar && sidecar.bytes === size) summaries.push(sidecar.summary);
    else outdated.push(file);
  }
  return { summaries, outdated };
}
