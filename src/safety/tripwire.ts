// The tripwire: the files that make a later run execute code (git's settings files and hooks, wherever
// core.hooksPath puts them; Keel's config; the settings of other agents and editors that start programs when they
// open the folder; safety.protected_paths) recorded before each call, absent ones included, and put back as they
// were when the call created, changed or deleted one. It catches what command analysis and the sandbox cannot see.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { HISTORY_GONE, hasHistory } from './git-history.js';
import { type GitReads, gitReadsLookup } from './git-reads.js';
import { gitConfigChangeIsBenign } from './git-settings.js';
import { type SubmoduleGits, submodulesLookup } from './git-submodules.js';
import { kernelPath } from './real-path.js';
import { isInside } from './workspace.js';

/**
 * Single files watched, workspace-relative. `.git` itself: a file there (`gitdir: …`) points git at another repo;
 * `.git/commondir` points it at another repository's config and hooks; `.git/config.worktree` is read as config.
 */
export const TRIPWIRE_FILES: readonly string[] = [
  '.git',
  '.git/config',
  '.git/config.worktree',
  '.git/commondir',
  '.keel.yaml',
  '.envrc',
  '.mcp.json',
  '.devcontainer.json',
  'opencode.json',
  'opencode.jsonc',
  '.vscode/tasks.json',
  '.vscode/settings.json',
  '.vscode/mcp.json',
];

/** Directories watched with all they hold. */
export const TRIPWIRE_TREES: readonly string[] = [
  '.git/hooks',
  '.keel',
  '.claude',
  '.gemini',
  '.qwen',
  '.codex',
  '.cursor',
  '.opencode',
  '.devcontainer',
];

/** A linked worktree's files in `.git/worktrees/<name>/` that point git at settings (read when git runs there). */
const WORKTREE_FILES: readonly string[] = ['config', 'config.worktree', 'commondir'];

/** Git's own files read as config: a change that sets only what runs nothing stands (git-settings.ts). */
const GIT_CONFIG_FILE = /^\.git\/(worktrees\/[^/]+\/)?config(\.worktree)?$/;
/** What `git worktree add` writes: the way from a linked worktree's folder back to this repository. */
const WORKTREE_COMMONDIR = /^\.git\/worktrees\/[^/]+\/commondir$/;

/** Entries kept per tree and for the protected_paths globs: enough for any settings folder, bounded per call. */
const MAX_ENTRIES = 2000;
/** Contents kept to restore from; a larger file is compared by size and time only and cannot be restored. */
const MAX_KEPT_BYTES = 1024 * 1024;

type Entry =
  | { kind: 'file'; content?: Buffer; size: number; mtimeMs: number; mode: number }
  | { kind: 'link'; target: string }
  | { kind: 'dir' };

export interface TripwireOptions {
  /** The workspace's real path. */
  root: string;
  /** safety.protected_paths: workspace-relative globs. */
  globs: readonly string[];
  /** Where git is found (PATH) to read a changed `.git/config`. */
  env: NodeJS.ProcessEnv;
}

export interface Tripped {
  path: string;
  change: 'created' | 'changed' | 'deleted';
  /** Put back as it was; false: it could not be (the reason is in `error`). */
  restored: boolean;
  error?: string;
}

export interface ArmedTripwire {
  /** Compares with the state recorded at arm time and restores what changed; empty when nothing did. */
  check(): Promise<Tripped[]>;
}

export interface Tripwire {
  /** Records the protected files now. `exempt`: absolute paths the call was approved to write (a file tool's). */
  arm(exempt?: readonly string[]): Promise<ArmedTripwire>;
  /**
   * While background commands run, what they may write after their call returned: records the state after a call,
   * to be compared by `settle` before the next call (or when the run ends).
   */
  linger(): Promise<void>;
  /** Compares with the lingering record, if any, puts back what changed since, and drops the record. */
  settle(): Promise<Tripped[]>;
}

const same = (a: Entry | undefined, b: Entry | undefined): boolean => {
  if (!a || !b) return a === b;
  if (a.kind === 'file' && b.kind === 'file') {
    if (a.size !== b.size) return false;
    if (a.content && b.content) return a.content.equals(b.content);
    return a.mtimeMs === b.mtimeMs;
  }
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  return a.kind === b.kind;
};

async function entryOf(absolute: string): Promise<Entry | undefined> {
  const stat = await fs.lstat(absolute).catch(() => undefined);
  if (!stat) return undefined;
  if (stat.isSymbolicLink()) return { kind: 'link', target: await fs.readlink(absolute).catch(() => '') };
  if (stat.isDirectory()) return { kind: 'dir' };
  const content =
    stat.size <= MAX_KEPT_BYTES ? await fs.readFile(absolute).catch(() => undefined) : undefined;
  return {
    kind: 'file',
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    mode: stat.mode & 0o7777,
    ...(content ? { content } : {}),
  };
}

/** Every entry under `rel` (itself included), directories first, not following links. */
async function walk(root: string, rel: string, into: Map<string, Entry>, budget: { left: number }) {
  if (budget.left <= 0) return;
  const entry = await entryOf(path.join(root, rel));
  if (!entry) return;
  budget.left -= 1;
  into.set(rel, entry);
  if (entry.kind !== 'dir') return;
  const names = await fs.readdir(path.join(root, rel)).catch(() => [] as string[]);
  for (const name of names) await walk(root, `${rel}/${name}`, into, budget);
}

/** The walk's start for one protected_paths glob: its literal prefix, or the root (bounded) for `**` globs. */
async function matchGlob(root: string, glob: string, into: Map<string, Entry>) {
  const scan = picomatch.scan(glob);
  if (!scan.isGlob) return walk(root, glob.replace(/\/+$/, ''), into, { left: MAX_ENTRIES });
  const isMatch = picomatch(glob, { dot: true });
  const found = new Map<string, Entry>();
  const base = scan.base.replace(/\/+$/, '');
  if (base) await walk(root, base, found, { left: MAX_ENTRIES });
  else {
    const names = await fs.readdir(root).catch(() => [] as string[]);
    const budget = { left: MAX_ENTRIES };
    for (const name of names)
      if (name !== '.git' && name !== 'node_modules') await walk(root, name, found, budget);
  }
  for (const [rel, entry] of found) if (isMatch(rel)) into.set(rel, entry);
}

/** A path resolved as the kernel would, or undefined when it cannot be (a link loop). */
const resolved = (from: string, requested: string) =>
  kernelPath(from, requested, (detail) => {
    throw new Error(detail);
  }).then(
    (r) => r.real,
    () => undefined,
  );

/** The files of each linked worktree, `.git/worktrees/*` (the folder itself as git made it, not a link). */
async function worktreeFiles(root: string): Promise<string[]> {
  const folder = path.join(root, '.git', 'worktrees');
  if (!(await fs.lstat(folder).catch(() => undefined))?.isDirectory()) return [];
  const names = (await fs.readdir(folder).catch(() => [] as string[])).slice(0, MAX_ENTRIES);
  return names.flatMap((name) => WORKTREE_FILES.map((file) => `.git/worktrees/${name}/${file}`));
}

/** `absolute` inside the workspace, workspace-relative: as named and, when that goes through a link, where it leads. */
async function inWorkspace(root: string, absolute: string): Promise<string[]> {
  const rels = new Set<string>();
  for (const p of [absolute, (await resolved(root, absolute)) ?? absolute]) {
    const rel = path.relative(root, p).split(path.sep).join('/');
    if (rel !== '' && rel !== '..' && !rel.startsWith('../') && !path.isAbsolute(rel)) rels.add(rel);
  }
  return [...rels];
}

/** What a record covers beyond the fixed lists, as git reads the repository when the call starts. */
interface Watched {
  /** Other files git reads settings from (included ones) that are in the workspace. */
  settings: string[];
  /** The hooks folder core.hooksPath names, when it is in the workspace. */
  trees: string[];
  /** Submodules' git folders (their settings files and hooks) and gitlinks' `.git` files. */
  submodules: SubmoduleGits;
}

/** A submodule's files watched: what git reads settings from there, and its hooks. */
const submoduleFiles = (s: SubmoduleGits) => [
  ...s.gitDirs.flatMap((dir) => [`${dir}/config`, `${dir}/config.worktree`]),
  ...s.dotGitFiles,
];
const submoduleConfigs = (s: SubmoduleGits) => new Set(submoduleFiles(s).filter((f) => !f.endsWith('/.git')));
const hooksTrees = (s: SubmoduleGits) => ['.git/hooks', ...s.gitDirs.map((dir) => `${dir}/hooks`)];

/** Both lists of submodules: the call's new ones are watched beside those it started with. */
const bothSubmodules = (a: SubmoduleGits, b: SubmoduleGits): SubmoduleGits => ({
  gitDirs: [...new Set([...a.gitDirs, ...b.gitDirs])],
  dotGitFiles: [...new Set([...a.dotGitFiles, ...b.dotGitFiles])],
});

/**
 * Husky's `.husky/_` holds stubs that run the file of the same name in `.husky`, so the folder above a hooks
 * folder named `_` is watched instead. The workspace itself is never one, nor `.git/hooks` (always watched).
 */
async function watchedBy(root: string, reads: GitReads, submodules: SubmoduleGits): Promise<Watched> {
  const settings = (await Promise.all(reads.settings.map((f) => inWorkspace(root, f)))).flat();
  const hooks = reads.hooks ? await inWorkspace(root, reads.hooks) : [];
  const trees = hooks.map((rel) =>
    path.posix.basename(rel) === '_' && path.posix.dirname(rel) !== '.' ? path.posix.dirname(rel) : rel,
  );
  return {
    settings: [...new Set(settings)],
    trees: [...new Set(trees)].filter((rel) => rel !== '.git/hooks'),
    submodules,
  };
}

async function record(options: TripwireOptions, watched: Watched): Promise<Map<string, Entry>> {
  const state = new Map<string, Entry>();
  const files = [
    ...TRIPWIRE_FILES,
    ...(await worktreeFiles(options.root)),
    ...watched.settings,
    ...submoduleFiles(watched.submodules),
  ];
  for (const rel of new Set(files)) {
    const entry = await entryOf(path.join(options.root, rel));
    // `.git` as a directory is the repository itself: only a `.git` file (or link) is a setting.
    if (entry && !(rel === '.git' && entry.kind === 'dir')) state.set(rel, entry);
  }
  const hooks = hooksTrees(watched.submodules);
  for (const rel of [...TRIPWIRE_TREES, ...watched.trees, ...hooks.slice(1)]) {
    const found = new Map<string, Entry>();
    await walk(options.root, rel, found, { left: MAX_ENTRIES });
    // Git never runs a sample hook.
    for (const [p, e] of found) if (!(hooks.includes(rel) && p.endsWith('.sample'))) state.set(p, e);
  }
  for (const glob of options.globs) await matchGlob(options.root, glob, state);
  return state;
}

/** Puts one path back as `before` held it; undefined: it did not exist, so what is there now goes. */
async function restore(root: string, absolute: string, before: Entry | undefined): Promise<void> {
  // A folder on the way swapped for a link: nothing is written through it, outside the workspace.
  let existing = path.dirname(absolute);
  while (!(await fs.lstat(existing).catch(() => undefined)) && existing !== root)
    existing = path.dirname(existing);
  if (!isInside(root, await fs.realpath(existing).catch(() => existing))) {
    throw new Error('its folder now leads outside the workspace');
  }
  const now = await fs.lstat(absolute).catch(() => undefined);
  if (before?.kind === 'dir') {
    if (now && !now.isDirectory()) await fs.rm(absolute, { force: true });
    await fs.mkdir(absolute, { recursive: true });
    return;
  }
  if (now) await fs.rm(absolute, { recursive: true, force: true });
  if (!before) return;
  await fs.mkdir(path.dirname(absolute), { recursive: true });
  if (before.kind === 'link') {
    await fs.symlink(before.target, absolute);
    return;
  }
  if (!before.content) throw new Error(`larger than ${MAX_KEPT_BYTES / 1024} KB: its content was not kept`);
  await fs.writeFile(absolute, before.content, { mode: before.mode });
  await fs.chmod(absolute, before.mode);
}

/** The submodule git folder `rel` is in, if any. */
const submoduleDirOf = (rel: string, s: SubmoduleGits) => s.gitDirs.find((dir) => rel.startsWith(`${dir}/`));

/**
 * Whether a change git itself makes in its normal work stands: a settings file changed only in what runs nothing,
 * the way back to this repository `git worktree add` writes, the files of a linked worktree git removed whole; a
 * submodule's likewise (`git submodule add`, `update`, `deinit`; its folder named under `.git/modules`).
 */
async function changeStands(
  root: string,
  rel: string,
  change: {
    old: Entry | undefined;
    now: Entry | undefined;
    settings: readonly string[];
    submodules: SubmoduleGits;
  },
  env: NodeJS.ProcessEnv,
): Promise<boolean> {
  const { old, now, submodules } = change;
  const gone = async (dir: string) => !(await fs.lstat(path.join(root, dir)).catch(() => undefined));
  if (rel.startsWith('.git/worktrees/') && !now) return gone(path.dirname(rel));
  // Nothing runs for a submodule that is no longer there: its `.git` file, or its folder removed whole.
  if (!now && submodules.dotGitFiles.includes(rel)) return true;
  const module = submoduleDirOf(rel, submodules);
  if (!now && module !== undefined) return gone(module);
  if (now?.kind !== 'file' || !now.content || old?.kind === 'dir') return false;
  const text = old?.kind === 'file' ? old.content?.toString('utf8') : undefined;
  if (submoduleConfigs(submodules).has(rel)) {
    // A submodule's settings name its checkout (core.worktree), as `git submodule` writes them.
    return gitConfigChangeIsBenign(text, now.content.toString('utf8'), env, { submodule: true });
  }
  if (submodules.dotGitFiles.includes(rel)) {
    const named = /^gitdir: (.+?)\r?\n?$/.exec(now.content.toString('utf8'));
    const target = named?.[1] && (await resolved(path.dirname(path.join(root, rel)), named[1]));
    const modules = await resolved(root, '.git/modules');
    return Boolean(target && modules && isInside(modules, target) && target !== modules);
  }
  if (GIT_CONFIG_FILE.test(rel) || change.settings.includes(rel)) {
    return gitConfigChangeIsBenign(text, now.content.toString('utf8'), env);
  }
  if (WORKTREE_COMMONDIR.test(rel)) {
    // Read as git reads it: trailing line ends dropped, relative to the worktree's folder, links followed.
    const target = now.content.toString('utf8').replace(/[\r\n]+$/, '');
    const common = await resolved(path.dirname(path.join(root, rel)), target);
    return common !== undefined && common === (await resolved(root, '.git'));
  }
  return false;
}

export function createTripwire(options: TripwireOptions): Tripwire {
  const { root } = options;
  let lingering: ArmedTripwire | undefined;
  const gitReads = gitReadsLookup(root, options.env);
  const submodules = submodulesLookup(root, options.env);
  return {
    async linger() {
      lingering = await this.arm();
    },
    async settle() {
      const armed = lingering;
      lingering = undefined;
      return armed ? armed.check() : [];
    },
    async arm(exempt = []) {
      // As git reads the repository now: a call that points git elsewhere (hooksPath, an include) has that
      // setting put back, so what the new place holds never runs.
      const watched = await watchedBy(root, await gitReads(), await submodules());
      const before = await record(options, watched);
      const hadHistory = await hasHistory(root);
      const isExempt = (rel: string) => exempt.some((e) => isInside(e, path.join(root, rel)));
      return {
        async check() {
          // Submodules the call made (`git submodule add`, a repository `git add`ed) are watched from now on.
          const all = bothSubmodules(watched.submodules, await submodules());
          const after = await record(options, { ...watched, submodules: all });
          const paths = [...new Set([...before.keys(), ...after.keys()])].filter(
            (p) => !same(before.get(p), after.get(p)) && !isExempt(p),
          );
          const tripped: Tripped[] = [];
          // The repository itself removed (`rm -rf .git`) is not a planted setting: nothing of it is rebuilt.
          const repoGone = !(await fs.lstat(path.join(root, '.git')).catch(() => undefined))?.isDirectory();
          // What the call created goes first, deepest first (files before their folders); then, shallowest first,
          // what it changed or deleted is put back.
          const created = paths.filter((p) => !before.has(p)).sort((a, b) => b.length - a.length);
          const others = paths.filter((p) => before.has(p)).sort((a, b) => a.length - b.length);
          for (const rel of [...created, ...others]) {
            const old = before.get(rel);
            const now = after.get(rel);
            if (repoGone && rel.startsWith('.git/')) continue;
            if (!old && now?.kind === 'dir') {
              // A folder made for a removed file goes too, unless something allowed is in it (`git init`'s hooks/).
              await fs.rmdir(path.join(root, rel)).catch(() => {});
              continue;
            }
            const seen = { old, now, settings: watched.settings, submodules: all };
            if (await changeStands(root, rel, seen, options.env)) continue;
            const change = !old ? 'created' : !now ? 'deleted' : 'changed';
            try {
              await restore(root, path.join(root, rel), old);
              // A folder put back is said through the files in it.
              if (old?.kind !== 'dir') tripped.push({ path: rel, change, restored: true });
            } catch (error) {
              const why = error instanceof Error ? error.message : String(error);
              tripped.push({ path: rel, change, restored: false, error: why });
            }
          }
          // Nothing puts a deleted history back; said, so the model and the user know what undo cannot do.
          if (hadHistory && !(await hasHistory(root)))
            tripped.push({ path: '.git', change: 'deleted', restored: false, error: HISTORY_GONE });
          return tripped;
        },
      };
    },
  };
}

/** `.keel.yaml (created; removed again), .git/config (changed; restored)`: for the model, the user and the audit. */
export function describeTripped(tripped: readonly Tripped[]): string {
  const done = { created: 'removed again', changed: 'restored', deleted: 'brought back' } as const;
  return tripped
    .map((t) => `${t.path} (${t.change}; ${t.restored ? done[t.change] : `not restored: ${t.error}`})`)
    .join(', ');
}
