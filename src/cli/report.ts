// Turns a failure that escaped a command into one clear message and its exit code. Stack traces only with --debug.
// Commands without an event stream print config warnings here too.
import type { LoopResult } from '../agent/loop.js';
import { ExitCode, environmentError, KeelError } from '../core/errors.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { failedRunObject, jsonLine } from '../ui/json-output.js';
import { sanitize } from '../ui/sanitize.js';

/** Messages can quote a server's or a file's text, so they are printed sanitized. */
export function formatError(error: KeelError): string {
  return sanitize(`error: ${error.message}${error.hint ? `\n  hint: ${error.hint}` : ''}\n`);
}

/**
 * `out`: where the message goes (default stdout and stderr; in a chat, its screen). `json`: the error on stdout
 * too, for machines: `'run'` as the object `--output json` ends a run with, `true` as an error event (stream-json,
 * and commands whose JSON is a listing).
 */
export function reportFailure(
  error: unknown,
  options: { debug?: boolean; json?: boolean | 'run'; out?: CommandOutput },
): number {
  const out = options.out ?? processOutput;
  const write = out.notice;
  error = environmentError(error) ?? error;
  if (error instanceof KeelError) {
    const shown = { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
    if (options.json === 'run') out.print(jsonLine(failedRunObject(shown)));
    else if (options.json) out.print(jsonLine({ type: 'error', ...shown }));
    write(formatError(error));
    if (options.debug && error.stack) write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  write(`error: internal error: ${sanitize(message)}\n`);
  if (options.debug && error instanceof Error && error.stack) write(`${error.stack}\n`);
  else write('  hint: run again with --debug for details, and report it if it persists\n');
  return ExitCode.failed;
}

/** How an agent command (run, ask, chat) prints a failure before its run starts, for its --output. */
export function runFailureJson(output: string | undefined): boolean | 'run' {
  return output === 'json' ? 'run' : output === 'stream-json';
}

/** Config warnings (an untrusted project file's ignored keys) for commands that have no event stream. */
export function reportWarnings(warnings: readonly string[], out: CommandOutput = processOutput): void {
  for (const warning of warnings) out.notice(`warning: ${warning}\n`);
}

/** The exit code a finished run ends with (0 done, 4 turn limit, 130 interrupted, the error's own when failed). */
export function runExitCode(result: LoopResult, debug?: boolean): number {
  switch (result.reason) {
    case 'done':
      return ExitCode.ok;
    case 'turn-limit':
      return ExitCode.turnLimit;
    case 'interrupted':
      return ExitCode.interrupted;
    case 'failed':
      if (debug && result.error?.stack) process.stderr.write(`${result.error.stack}\n`);
      return result.error?.exitCode ?? ExitCode.failed;
  }
}
