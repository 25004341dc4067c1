// What an undo checks before it writes anything: that every file it would write still has its contents (a
// checkpoint shares the user's repository's objects, which that repository may prune), and whether the files too
// large to copy are still as the checkpoint recorded them.
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { FileChange, LargeFile, RestoreResult } from './checkpoints.js';
import type { ShadowGit } from './shadow-git.js';

const GITLINK = '160000';

/** `git diff --raw -z` records: the object and path each side of a change has. */
export function parseRaw(text: string): { dstMode: string; dst: string; status: string; path: string }[] {
  const tokens = text.split('\0');
  const records: { dstMode: string; dst: string; status: string; path: string }[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const head = (tokens[i] ?? '').replace(/^\n+/, '');
    const match = /^:\d+ (\d+) [0-9a-f]+ ([0-9a-f]+) ([A-Z])/.exec(head);
    if (match)
      records.push({
        dstMode: match[1] ?? '',
        dst: match[2] ?? '',
        status: match[3] ?? '',
        path: tokens[i + 1] ?? '',
      });
  }
  return records;
}

/**
 * What a restore from `from` to `to` changes, and the paths among them whose contents at `to` no object store
 * holds any longer (the restore would have to write them).
 */
export async function restoreDiff(
  git: ShadowGit,
  from: string,
  to: string,
): Promise<{ changes: FileChange[]; missing: string[] }> {
  const records = parseRaw(await git.run(['diff', '-z', '--raw', '--no-renames', '--no-abbrev', from, to]));
  const changes: FileChange[] = [];
  for (const r of records) {
    if (r.status === 'A' || r.status === 'M' || r.status === 'D')
      changes.push({ status: r.status, path: r.path });
    else if (r.status === 'T') changes.push({ status: 'M', path: r.path });
  }
  const written = records.filter((r) => r.status !== 'D' && r.dstMode !== GITLINK);
  if (written.length === 0) return { changes, missing: [] };
  const out = await git.run(
    ['cat-file', '--batch-check=%(objectname)'],
    `${written.map((r) => r.dst).join('\n')}\n`,
  );
  const missing = new Set(
    out
      .split('\n')
      .filter((l) => l.endsWith(' missing'))
      .map((l) => l.split(' ')[0]),
  );
  return { changes, missing: written.filter((r) => missing.has(r.dst)).map((r) => r.path) };
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Each large file the target recorded, and whether the workspace still holds it as it was. */
export async function largeNow(
  root: string,
  large: readonly LargeFile[],
): Promise<NonNullable<RestoreResult['large']>> {
  return Promise.all(
    large.map(async (f) => {
      const stat = await fs.stat(join(root, f.path)).catch(() => undefined);
      if (!stat?.isFile()) return { ...f, now: 'deleted' as const };
      const same = stat.size === f.size && (await sha256(join(root, f.path)).catch(() => '')) === f.sha256;
      return { ...f, now: same ? ('unchanged' as const) : ('changed' as const) };
    }),
  );
}
