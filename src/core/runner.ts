// How commands run: tools ask a runner in their context, so a sandbox can stand in for the plain process runner.

export interface CommandRequest {
  /** A bash command line; with `argv`, only its shown form (what the policy judged). */
  command: string;
  /** Run this program with these arguments directly, never through a shell (config-defined tools). */
  argv?: readonly string[];
  cwd: string;
  timeoutMs: number;
  /** Aborting stops the command and everything it started. */
  signal: AbortSignal;
  maxStdoutBytes: number;
  maxStderrBytes: number;
  /** A sandbox lets the command write the repository's `.git` (git runs it: exec/git-writes.ts); else read-only. */
  gitWrites?: boolean;
  /**
   * Files the command runs wherever they are (a config-defined tool's script beside the user config): a sandbox
   * shows each one read-only, even inside a folder it hides.
   */
  readable?: readonly string[];
}

export interface CapturedOutput {
  /**
   * The bytes kept, as text: all of a command's output within the cap, else its head (its tail in `tail`); the last
   * max bytes of a background read.
   */
  text: string;
  /** Bytes beyond the cap that were not kept: between `text` and `tail` when there is a tail. */
  dropped: number;
  /** A command's last bytes, when its output outgrew the cap: `dropped` bytes came before them. */
  tail?: string;
}

/** Processes a command left running (detached, nohup, setsid, daemons) that Keel then looked for and killed. */
export interface Leftovers {
  /** How many were found and killed. */
  killed: number;
  /** How many were still alive after every attempt (another user's setuid program, say): never claimed stopped. */
  survived: number;
}

export interface CommandOutcome {
  /** null when a signal ended it. */
  exitCode: number | null;
  signal: string | null;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
  /** Why Keel stopped the command itself, if it did. */
  stopped?: 'timeout' | 'aborted';
  leftovers: Leftovers;
}

/** A background command's output fields are what arrived since the last read. */
export interface BackgroundRequest {
  command: string;
  cwd: string;
  /** Each stream keeps at most its last this many unread bytes. */
  maxStdoutBytes: number;
  maxStderrBytes: number;
}

export type BackgroundStatus =
  | { state: 'running' }
  | {
      state: 'exited';
      exitCode: number | null;
      signal: string | null;
      killed: boolean;
      leftovers: Leftovers;
    };

export interface BackgroundCommand {
  readonly id: string;
  readonly command: string;
  /** Output written since the last read, and the status now. */
  read(): { stdout: CapturedOutput; stderr: CapturedOutput; status: BackgroundStatus };
  /** Resolves when the command exits or after `ms`, whichever comes first. */
  settle(ms: number): Promise<void>;
  /** Kills it with everything it started; resolves with the final status. */
  kill(): Promise<BackgroundStatus>;
}

export interface CommandRunner {
  run(request: CommandRequest): Promise<CommandOutcome>;
  /** Starts a command in the background; it runs until it exits, is killed, or killAll. */
  start(request: BackgroundRequest): BackgroundCommand;
  /** A background command this runner started, by id. */
  background(id: string): BackgroundCommand | undefined;
  /** Background commands still running. */
  running(): BackgroundCommand[];
  /**
   * Kills every command still running and everything they started, background ones included, at once and
   * synchronously (the run ended, or Keel is exiting on a signal). Returns how many processes were killed.
   */
  killAll(): number;
}
