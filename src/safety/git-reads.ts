// What git reads for the workspace's repository, as git itself says: the hooks folder (`git rev-parse --git-path
// hooks` follows core.hooksPath through included files, worktree and user config, `~` and relative paths) and the
// files it reads settings from, included ones among them (`git config --list --show-origin`), plus the files an
// include names that do not exist yet. Git is asked again only when one of those files changed (inode, size and
// change time, which no command can set back), so a call that leaves git alone costs a few stats.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface GitReads {
  /** The hooks folder, absolute as git names it (links not followed). */
  hooks?: string;
  /** Absolute paths of the files git reads settings from, and of included files it would read once they exist. */
  settings: string[];
}

/** The variables git's answer depends on; the rest of the run's environment (GIT_DIR, GIT_WORK_TREE) is left out. */
const GIT_VARIABLES = [
  'PATH',
  'HOME',
  'XDG_CONFIG_HOME',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
];

const INCLUDE = /^include(if\..+)?\.path$/;

export function gitOutput(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const only: NodeJS.ProcessEnv = { LC_ALL: 'C' };
  for (const name of GIT_VARIABLES) if (env[name] !== undefined) only[name] = env[name];
  return new Promise((resolve) => {
    const child = spawn('git', [...args], { cwd, env: only, stdio: ['ignore', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? Buffer.concat(out).toString('utf8') : undefined));
  });
}

/** The `.git` git starts from: the nearest at or above `dir`. Undefined: git would find no repository here. */
export async function nearestDotGit(dir: string): Promise<string | undefined> {
  for (let d = dir; ; d = path.dirname(d)) {
    const candidate = path.join(d, '.git');
    if (await fs.lstat(candidate).catch(() => undefined)) return candidate;
    if (path.dirname(d) === d) return undefined;
  }
}

/**
 * The settings files in `git config --list --show-origin -z` (`file:<path>\0<key>\n<value>\0`, paths relative to
 * `top`, where git works from: the top of the work tree), and the files its include settings name: relative to the
 * file holding them, `~/` in the home directory.
 */
export function settingsFiles(listing: string, top: string, home: string): string[] {
  const fields = listing.split('\0');
  const files = new Set<string>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i] ?? '';
    if (!origin.startsWith('file:')) continue;
    const file = path.resolve(top, origin.slice(5));
    files.add(file);
    const entry = fields[i + 1] ?? '';
    const newline = entry.indexOf('\n');
    if (newline === -1 || !INCLUDE.test(entry.slice(0, newline))) continue;
    const value = entry.slice(newline + 1);
    if (value === '') continue;
    files.add(
      value.startsWith('~/') ? path.join(home, value.slice(2)) : path.resolve(path.dirname(file), value),
    );
  }
  return [...files];
}

/** Which files these are, and their contents' versions; a folder (`.git`) by its identity only. */
async function signature(files: readonly string[]): Promise<string> {
  const stats = await Promise.all(files.map((f) => fs.stat(f).catch(() => undefined)));
  return stats
    .map((s) => {
      if (!s) return '-';
      const identity = `${s.dev}:${s.ino}`;
      return s.isDirectory() ? identity : `${identity}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    })
    .join('|');
}

/** A lookup of what git reads for `root`. Nothing when git finds no repository, is missing, or refuses it. */
export function gitReadsLookup(root: string, env: NodeJS.ProcessEnv): () => Promise<GitReads> {
  let known: { signature: string; reads: GitReads } | undefined;
  return async () => {
    const dotGit = await nearestDotGit(root);
    if (!dotGit) return { settings: [] };
    const home = env.HOME ?? os.homedir();
    const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
    // Where git may start reading settings, present or not; then every file it read or was told to include.
    const start = [
      dotGit,
      ...['config', 'config.worktree', 'commondir'].map((f) => path.join(dotGit, f)),
      path.join(home, '.gitconfig'),
      path.join(xdg, 'git', 'config'),
    ];
    const signed = async (settings: readonly string[]) =>
      `${dotGit}\0${settings.join('\0')}\0${await signature([...start, ...settings])}`;
    if (known && (await signed(known.reads.settings)) === known.signature) return known.reads;
    const before = await signature(start);
    const [paths, listing] = await Promise.all([
      gitOutput(root, ['rev-parse', '--show-toplevel', '--git-path', 'hooks'], env),
      gitOutput(root, ['config', '--list', '--show-origin', '-z'], env),
    ]);
    // The top of the work tree (absolute), then the hooks folder (relative to `root` unless absolute).
    const [top, hooks] = paths?.replace(/\n$/, '').split('\n') ?? [];
    const reads: GitReads = {
      ...(top && hooks ? { hooks: path.resolve(root, hooks) } : {}),
      settings: listing === undefined || !top ? [] : settingsFiles(listing, top, home),
    };
    // Kept only when git's own files did not change while it read them.
    known =
      (await signature(start)) === before ? { signature: await signed(reads.settings), reads } : undefined;
    return reads;
  };
}
