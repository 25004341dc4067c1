// Runs ripgrep (the binary shipped in @vscode/ripgrep) with an argv array, never a shell, streaming its output
// line by line; says when the binary cannot run at all, so glob and grep fall back to their JS walk.
import { spawn } from 'node:child_process';

/** rg cannot be started here (package for this platform missing, binary not executable): use the JS fallback. */
export class RipgrepUnavailableError extends Error {
  constructor(detail: string) {
    super(`ripgrep cannot run: ${detail}`);
    this.name = 'RipgrepUnavailableError';
  }
}

/** Options every call shares: no user config (it could change the output format), hidden files but not .git. */
export const RG_BASE_ARGS = ['--no-config', '--hidden', '--no-require-git', '--glob=!.git', '--color=never'];

/** Spawn errors that mean the binary is missing or cannot be executed, rather than a failed search. */
const UNRUNNABLE = new Set(['ENOENT', 'EACCES', 'ENOEXEC', 'EPERM', 'ENOTDIR']);

/** The rg binary of @vscode/ripgrep, loaded only when a search runs (the package resolves it when imported). */
export async function bundledRgPath(): Promise<string> {
  try {
    const { rgPath } = await import('@vscode/ripgrep');
    return rgPath;
  } catch (error) {
    throw new RipgrepUnavailableError(error instanceof Error ? error.message : String(error));
  }
}

export interface RgRun {
  /** 0: matches, 1: none, 2: an error (possibly after some results). */
  code: number;
  stderr: string;
}

/**
 * Runs `rg argv` in `cwd`, calling onLine with each output line as bytes `data[start, end)` (no newline), so a
 * caller past its cap can count lines without decoding them. `separator` 0 splits at NUL bytes instead, for
 * `--null` listings of file names (a name may hold a line break). Rejects with RipgrepUnavailableError when the
 * binary cannot be started, with an AbortError when aborted.
 */
export function runRipgrep(
  rgPath: string,
  argv: readonly string[],
  options: {
    cwd: string;
    signal: AbortSignal;
    onLine: (data: Buffer, start: number, end: number) => void;
    separator?: 0 | 10;
  },
): Promise<RgRun> {
  const separator = options.separator ?? 10;
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, argv, {
      cwd: options.cwd,
      signal: options.signal,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let rest: Buffer | undefined;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      let start = 0;
      if (rest) {
        // Only the line split between chunks is copied, not the whole chunk after it.
        const end = chunk.indexOf(separator);
        if (end === -1) {
          rest = Buffer.concat([rest, chunk]);
          return;
        }
        const line = Buffer.concat([rest, chunk.subarray(0, end)]);
        rest = undefined;
        options.onLine(line, 0, line.length);
        start = end + 1;
      }
      for (let end = chunk.indexOf(separator, start); end !== -1; end = chunk.indexOf(separator, start)) {
        options.onLine(chunk, start, end);
        start = end + 1;
      }
      rest = start < chunk.length ? chunk.subarray(start) : undefined;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code && UNRUNNABLE.has(error.code)) reject(new RipgrepUnavailableError(error.message));
      else reject(error);
    });
    child.on('close', (code) => {
      if (rest) options.onLine(rest, 0, rest.length);
      resolve({ code: code ?? 2, stderr });
    });
  });
}
