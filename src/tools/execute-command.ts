// execute_command: runs a shell command with bash in the workspace, in its own process group, with a
// timeout, capped output and secrets removed from the environment.
import { spawn } from 'node:child_process';
import { z } from 'zod';
import { defineTool, type ToolResult } from './tool.js';

const schema = z.object({
  command: z.string(),
  timeout_seconds: z.number().positive().max(3600).optional(),
});

/** Environment variables whose names look like this are not passed to commands. */
export const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;
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

  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8').replace(/\n$/, '');
    return this.dropped > 0 ? `${text}\n[${this.dropped} more bytes not shown]` : text;
  }
}

export function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET_ENV_NAME.test(name)));
}

type StopReason = 'timeout' | 'aborted' | 'background';

export const executeCommandTool = defineTool({
  name: 'execute_command',
  description: 'Run a bash command in the workspace root and return its exit code, stdout and stderr.',
  schema,
  safety: 'dangerous',
  async execute(args, ctx): Promise<ToolResult> {
    const timeoutMs =
      args.timeout_seconds !== undefined ? args.timeout_seconds * 1000 : ctx.limits.commandTimeoutMs;
    const stdout = new CappedOutput(ctx.limits.maxStdoutBytes);
    const stderr = new CappedOutput(ctx.limits.maxStderrBytes);
    // detached: the command leads its own process group, so a kill reaches everything it started.
    const child = spawn('bash', ['-c', args.command], {
      cwd: ctx.workspace.root,
      detached: true,
      env: commandEnv(process.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

    let stopReason: StopReason | undefined;
    const timers: NodeJS.Timeout[] = [];
    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const stop = (reason: StopReason): void => {
      if (stopReason) return;
      stopReason = reason;
      killGroup('SIGTERM');
      timers.push(setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS));
      // A process that left the group may still hold the pipes; stop waiting for it.
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
        }, KILL_GRACE_MS + 1000),
      );
    };
    const onAbort = (): void => stop('aborted');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    timers.push(setTimeout(() => stop('timeout'), timeoutMs));

    const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>(
      (resolve) => {
        child.once('error', resolve);
        child.once('exit', () => {
          timers.push(setTimeout(() => stop('background'), PIPE_GRACE_MS));
        });
        child.once('close', (code, signal) => resolve({ code, signal }));
        if (ctx.signal.aborted) onAbort();
      },
    );
    for (const timer of timers) clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    if (outcome instanceof Error) throw new Error(`could not start bash: ${outcome.message}`);

    const exitCode = outcome.code ?? -1;
    const parts = [`exit code: ${outcome.signal ? `killed by ${outcome.signal}` : exitCode}`];
    if (stopReason === 'background') parts.push('[background processes still writing output were stopped]');
    const out = stdout.text();
    const err = stderr.text();
    if (out) parts.push(`stdout:\n${out}`);
    if (err) parts.push(`stderr:\n${err}`);
    const output = parts.join('\n');
    const metadata = { exit_code: exitCode, stdout_dropped: stdout.dropped, stderr_dropped: stderr.dropped };
    const truncated = stdout.dropped > 0 || stderr.dropped > 0;
    const shown = args.command.length > 60 ? `${args.command.slice(0, 57)}...` : args.command;
    let error: string | undefined;
    if (stopReason === 'timeout') {
      error = `command timed out after ${timeoutMs / 1000}s; its process group was killed`;
    } else if (stopReason === 'aborted') error = 'command aborted; its process group was killed';
    else if (exitCode !== 0) error = `command exited with ${outcome.signal ?? `code ${exitCode}`}`;
    const display = `$ ${shown} → ${error ?? 'exit 0'}`;
    return { success: error === undefined, output, error, truncated, metadata, display };
  },
});
