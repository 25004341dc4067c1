// The plain command runner: bash in its own process group, a timeout, capped output, and a kill that reaches
// every process the command started. Tracks live groups so Keel can kill them all when it exits on a signal.
import { spawn } from 'node:child_process';
import type { CapturedOutput, CommandOutcome, CommandRequest, CommandRunner } from '../core/runner.js';

/** Time between SIGTERM and SIGKILL for the process group. */
const KILL_GRACE_MS = 2000;
/** After bash exits, how long background children may keep its output open before they are stopped. */
const PIPE_GRACE_MS = 250;

/** Keeps the first `max` bytes of a stream and counts the rest, so output never buffers unbounded. */
class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  dropped = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    const kept = Math.min(Math.max(0, this.max - this.size), chunk.length);
    if (kept > 0) this.chunks.push(chunk.subarray(0, kept));
    this.size += kept;
    this.dropped += chunk.length - kept;
  }

  result(): CapturedOutput {
    return { text: Buffer.concat(this.chunks).toString('utf8'), dropped: this.dropped };
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Environment variables whose names look like this are not passed to commands. */
export const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/** The environment commands get: Keel's own, less anything that looks like a secret. */
export function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_ENV_NAME.test(name)));
}

/** Runs commands with `env` (already cleaned of secrets by the caller, see commandEnv). */
export function createProcessRunner(env: NodeJS.ProcessEnv): CommandRunner {
  const live = new Set<number>();
  return {
    killAll() {
      for (const pid of live) killGroup(pid, 'SIGKILL');
      live.clear();
    },
    run: (request) => runCommand(request, env, live),
  };
}

async function runCommand(
  request: CommandRequest,
  env: NodeJS.ProcessEnv,
  live: Set<number>,
): Promise<CommandOutcome> {
  const stdout = new CappedOutput(request.maxStdoutBytes);
  const stderr = new CappedOutput(request.maxStderrBytes);
  // detached: the command leads its own process group, so a kill reaches everything it started.
  const child = spawn('bash', ['-c', request.command], {
    cwd: request.cwd,
    detached: true,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid !== undefined) live.add(pid);
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

  let stopped: CommandOutcome['stopped'];
  const timers: NodeJS.Timeout[] = [];
  const stop = (reason: NonNullable<CommandOutcome['stopped']>): void => {
    if (stopped || pid === undefined) return;
    stopped = reason;
    killGroup(pid, 'SIGTERM');
    timers.push(setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS));
    // A process that left the group may still hold the pipes; stop waiting for it.
    timers.push(
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, KILL_GRACE_MS + 1000),
    );
  };
  const onAbort = (): void => stop('aborted');
  request.signal.addEventListener('abort', onAbort, { once: true });
  timers.push(setTimeout(() => stop('timeout'), request.timeoutMs));

  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>(
    (resolve) => {
      child.once('error', resolve);
      child.once('exit', () => {
        timers.push(setTimeout(() => stop('background'), PIPE_GRACE_MS));
      });
      child.once('close', (code, signal) => resolve({ code, signal }));
      if (request.signal.aborted) onAbort();
    },
  );
  for (const timer of timers) clearTimeout(timer);
  request.signal.removeEventListener('abort', onAbort);
  if (pid !== undefined) {
    // Whatever the command left running in its group (a `cmd &` that closed its output) ends with it.
    killGroup(pid, 'SIGKILL');
    live.delete(pid);
  }
  if (ended instanceof Error) throw new Error(`could not start bash: ${ended.message}`);
  return {
    exitCode: ended.code,
    signal: ended.signal,
    stdout: stdout.result(),
    stderr: stderr.result(),
    ...(stopped ? { stopped } : {}),
  };
}
