// The active-session marker (AGT's crash recovery): `<id>.active` beside the session file, holding the pid, for
// as long as a run or chat writes the session. A clean exit removes it; one left by a process that is gone means
// the session ended unexpectedly, and the next chat in the workspace offers to resume it.
import { rmSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atPath } from '../core/errors.js';
import { processAlive } from '../core/process-alive.js';

const suffix = '.active';

const markerOf = (sessionFile: string) => sessionFile.replace(/\.jsonl$/, suffix);

export async function writeMarker(sessionFile: string): Promise<void> {
  const marker = markerOf(sessionFile);
  await writeFile(marker, `${process.pid}\n`, { mode: 0o600 }).catch((error: unknown) => {
    // A full disk fails the write with no path in the error: the marker's, for the message.
    throw atPath(error, marker);
  });
}

export async function clearMarker(sessionFile: string): Promise<void> {
  await rm(markerOf(sessionFile), { force: true });
}

/** For a deliberate exit that cannot wait (a second Ctrl-C): the user chose to leave, so nothing crashed. */
export function clearMarkerSync(sessionFile: string): void {
  rmSync(markerOf(sessionFile), { force: true });
}

/** Ids of the sessions in `dir` whose process ended without a clean exit, newest first. */
export async function crashedSessions(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const crashed: string[] = [];
  for (const name of names.filter((n) => n.endsWith(suffix))) {
    const pid = Number.parseInt(await readFile(join(dir, name), 'utf8').catch(() => ''), 10);
    if (!Number.isInteger(pid) || pid === process.pid || !processAlive(pid))
      crashed.push(name.slice(0, -suffix.length));
  }
  return crashed.sort().reverse();
}

/** The crash was reported: the marker goes, so the note is given once. */
export async function dismissCrashed(dir: string, id: string): Promise<void> {
  await rm(join(dir, `${id}${suffix}`), { force: true });
}
