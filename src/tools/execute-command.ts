// execute_command: runs a bash command in the workspace through the context's runner (a plain process group
// or a sandbox), with the configured timeout and capped output.
import { z } from 'zod';
import { clip } from '../core/text.js';
import { defineTool, type ToolResult } from './tool.js';

const schema = z.object({
  command: z.string(),
  timeout_seconds: z
    .number()
    .positive()
    .optional()
    .describe('shorter timeout for this command; cannot exceed the configured one'),
});

export const executeCommandTool = defineTool({
  name: 'execute_command',
  description: 'Run a bash command in the workspace root and return its exit code, stdout and stderr.',
  schema,
  safety: 'dangerous',
  async preview(args) {
    return { reads: [], writes: [], command: args.command, summary: `run \`${args.command}\`` };
  },
  async execute(args, ctx): Promise<ToolResult> {
    // The model may shorten the timeout, never lengthen it past what the user configured.
    const timeoutMs = Math.min(ctx.limits.commandTimeoutMs, (args.timeout_seconds ?? Infinity) * 1000);
    const outcome = await ctx.runner.run({
      command: args.command,
      cwd: ctx.workspace.root,
      timeoutMs,
      signal: ctx.signal,
      maxStdoutBytes: ctx.limits.maxStdoutBytes,
      maxStderrBytes: ctx.limits.maxStderrBytes,
    });
    const exitCode = outcome.exitCode ?? -1;
    const parts = [`exit code: ${outcome.signal ? `killed by ${outcome.signal}` : exitCode}`];
    if (outcome.stopped === 'background')
      parts.push('[background processes still writing output were stopped]');
    const shown = (o: { text: string; dropped: number }) => {
      const text = o.text.replace(/\n$/, '');
      return o.dropped > 0 ? `${text}\n[${o.dropped} more bytes not shown]` : text;
    };
    const out = shown(outcome.stdout);
    const err = shown(outcome.stderr);
    if (out) parts.push(`stdout:\n${out}`);
    if (err) parts.push(`stderr:\n${err}`);
    const metadata = {
      exit_code: exitCode,
      stdout_dropped: outcome.stdout.dropped,
      stderr_dropped: outcome.stderr.dropped,
    };
    let error: string | undefined;
    if (outcome.stopped === 'timeout') {
      error = `command timed out after ${timeoutMs / 1000}s; its process group was killed`;
    } else if (outcome.stopped === 'aborted') error = 'command aborted; its process group was killed';
    else if (exitCode !== 0) error = `command exited with ${outcome.signal ?? `code ${exitCode}`}`;
    return {
      success: error === undefined,
      output: parts.join('\n'),
      error,
      truncated: outcome.stdout.dropped > 0 || outcome.stderr.dropped > 0,
      metadata,
      display: `$ ${clip(args.command, 60)} → ${error ?? 'exit 0'}`,
    };
  },
});
