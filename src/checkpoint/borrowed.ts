// Contents a shadow index borrows from another repository's object store (it was seeded from that repository's
// index), copied into the shadow's own store: git reuses the packed bytes, so 30,000 files take a fraction of a
// second. A command that deletes or empties that repository's `.git` then leaves every checkpoint restorable.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/** One git command on the shadow repository; `local`: without the other repositories' stores (ShadowGit.run). */
export type StoreRun = (
  args: readonly string[],
  input?: string,
  options?: { local?: boolean },
) => Promise<string>;

const GITLINK = '160000';

/** The ids `git cat-file --batch-check` reported missing. */
const missing = (out: string) =>
  out.split('\n').flatMap((line) => (line.endsWith(' missing') ? [line.split(' ')[0] as string] : []));

/** Copies the index's contents that only another store holds into a kept pack of this one; gone ones are left. */
async function copyBorrowed(gitDir: string, run: StoreRun): Promise<void> {
  const ids = new Set<string>();
  for (const record of (await run(['ls-files', '-s', '-z'])).split('\0')) {
    const match = /^(\d+) ([0-9a-f]{40}) /.exec(record);
    if (match && match[1] !== GITLINK) ids.add(match[2] as string);
  }
  const check = (list: readonly string[], local: boolean) =>
    run(['cat-file', '--batch-check=%(objectname)'], `${list.join('\n')}\n`, { local });
  const elsewhere = ids.size > 0 ? missing(await check([...ids], true)) : [];
  // Those already gone from the other store too (pruned) cannot be copied; the rest can.
  const gone = new Set(elsewhere.length > 0 ? missing(await check(elsewhere, false)) : []);
  const copy = elsewhere.filter((id) => !gone.has(id));
  if (copy.length === 0) return;
  const pack = join(gitDir, 'objects', 'pack', 'pack');
  const hash = (await run(['pack-objects', '-q', '--window=0', pack], `${copy.join('\n')}\n`)).trim();
  // Kept: the store's own repack (-l) would otherwise drop what the other store still holds.
  await fs.writeFile(`${pack}-${hash}.keep`, '');
}

/** Present while the index names contents only another repository's store holds (seeded, not yet copied). */
const MARKER = 'keel-borrowed';

/**
 * `mark`: the index was just seeded from another repository's. `keep`: copies what it borrows, once after each
 * seed (the marker outlives a kill, so the next process copies instead).
 */
export function borrowedContents(gitDir: string, run: StoreRun) {
  const marker = join(gitDir, MARKER);
  /** undefined: the marker not looked at yet this process. */
  let pending: boolean | undefined;
  return {
    async mark(): Promise<void> {
      await fs.writeFile(marker, '');
      pending = true;
    },
    async keep(): Promise<void> {
      if (pending === false) return;
      if (pending === undefined && !(await fs.stat(marker).catch(() => undefined))) {
        pending = false;
        return;
      }
      await copyBorrowed(gitDir, run);
      await fs.rm(marker, { force: true });
      pending = false;
    },
  };
}
