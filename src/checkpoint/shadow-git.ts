// Runs git against a shadow repository: a git dir of Keel's own, with the workspace as its work tree. The user's
// git config (hooks, signing, fsmonitor, excludes, filters) and their own `.git` never take part.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { ancestorIgnores } from './ancestor-ignores.js';
import { indexIntact } from './git-index.js';
import { readRef } from './git-objects.js';
import { findUserRepo, seedIndex } from './user-repo.js';

/** The chain of checkpoints; each commit's parent is the checkpoint before it. */
export const CHECKPOINT_REF = 'refs/keel/checkpoints';

/** git is not on PATH: checkpoints fall back to copying the files a file tool writes. */
export class GitMissingError extends Error {
  constructor() {
    super('git was not found on PATH');
    this.name = 'GitMissingError';
  }
}

export class GitCommandError extends Error {
  constructor(
    args: readonly string[],
    code: number | null,
    stderr: string,
    /** What the command printed before it failed. */
    readonly stdout = '',
  ) {
    const detail = stderr.trim().split('\n').slice(0, 3).join('; ');
    super(`git ${args[0] ?? ''} failed (exit ${code ?? 'signal'})${detail ? `: ${detail}` : ''}`);
    this.name = 'GitCommandError';
  }
}

/**
 * Appended to the config `git init` writes. Hooks, signing and fsmonitor would run the user's programs; CRLF
 * conversion, filters and excludes from outside the workspace would change what is stored; auto gc would stall a
 * tool call.
 */
const shadowConfig = `[core]
\thooksPath = /dev/null
\tautocrlf = false
\tsafecrlf = false
\tfsmonitor = false
\texcludesFile = /dev/null
\tattributesFile = /dev/null
\tquotePath = false
\tuntrackedCache = true
\tsparseCheckout = false
[commit]
\tgpgsign = false
[gc]
\tauto = 0
[advice]
\taddEmbeddedRepo = false
\taddIgnoredFile = false
[user]
\tname = Keel
\temail = keel@localhost
`;

/** Overrides the workspace's .gitattributes: files are stored and restored byte for byte, never converted or filtered. */
const shadowAttributes = '* -text -eol -filter -ident -working-tree-encoding\n';

export interface ShadowGit {
  readonly gitDir: string;
  /**
   * Creates the shadow repository when missing and writes the ignore patterns of .gitignore files above the
   * workspace (once a process, however many callers wait). Throws GitMissingError when git is not installed.
   */
  ensure(): Promise<void>;
  exists(): Promise<boolean>;
  /**
   * Runs one git command; resolves with its stdout. `local`: without the user's object store, so objects that
   * store holds are written here too (the trees of a snapshot: a checkpoint must stay readable if the user's
   * repository prunes them).
   */
  run(
    args: readonly string[],
    input?: string,
    options?: { local?: boolean; signal?: AbortSignal },
  ): Promise<string>;
  /** Reads these object stores too (a nested repository's), in this process and every later one. */
  shareObjects(dirs: readonly string[]): Promise<void>;
  /** Why the shadow index was not seeded from the user's (or undefined: it was, or it already existed). */
  readonly seedSkipped?: string;
  /** The index was made this process (seeded from the user's, or empty): its stat data is as fresh as it gets. */
  readonly indexFresh: boolean;
  /** Packs loose objects and rolls small packs up when they have piled up; never throws. */
  maintain(): Promise<void>;
}

/** The object stores (the user's repository's) a shadow repository reads from: one path a line. */
const ALTERNATES_FILE = 'keel-alternates';
/** Past these, objects are packed: a loose-object estimate (from one of 256 fan-out folders), and packs. */
const MAX_LOOSE = 256;
const MAX_PACKS = 16;

/** The environment git runs with: no system or global config, no inherited GIT_* variables pointing elsewhere. */
function gitEnv(
  env: NodeJS.ProcessEnv,
  gitDir: string,
  workTree: string,
  alternates: readonly string[] = [],
): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!name.startsWith('GIT_')) clean[name] = value;
  return {
    ...clean,
    ...(alternates.length > 0 ? { GIT_ALTERNATE_OBJECT_DIRECTORIES: alternates.join(':') } : {}),
    // Every file added goes into one pack per command (git's bulk check-in), not a loose object per file; set here
    // rather than in the config so stores made before it get it too.
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'core.bigFileThreshold',
    GIT_CONFIG_VALUE_0: '1',
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Keel',
    GIT_AUTHOR_EMAIL: 'keel@localhost',
    GIT_COMMITTER_NAME: 'Keel',
    GIT_COMMITTER_EMAIL: 'keel@localhost',
    LC_ALL: 'C',
  };
}

/** What `git init` would write before our settings: the config is rewritten whole when a store is repaired. */
const baseConfig =
  '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = false\n';

/** Our settings are in the config: the line no other config has. */
const configComplete = (text: string) => text.includes('hooksPath = /dev/null');

const readText = (path: string) => fs.readFile(path, 'utf8').catch(() => undefined);

/** Replaces a file in one rename, so a kill leaves the old file or the new one, never half of it. */
async function writeAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(temp, text);
  await fs.rename(temp, path);
}

/**
 * Starts one git process in `cwd` with exactly `env`, `input` on its stdin. Resolves with its stdout; rejects with
 * GitCommandError (a non-zero exit) or GitMissingError (no git on PATH). `signal` ends it with SIGTERM, on which git
 * removes the lock files it holds, and rejects (AbortError) once it has exited; a git still there `KILL_AFTER_MS`
 * later gets SIGKILL (a lock it leaves is its caller's to remove).
 */
export type GitSpawn = (
  env: NodeJS.ProcessEnv,
  cwd: string,
  args: readonly string[],
  input?: string,
  signal?: AbortSignal,
) => Promise<string>;

/** How long a git told to end (SIGTERM) has to exit before it is killed. */
const KILL_AFTER_MS = 1000;

export const spawnGit: GitSpawn = (env, cwd, args, input, signal) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn('git', args, { cwd, env, stdio: 'pipe', ...(signal ? { signal } : {}) });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    // Ended by `signal`: rejected once git has exited, its lock files removed, so what comes next never finds one.
    // git has been seen re-raising a SIGTERM to itself forever, its handler calling itself (strace: handler → tgkill
    // → handler; an `update-index --refresh` told to end just after it started, found orphaned and spinning twenty
    // minutes later, while what awaited it had hung): SIGKILL follows if it has not exited soon after.
    let aborted: Error | undefined;
    let killer: NodeJS.Timeout | undefined;
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.name === 'AbortError' && child.pid !== undefined) {
        aborted = error;
        killer ??= setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
      } else reject(error.code === 'ENOENT' ? new GitMissingError() : error);
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      if (aborted) reject(aborted);
      else if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(
          new GitCommandError(
            args,
            code,
            Buffer.concat(err).toString('utf8'),
            Buffer.concat(out).toString('utf8'),
          ),
        );
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });

/** `startGit`: how each git process starts (a test's may start it from a smaller process than itself). */
export function shadowGit(
  gitDir: string,
  workTree: string,
  env: NodeJS.ProcessEnv,
  startGit: GitSpawn = spawnGit,
): ShadowGit {
  const localEnv = gitEnv(env, gitDir, workTree);
  let childEnv = localEnv;
  let seedSkipped: string | undefined;
  let indexFresh = false;
  const run = (
    args: readonly string[],
    input?: string,
    options: { local?: boolean; signal?: AbortSignal } = {},
  ) => startGit(options.local ? localEnv : childEnv, workTree, args, input, options.signal);
  const exists = () =>
    fs.stat(join(gitDir, 'HEAD')).then(
      () => true,
      () => false,
    );

  /** Built in a temp dir beside its place and renamed there: a kill -9 leaves no half-made store. */
  const createFresh = async () => {
    await fs.mkdir(dirname(gitDir), { recursive: true });
    const temp = `${gitDir}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      // No template: the system's sample hooks and excludes are not wanted.
      await startGit(gitEnv(env, temp, workTree), workTree, ['init', '--quiet', '--template=']);
      await fs.appendFile(join(temp, 'config'), shadowConfig);
      await fs.mkdir(join(temp, 'info'), { recursive: true });
      await fs.writeFile(join(temp, 'info', 'attributes'), shadowAttributes);
      await fs.writeFile(join(temp, 'info', 'exclude'), '');
      await fs.rename(temp, gitDir);
    } catch (error) {
      await fs.rm(temp, { recursive: true, force: true });
      // Another Keel in this workspace made it first: theirs is as good as ours.
      if (!(await exists())) throw error;
    }
  };

  /**
   * Puts back what a kill or a careless hand removed: directories, HEAD, our config. Keeps the checkpoints. False
   * when git still cannot read the store.
   */
  const repair = async (): Promise<boolean> => {
    for (const dir of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags', 'info']) {
      await fs.mkdir(join(gitDir, dir), { recursive: true });
    }
    const head = (await readText(join(gitDir, 'HEAD'))) ?? '';
    if (!/^(ref: refs\/\S+|[0-9a-f]{40})\n?$/.test(head)) {
      await writeAtomic(join(gitDir, 'HEAD'), 'ref: refs/heads/master\n');
    }
    if (!configComplete((await readText(join(gitDir, 'config'))) ?? '')) {
      await writeAtomic(join(gitDir, 'config'), baseConfig + shadowConfig);
    }
    if ((await readText(join(gitDir, 'info', 'attributes'))) !== shadowAttributes) {
      await writeAtomic(join(gitDir, 'info', 'attributes'), shadowAttributes);
    }
    // A damaged index is only a cache of the last snapshot: without it the next one adds every file again.
    const index = await fs.readFile(join(gitDir, 'index')).catch(() => undefined);
    if (index && !indexIntact(index)) await fs.rm(join(gitDir, 'index'), { force: true });
    // One git process tells both whether git can read the store at all (it prints the git dir) and whether the
    // chain's newest commit is there.
    const newest = await run([
      'rev-parse',
      '--git-dir',
      '--verify',
      '--quiet',
      `${CHECKPOINT_REF}^{commit}`,
    ]).then(
      (out) => ({ found: true, out }),
      (error: unknown) => {
        if (error instanceof GitCommandError) return { found: false, out: error.stdout };
        throw error;
      },
    );
    if (newest.out.trim() === '') return false;
    // A chain whose newest commit is gone (objects lost) cannot be read: it starts again.
    if (!newest.found && (await readRef(gitDir, CHECKPOINT_REF)) !== undefined) {
      await run(['update-ref', '-d', CHECKPOINT_REF]).catch(() =>
        fs.rm(join(gitDir, CHECKPOINT_REF), { force: true }),
      );
    }
    return true;
  };

  const create = async () => {
    if (
      !(await fs.stat(gitDir).then(
        () => true,
        () => false,
      ))
    )
      await createFresh();
    // Beyond repair (git still cannot read it): set aside, so nothing is lost, and start a new store.
    else if (!(await repair())) {
      await fs.rename(gitDir, `${gitDir}.damaged-${Date.now()}`);
      await createFresh();
    }
    // Refreshed once a process: the .gitignore files above the workspace may have changed since the last run.
    await writeAtomic(join(gitDir, 'info', 'exclude'), (await ancestorIgnores(workTree)).join('\n'));
    await shareUserObjects();
  };

  /**
   * Reads the user's object store (every one this store ever used: old checkpoints may need them), and starts a
   * new index from the user's, so tracked files are neither hashed again nor copied.
   */
  const shareUserObjects = async () => {
    const repo = await findUserRepo(workTree);
    const listed = ((await readText(join(gitDir, ALTERNATES_FILE))) ?? '')
      .split('\n')
      .filter((l) => l !== '');
    const all = [...new Set([...listed, ...(repo ? [repo.objects] : [])])];
    if (repo && !listed.includes(repo.objects))
      await writeAtomic(join(gitDir, ALTERNATES_FILE), `${all.join('\n')}\n`);
    // A path with a colon cannot be listed in the variable; such a store is not shared.
    const usable = all.filter((dir) => !dir.includes(':'));
    childEnv = gitEnv(env, gitDir, workTree, usable);
    const index = join(gitDir, 'index');
    indexFresh = !(await fs.stat(index).then(
      () => true,
      () => false,
    ));
    if (!indexFresh || !repo?.index || !usable.includes(repo.objects)) return;
    seedSkipped = await seedIndex(repo, workTree, index);
  };

  const shareObjects = async (dirs: readonly string[]) => {
    const listed = ((await readText(join(gitDir, ALTERNATES_FILE))) ?? '')
      .split('\n')
      .filter((l) => l !== '');
    const all = [...new Set([...listed, ...dirs])];
    if (all.length > listed.length) await writeAtomic(join(gitDir, ALTERNATES_FILE), `${all.join('\n')}\n`);
    childEnv = gitEnv(
      env,
      gitDir,
      workTree,
      all.filter((dir) => !dir.includes(':')),
    );
  };

  let maintaining: Promise<void> | undefined;
  const maintain = () => {
    // One repack at a time: two would each delete the packs the other is reading.
    maintaining ??= packIfNeeded().finally(() => {
      maintaining = undefined;
    });
    return maintaining;
  };
  const packIfNeeded = async () => {
    try {
      const packs = (await fs.readdir(join(gitDir, 'objects', 'pack'))).filter((n) => n.endsWith('.pack'));
      // Four of the 256 fan-out folders, as a sample.
      const sample = await Promise.all(
        ['00', '40', '80', 'c0'].map((d) => fs.readdir(join(gitDir, 'objects', d)).catch(() => [])),
      );
      const loose = sample.reduce((sum, names) => sum + names.length, 0) * 64;
      if (packs.length <= MAX_PACKS && loose <= MAX_LOOSE) return;
      // -l: never copies objects the user's repository holds; --geometric: rolls up the small packs only.
      await run(['repack', '-d', '-l', '-q', '--geometric=2']);
    } catch {
      // Packing is housekeeping: the checkpoints stay readable either way.
    }
  };
  let ready: Promise<void> | undefined;
  return {
    gitDir,
    exists,
    run,
    shareObjects,
    maintain,
    get seedSkipped() {
      return seedSkipped;
    },
    get indexFresh() {
      return indexFresh;
    },
    ensure() {
      ready ??= create().catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
      return ready;
    },
  };
}
