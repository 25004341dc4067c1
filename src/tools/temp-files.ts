// Temp files of atomic writes, journaled under Keel's state directory so that one left behind by a killed run
// (created, never renamed) is removed by the next run instead of staying in the workspace.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import * as z from 'zod';
import { once } from '../core/once.js';
import { processAlive } from '../core/process-alive.js';

/** Every temp file's name starts `.keel-tmp-<pid>-<random>-`, so a leftover is recognisable at a glance. */
export const TEMP_PREFIX = '.keel-tmp-';

const JOURNAL_DIR = 'temp-files';
/** Room for the prefix within a 255-byte file name. */
const MAX_BASENAME = 200;

/** A journal entry, `<pid>-<random>.json`: the host the process ran on and the temp file's absolute path. */
const entrySchema = once(() => z.object({ host: z.string(), path: z.string() }));

export interface TempFile {
  /** Where to write: beside the target, so the rename onto it is atomic. */
  readonly path: string;
  /** Drops the journal entry; call once the temp file is renamed or removed. */
  done(): Promise<void>;
}

export const journalDir = (stateDir: string): string => path.join(stateDir, JOURNAL_DIR);

/**
 * Names a temp file beside `target` and, given Keel's state directory, journals it before anything is created.
 * Journaling is best effort: a state directory that cannot be written must not stop the write itself.
 */
export async function startTempFile(target: string, stateDir: string | undefined): Promise<TempFile> {
  const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const base = path.basename(target).slice(0, MAX_BASENAME);
  const temp = path.join(path.dirname(target), `${TEMP_PREFIX}${id}-${base}`);
  if (stateDir === undefined) return { path: temp, done: async () => {} };
  const entry = path.join(journalDir(stateDir), `${id}.json`);
  try {
    await fs.mkdir(journalDir(stateDir), { recursive: true, mode: 0o700 });
    const record = { host: hostname(), path: temp };
    await fs.writeFile(entry, JSON.stringify(record), { flag: 'wx', mode: 0o600 });
  } catch {
    return { path: temp, done: async () => {} };
  }
  return { path: temp, done: () => fs.rm(entry, { force: true }) };
}

async function readEntry(file: string): Promise<z.infer<ReturnType<typeof entrySchema>> | undefined> {
  try {
    return entrySchema().parse(JSON.parse(await fs.readFile(file, 'utf8')));
  } catch {
    return undefined;
  }
}

/** Unlinks a file (never a directory); false when it is already gone. */
async function removeIfPresent(file: string): Promise<boolean> {
  try {
    await fs.unlink(file);
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Removes the temp files journaled by processes on this host that are no longer alive, and their entries; returns
 * how many temp files it removed. Never throws: a failure leaves the entry for the next run. Only a file named
 * like a temp file of that very process is removed, so an edited journal cannot delete anything else.
 */
export async function cleanStaleTempFiles(stateDir: string): Promise<number> {
  const dir = journalDir(stateDir);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const id = /^(\d+)-[0-9a-f]{12}\.json$/.exec(name);
    if (!id) continue;
    const file = path.join(dir, name);
    const entry = await readEntry(file);
    // Another machine's process ids (a shared home) say nothing about processes here.
    if (entry && entry.host !== hostname()) continue;
    if (processAlive(Number(id[1]))) continue;
    const expected = `${TEMP_PREFIX}${name.slice(0, -'.json'.length)}-`;
    const owned = entry && path.isAbsolute(entry.path) && path.basename(entry.path).startsWith(expected);
    try {
      if (owned && (await removeIfPresent(entry.path))) removed += 1;
      // An unreadable entry was cut short while being written, before its temp file existed.
      await fs.rm(file, { force: true });
    } catch {
      // Left for the next run.
    }
  }
  return removed;
}
