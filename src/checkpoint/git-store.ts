// Checkpoints as commits of a shadow git repository: the whole workspace (less what its .gitignore files ignore)
// before each call, so changes made by shell commands can be undone too. Plumbing only: add, write-tree,
// commit-tree, update-ref — no porcelain, no hooks, nothing read from or written to the user's own `.git`.
import {
  type Checkpoint,
  CheckpointError,
  type CheckpointMeta,
  type CheckpointStore,
  checkpointMetaSchema,
  type FileChange,
  type RestoreResult,
} from './checkpoints.js';
import type { ShadowGit } from './shadow-git.js';

/** The chain of checkpoints; each commit's parent is the checkpoint before it. */
const REF = 'refs/keel/checkpoints';
const META = 'Keel-Checkpoint: ';
const ID_LENGTH = 10;

function message(meta: CheckpointMeta): string {
  const subject = meta.first ? `before run ${meta.run}: ${meta.summary}` : `before ${meta.summary}`;
  return `${subject}\n\n${META}${JSON.stringify(meta)}\n`;
}

function parseMeta(body: string): CheckpointMeta | undefined {
  const line = body.split('\n').find((l) => l.startsWith(META));
  if (!line) return undefined;
  try {
    const parsed = checkpointMetaSchema.safeParse(JSON.parse(line.slice(META.length)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `-z --name-status` output: status and path alternate, NUL-separated. */
function parseNameStatus(text: string): FileChange[] {
  // Log output puts a NUL and a newline between a commit's message and its files; no path is empty.
  const tokens = text
    .split('\0')
    .map((t) => t.replace(/^\n+/, ''))
    .filter((t) => t !== '');
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const status = tokens[i];
    const path = tokens[i + 1] as string;
    if (status === 'A' || status === 'M' || status === 'D') changes.push({ status, path });
    else if (status === 'T') changes.push({ status: 'M', path });
  }
  return changes;
}

export function gitStore(git: ShadowGit): CheckpointStore {
  const head = async (): Promise<string | undefined> => {
    try {
      return (await git.run(['rev-parse', '--verify', '--quiet', REF])).trim() || undefined;
    } catch {
      return undefined;
    }
  };

  const snapshot = async (meta: CheckpointMeta): Promise<string> => {
    await git.ensure();
    // Stages every file the workspace's .gitignore files do not ignore; `.git` directories are never added.
    await git.run(['add', '--all']);
    const tree = (await git.run(['write-tree'])).trim();
    const parent = await head();
    const commit = (
      await git.run(['commit-tree', tree, ...(parent ? ['-p', parent] : [])], message(meta))
    ).trim();
    // The old value guards against another Keel in the same workspace moving the ref meanwhile.
    await git.run(['update-ref', REF, commit, parent ?? '']);
    return commit;
  };

  return {
    kind: 'git',
    async take(meta) {
      return (await snapshot(meta)).slice(0, ID_LENGTH);
    },

    async list() {
      if (!(await git.exists()) || !(await head())) return [];
      const log = await git.run([
        'log',
        '-z',
        '--no-renames',
        '--name-status',
        '--format=%x1e%H%x1f%B%x1f',
        REF,
      ]);
      const commits = log
        .split('\x1e')
        .slice(1)
        .map((record) => {
          const [hash = '', body = '', rest = ''] = record.split('\x1f');
          return { hash, meta: parseMeta(body), ownChanges: parseNameStatus(rest) };
        });
      // A commit's own diff is what changed since the checkpoint before it: that checkpoint's "changed after".
      await git.run(['add', '--all']);
      const sinceNewest = parseNameStatus(
        await git.run(['diff', '--cached', '-z', '--no-renames', '--name-status', REF]),
      );
      const checkpoints: Checkpoint[] = [];
      commits.forEach((c, i) => {
        if (!c.meta) return;
        const changed = i === 0 ? sinceNewest : (commits[i - 1]?.ownChanges ?? []);
        checkpoints.push({ ...c.meta, id: c.hash.slice(0, ID_LENGTH), changed });
      });
      return checkpoints;
    },

    async restore(target: Checkpoint, undoRun: string): Promise<RestoreResult> {
      const current = await snapshot({
        time: new Date().toISOString(),
        run: undoRun,
        call: 'undo',
        tool: 'undo',
        summary: `undo to ${target.id}`,
        paths: [],
        first: true,
      });
      const full = (await git.run(['rev-parse', '--verify', `${target.id}^{commit}`])).trim();
      const changes = parseNameStatus(
        await git.run(['diff', '-z', '--no-renames', '--name-status', current, full]),
      );
      try {
        // The index holds the state just saved, so files in it but not in the target are removed, the target's
        // files written; ignored and untracked-by-us paths (and `.git`) are left alone.
        await git.run(['read-tree', '--reset', '-u', full]);
      } catch (error) {
        throw new CheckpointError(
          'restore_failed',
          `could not restore checkpoint ${target.id}: ${error instanceof Error ? error.message : String(error)}`,
          {
            hint: `the state before this undo is checkpoint ${current.slice(0, ID_LENGTH)}; keel undo ${current.slice(0, ID_LENGTH)} goes back to it`,
            cause: error,
          },
        );
      }
      return { undoId: current.slice(0, ID_LENGTH), changes };
    },
  };
}
