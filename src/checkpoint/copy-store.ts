// Checkpoints without git: before a file tool writes, copy what its paths hold (or note that they do not exist).
// Undo puts those paths back; changes made by shell commands are not covered, and the list says so.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join, relative } from 'node:path';
import * as z from 'zod';
import { once } from '../core/once.js';
import {
  type Checkpoint,
  CheckpointError,
  type CheckpointMeta,
  type CheckpointStore,
  checkpointMetaSchema,
  type FileChange,
  type RestoreResult,
} from './checkpoints.js';

/** One path a call was going to write: its copy under `files/<index>`, or absent at the time. */
const savedSchema = once(() => z.object({ path: z.string(), existed: z.boolean() }));
const copyMetaSchema = once(() => checkpointMetaSchema().extend({ saved: z.array(savedSchema()) }));
type Saved = z.infer<ReturnType<typeof savedSchema>>;

const exists = (path: string) =>
  fs.lstat(path).then(
    () => true,
    () => false,
  );

/** Ids sort by time: base-36 milliseconds, then a random tail for two checkpoints in one millisecond. */
function newId(previous: { ms: number }): string {
  const ms = Math.max(Date.now(), previous.ms + 1);
  previous.ms = ms;
  return `${ms.toString(36).padStart(9, '0')}${randomBytes(2).toString('hex')}`;
}

export function copyStore(dir: string, root: string): CheckpointStore {
  const last = { ms: 0 };

  const save = async (meta: CheckpointMeta, writes: readonly string[]): Promise<string> => {
    const id = newId(last);
    const target = join(dir, id);
    const saved: Saved[] = [];
    try {
      await fs.mkdir(join(target, 'files'), { recursive: true });
      for (const [index, absolute] of writes.entries()) {
        const existed = await exists(absolute);
        if (existed) {
          await fs.cp(absolute, join(target, 'files', String(index)), {
            recursive: true,
            preserveTimestamps: true,
            verbatimSymlinks: true,
          });
        }
        saved.push({ path: relative(root, absolute), existed });
      }
      // The meta file comes last: a checkpoint interrupted half-way is never listed.
      await fs.writeFile(join(target, 'meta.json'), JSON.stringify({ ...meta, saved }));
    } catch (error) {
      await fs.rm(target, { recursive: true, force: true });
      throw error;
    }
    return id;
  };

  const read = async (): Promise<(Checkpoint & { saved: Saved[] })[]> => {
    const ids = (await fs.readdir(dir).catch(() => [] as string[])).sort().reverse();
    const checkpoints: (Checkpoint & { saved: Saved[] })[] = [];
    for (const id of ids) {
      const text = await fs.readFile(join(dir, id, 'meta.json'), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      try {
        const parsed = copyMetaSchema().safeParse(JSON.parse(text));
        if (parsed.success) checkpoints.push({ ...parsed.data, id });
      } catch {
        // A damaged meta file: that checkpoint is skipped, the others still count.
      }
    }
    return checkpoints;
  };

  return {
    kind: 'copy',
    take: save,
    list: read,

    async restore(target: Checkpoint, undoRun: string): Promise<RestoreResult> {
      const all = await read();
      const index = all.findIndex((c) => c.id === target.id);
      // Newest first: undoing each call in turn ends with every path as it was before the target's call.
      const steps = all.slice(0, index + 1);
      const paths = [...new Set(steps.flatMap((c) => c.saved.map((s) => s.path)))];
      const before = new Map(
        await Promise.all(paths.map(async (p) => [p, await exists(join(root, p))] as const)),
      );
      const undoId = await save(
        {
          time: new Date().toISOString(),
          run: undoRun,
          call: 'undo',
          tool: 'undo',
          summary: `undo to ${target.id}`,
          paths,
          first: true,
        },
        paths.map((p) => join(root, p)),
      );
      try {
        for (const step of steps) {
          for (const [i, s] of step.saved.entries()) {
            const absolute = join(root, s.path);
            await fs.rm(absolute, { recursive: true, force: true });
            if (s.existed) {
              await fs.cp(join(dir, step.id, 'files', String(i)), absolute, {
                recursive: true,
                preserveTimestamps: true,
                verbatimSymlinks: true,
              });
            }
          }
        }
      } catch (error) {
        throw new CheckpointError(
          'restore_failed',
          `could not restore checkpoint ${target.id}: ${error instanceof Error ? error.message : String(error)}`,
          { hint: `keel undo ${undoId} goes back to the state before this undo`, cause: error },
        );
      }
      const changes: FileChange[] = [];
      for (const p of paths) {
        const was = before.get(p) ?? false;
        const now = await exists(join(root, p));
        if (was || now) changes.push({ status: !was ? 'A' : !now ? 'D' : 'M', path: p });
      }
      return { undoId, changes: changes.sort((a, b) => (a.path < b.path ? -1 : 1)) };
    },
  };
}
