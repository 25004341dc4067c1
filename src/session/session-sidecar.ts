// `<id>.meta.json` beside each session file: its summary and the file's size when the summary was made, rewritten
// (atomically) at each turn's end, so `keel sessions list` reads a few hundred bytes per session instead of the
// whole history. A sidecar that is missing, unreadable or made for another size is rebuilt from the file, once.
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parseSession } from './session-file.js';
import { type SessionSummary, summarize } from './session-summary.js';

const sidecarSchema = z.object({
  /** Bytes of the session file this summary covers. */
  bytes: z.number(),
  summary: z.object({
    id: z.string(),
    title: z.string(),
    workspace: z.string(),
    provider: z.string(),
    model: z.string(),
    started: z.string(),
    updated: z.string(),
    turns: z.number(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    cache_read_tokens: z.number(),
    cache_write_tokens: z.number(),
    cost: z.number().optional(),
  }),
});

export const sidecarOf = (sessionFile: string) => sessionFile.replace(/\.jsonl$/, '.meta.json');

/** Replaces the sidecar whole (a temp file renamed over it): a reader sees the old one or the new one. */
export async function writeSidecar(
  sessionFile: string,
  summary: SessionSummary,
  bytes: number,
): Promise<void> {
  const target = sidecarOf(sessionFile);
  const temp = `${target}.${randomUUID().slice(0, 8)}.tmp`;
  await writeFile(temp, `${JSON.stringify({ bytes, summary })}\n`, { mode: 0o600 });
  await rename(temp, target);
}

async function readSidecar(sessionFile: string): Promise<z.infer<typeof sidecarSchema> | undefined> {
  const text = await readFile(sidecarOf(sessionFile), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = sidecarSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** One session's summary: from its sidecar when it covers the file as it is, else from the file (sidecar rewritten). */
export async function sessionSummary(sessionFile: string): Promise<SessionSummary | undefined> {
  const [size, sidecar] = await Promise.all([
    stat(sessionFile).then(
      (s) => s.size,
      () => undefined,
    ),
    readSidecar(sessionFile),
  ]);
  if (size === undefined) return undefined;
  if (sidecar && sidecar.bytes === size) return sidecar.summary;
  const data = await readFile(sessionFile).catch(() => undefined);
  const record = data && parseSession(data.toString('utf8'));
  if (!data || !record) return undefined;
  const summary = summarize(record);
  // Best effort: a read-only data dir still lists, it just reads the whole file next time too.
  await writeSidecar(sessionFile, summary, data.length).catch(() => {});
  return summary;
}

/** A workspace's sessions, newest first. */
export async function listSessions(dir: string): Promise<SessionSummary[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl'));
  const found = await Promise.all(names.map((name) => sessionSummary(join(dir, name))));
  const summaries = found.filter((s): s is SessionSummary => s !== undefined);
  return summaries.sort((a, b) => b.updated.localeCompare(a.updated) || b.id.localeCompare(a.id));
}
