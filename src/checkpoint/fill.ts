// Takes many paths into the shadow index at once, without git: each file is read once (its stat data taken from the
// open file before its content), hashed and deflated (fill-job.ts, on worker threads for a big tree), its entry
// written into one pack (pack-writer.ts) and entered into the index with that stat data (index-writer.ts). What
// `git add` of those paths would stage, at a fraction of the cost: no loose object per file, no git process.
import { type FillResult, KIND, META } from './fill-job.js';
import { type FillThreads, runFill } from './fill-workers.js';
import { type IndexEntry, writeIndex } from './index-writer.js';
import { packWriter } from './pack-writer.js';

export interface FillRequest {
  /** Paths (relative, `/`-separated) to take as they are now: added, updated, or dropped when gone. */
  paths: readonly string[];
  /** Paths to drop from the index whatever they are now. */
  remove?: readonly string[];
  /** Files larger than this are not added (and dropped from the index): the caller names them. */
  maxFileBytes: number;
}

export interface Filled {
  /** Files over maxFileBytes, left out. */
  large: string[];
  /** Folders (a nested repository, a file turned folder): for `git update-index`, which knows what they are. */
  rest: string[];
  /** Entries added to the index. */
  added: number;
  /** Jobs (runs of paths) done on worker threads. */
  threaded: number;
}

/** Takes `paths` into the shadow index at `gitDir`, their contents into one new pack. */
export async function fillIndex(
  gitDir: string,
  root: string,
  request: FillRequest,
  options: FillThreads = {},
): Promise<Filled> {
  const filled: Filled = { large: [], rest: [], added: 0, threaded: 0 };
  const touched = new Set<string>(request.remove ?? []);
  const all = [...new Set(request.paths)]
    .map((path) => ({ path, name: Buffer.from(path, 'utf8') }))
    .sort((a, b) => Buffer.compare(a.name, b.name));
  // A path ending in `/` is a folder git listed as such (a nested repository): update-index's.
  const files = all.filter((p) => !p.path.endsWith('/'));
  for (const p of all) if (p.path.endsWith('/')) filled.rest.push(p.path);
  const metas: (Buffer | undefined)[] = new Array(files.length);
  const pack = packWriter(gitDir);
  try {
    const take = (result: FillResult) => {
      const data = Buffer.from(result.data.buffer, result.data.byteOffset, result.data.byteLength);
      const meta = Buffer.from(result.metas.buffer, result.metas.byteOffset, result.metas.byteLength);
      for (let k = 0; k < result.count; k++) {
        const i = result.start + k;
        const path = (files[i] as (typeof files)[number]).path;
        const kind = result.kinds[k];
        if (kind === KIND.folder) {
          filled.rest.push(path);
          continue;
        }
        touched.add(path);
        if (kind === KIND.large) filled.large.push(path);
        if (kind !== KIND.blob) continue;
        const from = k === 0 ? 0 : (result.ends[k - 1] as number);
        pack.addEntry(meta, k * META + 40, data, from, result.ends[k] as number, result.crcs[k] as number);
        metas[i] = meta.subarray(k * META, (k + 1) * META);
      }
    };
    filled.threaded = await runFill(
      { root, maxFileBytes: request.maxFileBytes, level: 1 },
      files.map((f) => f.path),
      take,
      options,
    );
    await pack.finish();
  } catch (error) {
    await pack.abort();
    throw error;
  }
  const added: IndexEntry[] = [];
  files.forEach((f, i) => {
    const meta = metas[i];
    if (meta) added.push({ name: f.name, meta });
  });
  filled.added = added.length;
  filled.rest.sort();
  filled.large.sort();
  // The objects are in place before the index names them.
  await writeIndex(gitDir, added, touched);
  return filled;
}
