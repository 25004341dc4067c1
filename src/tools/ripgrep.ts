// Runs ripgrep (the binary shipped in @vscode/ripgrep) with an argv array, never a shell, streaming its output
// line by line; says when the binary cannot run at all, so glob and grep fall back to their JS walk.
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

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
 * Runs `rg argv` in `cwd`, calling onLine for each output record (ended by `separator`, which is not passed on).
 * Rejects with RipgrepUnavailableError when the binary cannot be started, with an AbortError when aborted.
 */
export function runRipgrep(
  rgPath: string,
  argv: readonly string[],
  options: { cwd: string; signal: AbortSignal; separator?: string; onLine: (line: string) => void },
): Promise<RgRun> {
  const separator = options.separator ?? '\n';
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, argv, {
      cwd: options.cwd,
      signal: options.signal,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let stderr = '';
    const take = (text: string) => {
      const parts = (rest + text).split(separator);
      rest = parts.pop() ?? '';
      for (const part of parts) options.onLine(part);
    };
    child.stdout.on('data', (chunk: Buffer) => take(decoder.write(chunk)));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code && UNRUNNABLE.has(error.code)) reject(new RipgrepUnavailableError(error.message));
      else reject(error);
    });
    child.on('close', (code) => {
      take(decoder.end());
      if (rest !== '') options.onLine(rest);
      resolve({ code: code ?? 2, stderr });
    });
  });
}
