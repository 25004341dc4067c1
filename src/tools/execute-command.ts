// execute_command: runs a bash command in the workspace through the context's runner (a plain process group
// or a sandbox), with the configured timeout and capped output; or starts it in the background, for
// command_output and kill_command.
import * as z from 'zod';
import { clip } from '../core/text.js';
import { leftoversNote, outputSections, statusText } from './command-text.js';
import { defineTool, fail, type ToolContext, type ToolResult } from './tool.js';

/** Unread output a background command keeps per stream, at most: the last bytes win. */
export const BACKGROUND_BUFFER_BYTES = 64 * 1024;
/** How long starting a background command waits before returning what it printed so far (less if it exits). */
const BACKGROUND_FIRST_OUTPUT_MS = 300;

const schema = z.strictObject({
  command: z.string(),
  timeout_seconds: z.number().positive().optional(),
  background: z.boolean().optional().describe('returns an id'),
});

async function startInBackground(command: string, ctx: ToolContext): Promise<ToolResult> {
  let started: ReturnType<ToolContext['runner']['start']>;
  try {
    started = ctx.runner.start({
      command,
      cwd: ctx.workspace.root,
      maxStdoutBytes: Math.min(ctx.limits.maxStdoutBytes, BACKGROUND_BUFFER_BYTES),
      maxStderrBytes: Math.min(ctx.limits.maxStderrBytes, BACKGROUND_BUFFER_BYTES),
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  await started.settle(BACKGROUND_FIRST_OUTPUT_MS);
  const { stdout, stderr, status } = started.read();
  const parts = [`background command ${started.id}: ${statusText(status)}`];
  if (status.state === 'exited') parts.push(...leftoversNote(status.leftovers));
  parts.push(...outputSections(stdout, stderr, (n) => `${n} earlier bytes dropped`));
  return {
    success: true,
    output: parts.join('\n'),
    truncated: false,
    metadata: { background_id: started.id },
    display: `$ ${clip(command, 60)} & → ${started.id}`,
  };
}

export const executeCommandTool = defineTool({
  name: 'execute_command',
  description: 'Run a bash command in the workspace root.',
  schema,
  safety: 'dangerous',
  async preview(args) {
    const how = args.background ? 'start in the background' : 'run';
    const summary = `${how} \`${args.command}\``;
    return {
      reads: [],
      writes: [],
      command: args.command,
      summary,
      ...(args.background ? { lingers: true } : {}),
    };
  },
  async execute(args, ctx): Promise<ToolResult> {
    if (args.background) return startInBackground(args.command, ctx);
    // The model may shorten the timeout, never lengthen it past what the user configured.
    const timeoutMs = Math.min(ctx.limits.commandTimeoutMs, (args.timeout_seconds ?? Infinity) * 1000);
    return runForeground({ command: args.command }, timeoutMs, ctx, {
      subject: 'command',
      display: `$ ${clip(args.command, 60)}`,
    });
  },
});

/**
 * Runs a command to its end (or its timeout) through the context's runner, as a tool result: the exit code, what
 * was left running, the capped output; failing on a non-zero exit, a timeout or an abort. Shared by execute_command
 * and the tools defined in config (which pass an argv, never parsed by a shell).
 */
export async function runForeground(
  what: { command: string; argv?: string[]; readable?: readonly string[] },
  timeoutMs: number,
  ctx: ToolContext,
  words: { subject: string; display: string },
): Promise<ToolResult> {
  const outcome = await ctx.runner.run({
    ...what,
    cwd: ctx.workspace.root,
    timeoutMs,
    signal: ctx.signal,
    maxStdoutBytes: ctx.limits.maxStdoutBytes,
    maxStderrBytes: ctx.limits.maxStderrBytes,
  });
  const exitCode = outcome.exitCode ?? -1;
  const parts = [`exit code: ${outcome.signal ? `killed by ${outcome.signal}` : exitCode}`];
  // After a timeout or an abort the error says everything was killed; otherwise say what was left behind.
  if (!outcome.stopped) parts.push(...leftoversNote(outcome.leftovers));
  else if (outcome.leftovers.survived > 0) parts.push(...leftoversNote({ ...outcome.leftovers, killed: 0 }));
  parts.push(...outputSections(outcome.stdout, outcome.stderr, (n) => `${n} bytes in between not shown`));
  const metadata = {
    exit_code: exitCode,
    stdout_dropped: outcome.stdout.dropped,
    stderr_dropped: outcome.stderr.dropped,
    ...(outcome.leftovers.killed > 0 ? { leftovers_killed: outcome.leftovers.killed } : {}),
  };
  // Claimed killed only when nothing survived (the survivors' note is in the output).
  const killed =
    outcome.leftovers.survived > 0 ? 'it was killed' : 'it and the processes it started were killed';
  const { subject } = words;
  let error: string | undefined;
  if (outcome.stopped === 'timeout') error = `${subject} timed out after ${timeoutMs / 1000}s; ${killed}`;
  else if (outcome.stopped === 'aborted') error = `${subject} aborted; ${killed}`;
  else if (exitCode !== 0) error = `${subject} exited with ${outcome.signal ?? `code ${exitCode}`}`;
  return {
    success: error === undefined,
    output: parts.join('\n'),
    error,
    truncated: outcome.stdout.dropped > 0 || outcome.stderr.dropped > 0,
    metadata,
    display: `${words.display} → ${error ?? 'exit 0'}`,
  };
}
