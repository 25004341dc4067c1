// How a run fails: the whole-run timeout, an answer the output limit or the provider's filter cut off, and anything
// else (a bug, an unexpected library failure) as a KeelError, so the loop still ends the run cleanly.
import { ExitCode, environmentError, KeelError } from '../core/errors.js';

export class RunTimeoutError extends KeelError {
  constructor(seconds: number) {
    super('run_timeout', 1, `the run took longer than agent.timeout_seconds (${seconds} s) and was stopped`, {
      hint: 'raise agent.timeout_seconds in your config, or split the task',
    });
  }
}

/** The model stopped because of its output limit more often than Keel continues it, or its filter stopped it. */
export class AnswerCutError extends KeelError {
  constructor(code: 'output_limit' | 'content_filter', message: string, hint: string) {
    super(code, ExitCode.failed, message, { hint });
  }
}

/** Anything that is not a KeelError (a bug, an unexpected library failure) still ends the run cleanly. */
export function asKeelError(error: unknown): KeelError {
  if (error instanceof KeelError) return error;
  // A full disk or an unwritable state dir is the environment's, not a bug: its path and the fix, no report.
  const environment = environmentError(error);
  if (environment) return environment;
  const message = error instanceof Error ? error.message : String(error);
  return new KeelError('internal_error', ExitCode.failed, `internal error: ${message}`, {
    hint: 'run again with --debug for details, and report it if it persists',
    cause: error,
  });
}
