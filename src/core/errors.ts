// Typed errors with a stable code, a user-facing message, a fix hint and the exit code they map to.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  provider: 3,
  turnLimit: 4,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface KeelErrorOptions {
  hint?: string;
  cause?: unknown;
}

export class KeelError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly hint?: string;

  constructor(code: string, exitCode: ExitCode, message: string, options: KeelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KeelError';
    this.code = code;
    this.exitCode = exitCode;
    this.hint = options.hint;
  }
}

/** Bad command-line usage. */
export class UsageError extends KeelError {
  constructor(message: string, options?: KeelErrorOptions) {
    super('usage', ExitCode.usage, message, options);
  }
}

/** A config file or value is wrong; the message names the file, line and key. */
export class ConfigError extends KeelError {
  constructor(message: string, options?: KeelErrorOptions) {
    super('config', ExitCode.usage, message, options);
  }
}

/** A plan file is malformed; the message names the file and line. */
export class PlanError extends KeelError {
  constructor(message: string, options?: KeelErrorOptions) {
    super('plan', ExitCode.usage, message, options);
  }
}

/** The provider cannot be reached, rejected the credentials, or refuses an account with no credit left. */
export class ProviderUnavailableError extends KeelError {
  constructor(
    code: 'provider_unreachable' | 'credentials_rejected' | 'credit_exhausted',
    message: string,
    options?: KeelErrorOptions,
  ) {
    super(code, ExitCode.provider, message, options);
  }
}

/** The chosen model cannot be used as asked (not found, no tool support). */
export class ModelUnsupportedError extends KeelError {
  constructor(code: 'model_not_found' | 'model_without_tools', message: string, options?: KeelErrorOptions) {
    super(code, ExitCode.usage, message, options);
  }
}

/** Any other provider failure (bad response, server error). */
export class ProviderError extends KeelError {
  constructor(message: string, options?: KeelErrorOptions) {
    super('provider_error', ExitCode.failed, message, options);
  }
}

/** A recorded cassette is missing, malformed, exhausted or no longer matches the run. */
export class CassetteError extends KeelError {
  constructor(code: 'cassette_invalid' | 'cassette_mismatch', message: string, options?: KeelErrorOptions) {
    super(code, code === 'cassette_invalid' ? ExitCode.usage : ExitCode.failed, message, options);
  }
}

/** The sandbox was asked for (--sandbox, safety.sandbox: true) but bubblewrap cannot run here. */
export class SandboxUnavailableError extends KeelError {
  constructor(message: string, options?: KeelErrorOptions) {
    super('sandbox_unavailable', ExitCode.usage, message, options);
  }
}

/** Where Keel keeps its own files, for the fix of an environment error. */
const placesHint = 'or set XDG_STATE_HOME and XDG_DATA_HOME to a writable directory';

/**
 * A file system refusal from the environment (a full disk, no permission, a read-only mount, a file where a
 * directory should be) as one message naming the path and the fix; undefined for anything else.
 */
export function environmentError(error: unknown): KeelError | undefined {
  const { code, path, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof path !== 'string') return undefined;
  const make = (message: string, hint: string) =>
    new KeelError('environment', ExitCode.failed, message, { hint, cause: error });
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return make(`no space left on the disk to write ${path}`, `free space on that disk, ${placesHint}`);
    case 'EACCES':
    case 'EPERM':
      return make(
        `permission denied writing ${path}`,
        `make it writable by you (chown or chmod), ${placesHint}`,
      );
    case 'EROFS':
      return make(`${path} is on a read-only file system`, `mount it writable, ${placesHint}`);
    case 'ENOTDIR': {
      const file = fileInTheWay(path);
      return make(
        file
          ? `cannot use ${path}: ${file} is a file where a directory should be`
          : `cannot use ${path}: a file stands where a directory should be`,
        `move that file away, ${placesHint}`,
      );
    }
    case 'ENOENT': {
      // Node's recursive mkdir says ENOENT where a parent cannot be written to (a read-only mount).
      if (syscall !== 'mkdir') return undefined;
      const blocked = nearestExisting(path);
      return make(
        `cannot create ${path}${blocked ? `: ${blocked} exists but cannot be written to (read-only file system or permissions)` : ''}`,
        `make it writable, ${placesHint}`,
      );
    }
    default:
      return undefined;
  }
}

/**
 * A file system error met writing to an open file (`ENOSPC: no space left on device, write`) carries no path: it
 * is given the file's, so environmentError can name it. Anything else passes as it is.
 */
export function atPath(error: unknown, path: string): unknown {
  const errno = error as NodeJS.ErrnoException | undefined;
  if (error instanceof Error && typeof errno?.code === 'string' && errno.path === undefined)
    errno.path = path;
  return error;
}

/** The file among `path`'s parents (ENOTDIR: one of them is not a directory), or undefined. */
function fileInTheWay(path: string): string | undefined {
  for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      if (statSync(dir).isFile()) return dir;
    } catch {
      // Not there (or not reachable): look further up.
    }
  }
  return undefined;
}

/** The deepest folder of `path` that exists, when it is not writable; undefined otherwise. */
function nearestExisting(path: string): string | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      try {
        accessSync(dir, constants.W_OK);
        return undefined;
      } catch {
        return dir;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
