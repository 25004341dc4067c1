// The user's own git, for what the user asks of it (keel commit, auto_commit, keel review's diff): the system
// `git` run as argv (never through a shell) by a CommandRunner, in the repository's top-level directory.
import { relative, sep } from 'node:path';
import { ExitCode, KeelError } from '../core/errors.js';
import type { CommandRunner } from '../core/runner.js';

/** Diffs and logs larger than this are cut (the model reads a part of them anyway). */
const MAX_OUTPUT = 8 * 1024 * 1024;
/** A commit waits for the repository's hooks (a pre-commit test run); other commands are quick. */
const COMMIT_TIMEOUT_MS = 10 * 60_000;
const TIMEOUT_MS = 60_000;

export class GitError extends KeelError {
  constructor(message: string, options: { hint?: string; usage?: boolean } = {}) {
    super(
      'git',
      options.usage ? ExitCode.usage : ExitCode.failed,
      message,
      options.hint ? { hint: options.hint } : {},
    );
    this.name = 'GitError';
  }
}

export interface GitOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Git {
  /** The repository's top-level directory (real path): every command runs there, paths are relative to it. */
  readonly top: string;
  /** Runs `git <args>`; a non-zero exit is returned, not thrown. */
  run(args: readonly string[], options?: { commit?: boolean }): Promise<GitOutput>;
  /** Runs `git <args>` and returns its stdout; a non-zero exit throws GitError with git's own message. */
  out(args: readonly string[], options?: { commit?: boolean }): Promise<string>;
  /** A workspace path (absolute) as a path relative to the top-level directory. */
  path(absolute: string): string;
}

/** What failed, in git's words (its last lines of stderr). */
export function gitFailure(args: readonly string[], output: GitOutput): string {
  const said = (output.stderr.trim() || output.stdout.trim()).split('\n').slice(-8).join('\n');
  return `git ${args[0] ?? ''} failed${output.code === null ? '' : ` (exit ${output.code})`}${said ? `:\n${said}` : ''}`;
}

async function runGit(
  runner: CommandRunner,
  cwd: string,
  args: readonly string[],
  signal: AbortSignal,
  commit = false,
): Promise<GitOutput> {
  const argv = ['git', ...args];
  const outcome = await runner.run({
    command: argv.join(' '),
    argv,
    cwd,
    timeoutMs: commit ? COMMIT_TIMEOUT_MS : TIMEOUT_MS,
    signal,
    maxStdoutBytes: MAX_OUTPUT,
    maxStderrBytes: 64 * 1024,
  });
  return { code: outcome.exitCode, stdout: outcome.stdout.text, stderr: outcome.stderr.text };
}

/** The repository `dir` is in; GitError (exit 2) when it is in none, or git cannot run. */
export async function openGit(runner: CommandRunner, dir: string, signal: AbortSignal): Promise<Git> {
  const found = await runGit(runner, dir, ['rev-parse', '--show-toplevel'], signal);
  if (found.code !== 0) {
    const missing = found.code === 127 || /not found/.test(found.stderr);
    throw new GitError(
      missing ? 'git was not found on PATH' : `not a git repository: ${dir}`,
      missing
        ? { hint: 'install git', usage: true }
        : { hint: 'run it inside a git repository (git init makes one)', usage: true },
    );
  }
  const top = found.stdout.trim();
  const git: Git = {
    top,
    run: (args, options) => runGit(runner, top, args, signal, options?.commit),
    async out(args, options) {
      const output = await git.run(args, options);
      if (output.code !== 0) throw new GitError(gitFailure(args, output));
      return output.stdout;
    },
    path(absolute) {
      const rel = relative(top, absolute);
      return rel === '' ? '.' : rel.split(sep).join('/');
    },
  };
  return git;
}
