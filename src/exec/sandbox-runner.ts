// The bubblewrap sandbox: shell commands run with the workspace writable, the rest of the filesystem read-only,
// home secrets and Keel's own files hidden, a private /tmp, no network (unless allowed) and their own PID
// namespace, which ends everything they started when they exit. A CommandRunner like the plain one: tools
// cannot tell the difference.
import { existsSync, lstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { CommandRunner } from '../core/runner.js';
import { HOME_SECRETS } from '../safety/home-secrets.js';
import type { Launcher } from './command-process.js';
import { gitMayWrite } from './git-writes.js';
import { createProcessRunner } from './process-runner.js';

/**
 * Hidden under HOME besides the secrets (safety/home-secrets.ts): Docker's whole folder (its contexts name hosts and
 * certificates), Keel's config and state.
 */
export const HIDDEN_HOME_EXTRAS: readonly string[] = ['.docker', '.config/keel', '.local/state/keel'];

/**
 * Paths inside the workspace that stay read-only when they exist: a command must not widen Keel's next run
 * (.keel.yaml, .keel/) or plant code git runs later (hooks; the files git reads settings from: config,
 * config.worktree, commondir, which points git at another repository's). One that does not exist cannot be mounted
 * without creating it in the real workspace; the tripwire puts back whatever a command creates there. Linked
 * worktrees' files (`.git/worktrees/<name>/`) are left to the tripwire, which lets stand what `git worktree add` and
 * `remove` do and puts back anything else: mounted read-only, they made both fail.
 */
export const READ_ONLY_WORKSPACE_PATHS: readonly string[] = [
  '.keel.yaml',
  '.keel',
  '.git/hooks',
  '.git/config',
  '.git/config.worktree',
  '.git/commondir',
];

/**
 * Where the host keeps its service sockets (the D-Bus buses, docker.sock, database and agent sockets): a socket
 * connects through a read-only mount and past the network namespace, so `systemd-run --user` or docker.sock would
 * run code outside the sandbox. Covered by an empty tmpfs, with the user's XDG_RUNTIME_DIR.
 */
export const HOST_SOCKET_DIRS: readonly string[] = ['/run', '/var/run'];

/** Namespaces and process rules of every sandboxed command (the probe uses the same). */
function isolation(network: boolean): string[] {
  return [
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(network ? [] : ['--unshare-net']),
    // No TIOCSTI into Keel's terminal; the sandbox ends if Keel dies.
    '--new-session',
    '--die-with-parent',
  ];
}

/** The filesystem every sandbox starts from: everything read-only, fresh /dev, /proc and /tmp. */
const BASE_MOUNTS = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];

export interface SandboxOptions {
  /** The workspace root: the only writable place besides the private /tmp. */
  workspace: string;
  home: string;
  /** Keel's config and state directories (credentials, trust records, saved outputs): hidden. */
  keelDirs: string[];
  network: boolean;
  /** The user's runtime folder (XDG_RUNTIME_DIR): its sockets are hidden like HOST_SOCKET_DIRS. */
  runtimeDir?: string;
}

/** The real file /etc/resolv.conf names when it lives in a socket folder (systemd-resolved's stub): shown again. */
function resolverFile(hiddenDirs: readonly string[]): string | undefined {
  try {
    const real = realpathSync('/etc/resolv.conf');
    return hiddenDirs.some((dir) => isInside(real, dir)) ? real : undefined;
  } catch {
    return undefined;
  }
}

function statOrUndefined(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined; // unreadable or a loop: nothing to read through it either
  }
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const isInside = (path: string, dir: string): boolean => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
};

/** bwrap's arguments before the program: mounts in order (later ones cover earlier ones), then isolation. */
export function sandboxArgs(
  options: SandboxOptions,
  cwd: string,
  gitWrites = false,
  readable: readonly string[] = [],
): string[] {
  const args = [...BASE_MOUNTS];
  // A HOME under /tmp (tests, throwaway accounts) would vanish under the private /tmp: show it read-only.
  if (isInside(options.home, '/tmp') && existsSync(options.home))
    args.push('--ro-bind', options.home, options.home);
  args.push('--bind', options.workspace, options.workspace);
  // The history, read-only to every program but git (exec/git-writes.ts): undo brings files back, not commits.
  const git = join(options.workspace, '.git');
  if (!gitWrites && existsSync(git)) args.push('--ro-bind', git, git);
  for (const rel of READ_ONLY_WORKSPACE_PATHS) {
    const path = join(options.workspace, rel);
    if (existsSync(path)) args.push('--ro-bind', path, path);
  }
  // Folders behind an empty tmpfs, then files behind an empty one, each only where it exists (and is not inside a
  // hidden folder already): a mount point that does not exist would have to be created in the real home.
  const hidden = [...HOME_SECRETS, ...HIDDEN_HOME_EXTRAS].map((rel) => join(options.home, rel));
  const dirs: string[] = [];
  const files: string[] = [];
  for (const p of new Set([...hidden, ...options.keelDirs].map((d) => resolve(d)))) {
    const stats = statOrUndefined(p);
    // Never hide the workspace itself (someone working inside ~/.config/keel, say).
    if (stats === undefined || isInside(options.workspace, p)) continue;
    (stats.isDirectory() ? dirs : files).push(p);
  }
  const covered = (p: string, folders: readonly string[]) =>
    folders.some((dir) => dir !== p && isInside(p, dir));
  for (const dir of dirs) if (!covered(dir, dirs)) args.push('--tmpfs', dir);
  for (const file of files) if (!covered(file, dirs)) args.push('--ro-bind', '/dev/null', file);
  // Service sockets: real folders only (/var/run is usually a link to /run), never one holding the workspace.
  const socketDirs = [...HOST_SOCKET_DIRS, ...(options.runtimeDir ? [options.runtimeDir] : [])].filter(
    (dir) => lstatOrUndefined(dir)?.isDirectory() && !isInside(options.workspace, dir),
  );
  for (const dir of socketDirs) args.push('--tmpfs', dir);
  const resolver = options.network ? resolverFile(socketDirs) : undefined;
  if (resolver) args.push('--ro-bind', resolver, resolver);
  // What the command itself runs (a config-defined tool's script), shown read-only wherever it is, hidden or not.
  for (const file of readable) if (statOrUndefined(file)?.isFile()) args.push('--ro-bind', file, file);
  args.push(...isolation(options.network), '--setenv', 'TMPDIR', '/tmp', '--chdir', cwd);
  return args;
}

/**
 * Runs the command, then counts what it left running in the namespace (everything but bwrap's init and
 * itself, zombies aside) and reports the count on fd 3 before exiting, which ends them all. The command
 * itself never sees fd 3, so it cannot forge the count.
 */
const WRAPPER = `bash -c "$1" 3>&-; s=$?; n=0
for p in /proc/[0-9]*; do p=\${p#/proc/}
  if [ "$p" = 1 ] || [ "$p" = $$ ]; then continue; fi
  read -r l < /proc/$p/stat 2>/dev/null || continue
  l=\${l##*) }; [ "\${l%% *}" = Z ] || n=$((n+1))
done
echo $n >&3; exit $s`;

/** The same, running an argv as given: bash only expands "$@", never parses the arguments. */
const ARGV_WRAPPER = WRAPPER.replace('bash -c "$1"', '"$@"');

export function sandboxLauncher(options: SandboxOptions): Launcher {
  return (command, cwd, argv, gitWrites, readable) => ({
    file: 'bwrap',
    args: [
      ...sandboxArgs(options, cwd, gitWrites, readable),
      'bash',
      '-c',
      ...(argv ? [ARGV_WRAPPER, 'keel-sandbox', ...argv] : [WRAPPER, 'keel-sandbox', command]),
    ],
    reportsLeftovers: true,
  });
}

/** Said after a command that failed on the read-only `.git`: how to get the same done. */
export const READ_ONLY_GIT_NOTE =
  '[keel: .git is read-only in the sandbox to every program but git, so no script or tool can delete the history; run the git commands on their own]';

/**
 * A runner whose every command, background ones included, runs inside the sandbox; `.git` is writable only to a
 * command git runs (exec/git-writes.ts), so background commands see it read-only.
 */
export function createSandboxRunner(env: NodeJS.ProcessEnv, options: SandboxOptions): CommandRunner {
  const runner = createProcessRunner(env, sandboxLauncher(options));
  return {
    ...runner,
    async run(request) {
      const gitWrites = request.argv === undefined && (await gitMayWrite(request.command));
      const outcome = await runner.run({ ...request, gitWrites });
      const failedOnGit =
        !gitWrites &&
        outcome.exitCode !== 0 &&
        /\.git\b[^\n]*Read-only file system|Read-only file system[^\n]*\.git\b/.test(outcome.stderr.text);
      if (!failedOnGit) return outcome;
      return {
        ...outcome,
        stderr: { ...outcome.stderr, text: `${outcome.stderr.text}\n${READ_ONLY_GIT_NOTE}` },
      };
    },
  };
}

/** Keel's directories a sandbox hides: the config file's folder and the state directory. */
export function keelDirectories(configFile: string, state: string): string[] {
  return [dirname(configFile), state];
}

/** Arguments of the start-up probe: the same isolation as real commands, running `true`. */
export function probeArgs(network: boolean): string[] {
  return [...BASE_MOUNTS, ...isolation(network), 'true'];
}
