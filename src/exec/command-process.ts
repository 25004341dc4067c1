// One spawned command and everything it starts: its own process group plus two markers, a variable in the
// environment and an inherited descriptor, so stop() and sweep() reach processes that left the group (setsid,
// nohup, double forks) as well, with their environment cleared or not.
import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import type { Leftovers } from '../core/runner.js';
import {
  killTree,
  MARKER_FD,
  MARKER_VAR,
  openFdMarker,
  type ProcessMatch,
  startTimeOf,
  terminateTree,
} from './process-tree.js';

/** What to spawn for a command line: bash itself, or bash inside a sandbox. */
export interface Launch {
  file: string;
  args: string[];
  /**
   * The launcher kills what the command left behind itself (a PID namespace ends with its first process) and
   * writes how many processes that was on file descriptor 3 before it exits.
   */
  reportsLeftovers?: boolean;
}

/** `argv`, when given, is run as is instead of the command line: no shell parses it. */
/**
 * How to start a command; `gitWrites`: a sandbox leaves the repository's `.git` writable; `readable`: files a sandbox
 * shows read-only (CommandRequest).
 */
export type Launcher = (
  command: string,
  cwd: string,
  argv?: readonly string[],
  gitWrites?: boolean,
  readable?: readonly string[],
) => Launch;

/** Plain bash, started directly; or the argv itself. */
export const bashLauncher: Launcher = (command, _cwd, argv) =>
  argv ? { file: argv[0]!, args: argv.slice(1) } : { file: 'bash', args: ['-c', command] };

/** Time between SIGTERM and SIGKILL when Keel stops a command. */
const KILL_GRACE_MS = 2000;
/** After bash exits, how long background children may keep its output open before they are stopped. */
const PIPE_GRACE_MS = 250;

export type Ended = { code: number | null; signal: NodeJS.Signals | null } | Error;

export class CommandProcess {
  /** Resolves once the command exited and its output closed (or a spawn error). */
  readonly ended: Promise<Ended>;
  readonly leftovers: Leftovers = { killed: 0, survived: 0 };
  private readonly child: ChildProcess;
  private readonly match: ProcessMatch;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly reportsLeftovers: boolean;
  private exited = false;
  private stopping = false;

  constructor(
    launch: Launch,
    options: { cwd: string; env: NodeJS.ProcessEnv; marker: string },
    onOutput: (stream: 'stdout' | 'stderr', chunk: Buffer) => void,
  ) {
    this.reportsLeftovers = launch.reportsLeftovers === true;
    // A launcher that reports leftovers ends them itself (a PID namespace) and needs no descriptor: a sandbox
    // is not handed one of the host's directories.
    const fdMarker = this.reportsLeftovers ? undefined : openFdMarker(options.marker);
    const stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
    // fd 3: the launcher's report.
    if (launch.reportsLeftovers) stdio.push('pipe');
    else if (fdMarker) stdio.push(...Array<'ignore'>(MARKER_FD - 3).fill('ignore'), fdMarker.fd);
    try {
      // detached: the command leads its own process group, so one kill reaches everything still in it.
      this.child = spawn(launch.file, launch.args, {
        cwd: options.cwd,
        detached: true,
        env: { ...options.env, [MARKER_VAR]: options.marker },
        stdio,
      });
    } finally {
      // The command holds its own copy from here on.
      if (fdMarker) closeSync(fdMarker.fd);
    }
    const pid = this.child.pid;
    this.match = {
      group: pid,
      marker: options.marker,
      since: pid === undefined ? 0 : startTimeOf(pid),
      ...(fdMarker ? { fdLink: fdMarker.link } : {}),
    };
    this.child.stdout?.on('data', (chunk: Buffer) => onOutput('stdout', chunk));
    this.child.stderr?.on('data', (chunk: Buffer) => onOutput('stderr', chunk));
    let report = '';
    this.child.stdio[3]?.on('data', (chunk: Buffer) => {
      report += chunk.toString('latin1');
    });
    this.ended = new Promise<Ended>((resolve) => {
      this.child.once('error', resolve);
      this.child.once('exit', () => {
        this.exited = true;
        // Processes it left behind may hold its output open: give them a moment, then stop them.
        this.later(PIPE_GRACE_MS, () => this.sweep());
        this.later(PIPE_GRACE_MS + KILL_GRACE_MS, () => this.closeOutput());
      });
      this.child.once('close', (code, signal) => {
        for (const timer of this.timers) clearTimeout(timer);
        this.leftovers.killed += Number.parseInt(report, 10) || 0;
        this.sweep();
        resolve({ code, signal });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** SIGTERM to everything it started, SIGKILL after a grace period. */
  stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    if (this.exited) {
      this.sweep();
      return;
    }
    terminateTree(this.match);
    this.later(KILL_GRACE_MS, () => this.sweep());
    // A process that could not be killed may still hold the pipes; stop waiting for it.
    this.later(KILL_GRACE_MS + 1000, () => this.closeOutput());
  }

  /** Kills, at once, everything of this command still alive; counts what it found and returns how many. */
  sweep(): number {
    if (this.match.group === undefined) return 0;
    const { killed, survived } = killTree(this.match);
    // A launcher that reports its own count has ended those processes already; some may still be dying.
    if (!this.reportsLeftovers) this.leftovers.killed += killed;
    this.leftovers.survived = survived;
    return killed;
  }

  private closeOutput(): void {
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.child.stdio[3]?.destroy();
  }

  private later(ms: number, action: () => void): void {
    this.timers.push(setTimeout(action, ms));
  }
}
