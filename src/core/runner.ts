// How commands run: tools ask a runner in their context, so a sandbox can stand in for the plain process runner.

export interface CommandRequest {
  /** A bash command line. */
  command: string;
  cwd: string;
  timeoutMs: number;
  /** Aborting stops the command and everything it started. */
  signal: AbortSignal;
  maxStdoutBytes: number;
  maxStderrBytes: number;
}

export interface CapturedOutput {
  /** The first max bytes, as text. */
  text: string;
  /** Bytes beyond the cap that were not kept. */
  dropped: number;
}

export interface CommandOutcome {
  /** null when a signal ended it. */
  exitCode: number | null;
  signal: string | null;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
  /** Why Keel stopped it, if it did: the timeout, an abort, or leftover background processes holding its output. */
  stopped?: 'timeout' | 'aborted' | 'background';
}

export interface CommandRunner {
  run(request: CommandRequest): Promise<CommandOutcome>;
  /** Kills every command still running, with its whole process group, at once (Keel is exiting). */
  killAll(): void;
}
