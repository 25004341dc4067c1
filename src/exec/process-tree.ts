// Finds and kills every process a command started, wherever it went. A process group is not enough: `setsid`
// leaves it and double-forked daemons are re-parented away. Each command carries two markers that children
// inherit across setsid, nohup and double forks, and that /proc shows for every process of the same user: a
// variable in its environment (/proc/<pid>/environ), and a file descriptor (/proc/<pid>/fd), which `env -i` or
// `env -u` does not drop. Either one makes a process the command's.
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  rmdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';

/** The variable that marks a command's processes: `KEEL_RUN_ID=<run>-<command number>`. */
export const MARKER_VAR = 'KEEL_RUN_ID';

export interface ProcessMatch {
  /** A process group to include (the command's own). */
  group?: number;
  /** The marker's value; with `prefix`, any value starting with it (all commands of one Keel run). */
  marker: string;
  prefix?: boolean;
  /** A descriptor whose /proc link starts with this marks the process too (`markerLink`). */
  fdLink?: string;
  /** The command's start (clock ticks after boot, from /proc): processes younger than it may be its own. */
  since?: number;
}

/**
 * The marker descriptor's number in a command. Above 15: Node marks its inherited descriptors 0-15 close-on-exec
 * at start-up (libuv's uv_disable_stdio_inheritance), so a Node program's children would lose a lower one. Below
 * any real limit on open files, and clear of the numbers scripts (3-9) and bash (10 and up, the lowest free)
 * choose for themselves.
 */
export const MARKER_FD = 63;

/**
 * What /proc/<pid>/fd shows for the marker descriptors of `marker` (of every command of a run, given the run's
 * prefix): the directory they were opened on, by its real path. Undefined without a temporary directory.
 */
export function markerLink(marker: string): string | undefined {
  try {
    return `${realpathSync(tmpdir())}/keel-${marker}`;
  } catch {
    return undefined;
  }
}

/**
 * A command's marker descriptor: an empty directory made, opened and removed at once (Keel closes its copy once
 * the command is spawned, so nothing is left on disk or in Keel). Nothing can be read from it, written to it or
 * created in it, so a command that uses the descriptor gets an error, never a wait, and nothing fills up.
 * `link` is what its /proc link starts with. Undefined where there is no /proc to find it by, or no directory.
 */
export function openFdMarker(marker: string): { fd: number; link: string } | undefined {
  const base = process.platform === 'linux' ? markerLink(`${marker}-`) : undefined;
  if (base === undefined) return undefined;
  let dir: string | undefined;
  try {
    dir = mkdtempSync(base);
    return { fd: openSync(dir, 'r'), link: base };
  } catch {
    return undefined;
  } finally {
    try {
      if (dir !== undefined) rmdirSync(dir);
    } catch {
      // Removed by someone else: the descriptor, if open, still marks.
    }
  }
}

/** Kill rounds before giving up on a process; a fan-out of children is caught as it forks. */
const MAX_ROUNDS = 12;
/**
 * Rounds a process may stay unsure (an empty environment, or exiting) before it is taken for not ours: the first
 * five pauses add up to 62 ms, far longer than an exec shows an empty environment. A program the user started with
 * `env -i` meanwhile stays empty, and would otherwise hold every command's end for all the rounds (about 0.7 s).
 */
const UNSURE_ROUNDS = 5;
/** PF_KTHREAD in /proc/<pid>/stat's flags: kernel threads have no environment and are never ours. */
const KERNEL_THREAD = 0x00200000;

// One buffer for every read: a scan reads two small files per process, often, so it must be cheap. Made at the
// first scan, not at start-up (256 KB zeroed before the first request of every run); only what a read filled is used.
let scratchBuffer: Buffer | undefined;
const scratchOf = (): Buffer => (scratchBuffer ??= Buffer.allocUnsafe(256 * 1024));

/** A /proc file's bytes; 'exiting' when the process is tearing down (ESRCH), undefined when unreadable. */
function readProc(pid: string | number, file: string): Buffer | 'exiting' | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/${file}`, 'r');
    const scratch = scratchOf();
    let size = 0;
    for (let n = 1; n > 0 && size < scratch.length; size += n)
      n = readSync(fd, scratch, size, scratch.length - size, null);
    return Buffer.from(scratch.subarray(0, size));
  } catch (error) {
    // Gone, or another user's process: neither is ours to kill. A process in the middle of exiting may still
    // fork, though: its children are looked for again.
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'exiting' : undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

interface Stat {
  state: string;
  group: number;
  flags: number;
  startTime: number;
}

/** Fields of /proc/<pid>/stat; the command name may hold spaces and parentheses, so count from its end. */
function statOf(pid: string | number): Stat | undefined {
  const bytes = readProc(pid, 'stat');
  if (!(bytes instanceof Buffer)) return undefined;
  const text = bytes.toString('latin1');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    state: fields[0] ?? '',
    group: Number(fields[2]),
    flags: Number(fields[6]),
    startTime: Number(fields[19]),
  };
}

/** When a process started, in clock ticks after boot (0 when it cannot be read). */
export function startTimeOf(pid: number): number {
  return statOf(pid)?.startTime ?? 0;
}

function hasMarker(environ: Buffer, needle: Buffer, prefix: boolean): boolean {
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    const starts = at === 0 || environ[at - 1] === 0;
    const end = at + needle.length;
    if (starts && (prefix || end === environ.length || environ[end] === 0)) return true;
  }
  return false;
}

/** Whether any of the process's descriptors links to `link…`; read only for processes without the variable. */
function holdsMarker(pid: string, link: string): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      // readlink, not stat: it never touches the file's filesystem (a hung network mount, say).
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(link)) return true;
    } catch {
      // Closed meanwhile.
    }
  }
  return false;
}

export interface Found {
  /** Live processes in the group or carrying the marker, never Keel itself. */
  marked: number[];
  /**
   * Processes started since the command did that cannot be told apart yet: one in the middle of exec shows an
   * empty environment for a moment, one in the middle of exiting none, and may have forked after /proc was
   * listed. Looked at again before the command counts as clean.
   */
  unsure: number[];
  /** A process started since the command did has just died: it may have forked after /proc was listed. */
  died: boolean;
}

export function findProcesses(match: ProcessMatch): Found {
  const needle = Buffer.from(`${MARKER_VAR}=${match.marker}`);
  const found: Found = { marked: [], unsure: [], died: false };
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found; // No /proc (not Linux): only the process-group kill applies.
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const stat = statOf(entry);
    if (!stat || stat.flags & KERNEL_THREAD) continue; // Kernel threads are never ours.
    const young = stat.startTime >= (match.since ?? Number.POSITIVE_INFINITY);
    if (stat.state === 'Z' || stat.state === 'X') {
      // Already dead, but perhaps after forking a child this listing of /proc missed.
      found.died ||= young;
      continue;
    }
    if (stat.group === match.group) {
      found.marked.push(Number(entry));
      continue;
    }
    // Only processes started since the command did can be its own: older ones' environments and descriptors are
    // not read.
    if (match.since !== undefined && !young) continue;
    const environ = readProc(entry, 'environ');
    if (environ === undefined) continue;
    if (environ instanceof Buffer && hasMarker(environ, needle, match.prefix === true)) {
      found.marked.push(Number(entry));
    } else if (match.fdLink !== undefined && holdsMarker(entry, match.fdLink)) {
      // Its environment was cleared or the variable removed (`env -i`, `env -u`), but it holds the descriptor.
      found.marked.push(Number(entry));
    } else if (young && (environ === 'exiting' || environ.length === 0)) {
      found.unsure.push(Number(entry));
    }
  }
  return found;
}

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // Already gone.
  }
}

/** Blocks briefly: killAll runs in signal and exit handlers, where nothing asynchronous happens any more. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Sends SIGTERM to the group and every marked process: a chance to exit cleanly before killTree. */
export function terminateTree(match: ProcessMatch): void {
  if (match.group !== undefined) signal(-match.group, 'SIGTERM');
  for (const pid of findProcesses(match).marked) signal(pid, 'SIGTERM');
}

/**
 * Kills (SIGKILL) the group and every marked process, again until none is left or the rounds run out, and
 * says how many were killed and how many survived. Synchronous, so exit handlers can use it.
 */
export function killTree(match: ProcessMatch): { killed: number; survived: number; rounds: number } {
  const seen = new Set<number>();
  const unsureFor = new Map<number, number>();
  let lookedAgain = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = findProcesses(match);
    const { marked, died } = found;
    const unsure = found.unsure.filter((pid) => {
      const rounds = (unsureFor.get(pid) ?? 0) + 1;
      unsureFor.set(pid, rounds);
      return rounds <= UNSURE_ROUNDS;
    });
    if (marked.length === 0 && unsure.length === 0) {
      if (!died || lookedAgain) return { killed: seen.size, survived: 0, rounds: round + 1 };
      lookedAgain = true;
    } else lookedAgain = false;
    if (match.group !== undefined && marked.length > 0) signal(-match.group, 'SIGKILL');
    for (const pid of marked) {
      seen.add(pid);
      signal(pid, 'SIGKILL');
    }
    // A killed process takes a moment to become a zombie; its children may have forked meanwhile, and an
    // unsure one may be finishing an exec.
    pause(Math.min(2 * 2 ** round, 100));
  }
  const survived = findProcesses(match).marked.length;
  return { killed: Math.max(0, seen.size - survived), survived, rounds: MAX_ROUNDS };
}
