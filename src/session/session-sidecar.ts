// `<id>.meta.json` beside each session file: its summary and the file's size when the summary was made, rewritten
// (atomically) at each turn's end, so `keel sessions list` reads a few hundred bytes per session instead of the
// whole history. A sidecar that is missing, unreadable or made for another size is rebuilt from the file, once.
// Reading sidecars alone: session-list.ts.
import { readFile } from 'node:fs/promises';
import { replaceFile } from '../core/replace-file.js';
import { parseSession } from './session-file.js';
import { newestFirst, sidecarListing, sidecarOf } from './session-list.js';
import { type SessionSummary, summarize } from './session-summary.js';

/** Replaces the sidecar whole (a temp file renamed over it): a reader sees the old one or the new one. */
export async function writeSidecar(
  sessionFile: string,
  summary: SessionSummary,
  bytes: number,
): Promise<void> {
  await replaceFile(sidecarOf(sessionFile), `${JSON.stringify({ bytes, summary })}\n`);
}

/** A session's summary made from its file, its sidecar rewritten; undefined when the file cannot be read. */
async function rebuildSummary(sessionFile: string): Promise<SessionSummary | undefined> {
  const data = await readFile(sessionFile).catch(() => undefined);
  const record = data && parseSession(data.toString('utf8'));
  if (!data || !record) return undefined;
  const summary = summarize(record);
  // Best effort: a read-only data dir still lists, it just reads the whole file next time too.
  await writeSidecar(sessionFile, summary, data.length).catch(() => {});
  return summary;
}

/** A workspace's sessions, newest first: from their sidecars, and from the file where a sidecar is outdated. */
export async function listSessions(dir: string): Promise<SessionSummary[]> {
  const { summaries, outdated } = sidecarListing(dir);
  const rebuilt = await Promise.all(outdated.map(rebuildSummary));
  return [...summaries, ...rebuilt.filter((s): s is SessionSummary => s !== undefined)].sort(newestFirst);
}
