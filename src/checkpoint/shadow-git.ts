// Runs git against a shadow repository: a git dir of Keel's own, with the workspace as its work tree. The user's
// git config (hooks, signing, fsmonitor, excludes, filters) and their own `.git` never take part.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { ancestorIgnores } from './ancestor-ignores.js';

/** git is not on PATH: checkpoints fall back to copying the files a file tool writes. */
export class GitMissingError extends Error {
  constructor() {
    super('git was not found on PATH');
    this.name = 'GitMissingError';
  }
}

export class GitCommandError extends Error {
  constructor(args: readonly string[], code: number | null, stderr: string) {
    const detail = stderr.trim().split('\n').slice(0, 3).join('; ');
    super(`git ${args[0] ?? ''} failed (exit ${code ?? 'signal'})${detail ? `: ${detail}` : ''}`);
    this.name = 'GitCommandError';
  }
}

/**
 * Appended to the config `git init` writes. Hooks, signing and fsmonitor would run the user's programs; CRLF
 * conversion, filters and excludes from outside the workspace would change what is stored; auto gc would stall a
 * tool call.
 */
const shadowConfig = `[core]
\thooksPath = /dev/null
\tautocrlf = false
\tsafecrlf = false
\tfsmonitor = false
\texcludesFile = /dev/null
\tattributesFile = /dev/null
\tquotePath = false
\tuntrackedCache = true
\tsparseCheckout = false
[commit]
\tgpgsign = false
[gc]
\tauto = 0
[advice]
\taddEmbeddedRepo = false
\taddIgnoredFile = false
[user]
\tname = Keel
\temail = keel@localhost
`;

/** Overrides the workspace's .gitattributes: files are stored and restored byte for byte, never converted or filtered. */
const shadowAttributes = '* -text -eol -filter -ident -working-tree-encoding\n';

export interface ShadowGit {
  readonly gitDir: string;
  /**
   * Creates the shadow repository when missing and writes the ignore patterns of .gitignore files above the
   * workspace (once a process, however many callers wait). Throws GitMissingError when git is not installed.
   */
  ensure(): Promise<void>;
  exists(): Promise<boolean>;
  /** Runs one git command; resolves with its stdout. */
  run(args: readonly string[], input?: string): Promise<string>;
}

/** The environment git runs with: no system or global config, no inherited GIT_* variables pointing elsewhere. */
function gitEnv(env: NodeJS.ProcessEnv, gitDir: string, workTree: string): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!name.startsWith('GIT_')) clean[name] = value;
  return {
    ...clean,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Keel',
    GIT_AUTHOR_EMAIL: 'keel@localhost',
    GIT_COMMITTER_NAME: 'Keel',
    GIT_COMMITTER_EMAIL: 'keel@localhost',
    LC_ALL: 'C',
  };
}

export function shadowGit(gitDir: string, workTree: string, env: NodeJS.ProcessEnv): ShadowGit {
  const childEnv = gitEnv(env, gitDir, workTree);
  const run = (args: readonly string[], input?: string) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn('git', args, { cwd: workTree, env: childEnv, stdio: 'pipe' });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.on('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'ENOENT' ? new GitMissingError() : error),
      );
      child.on('close', (code) => {
        if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
        else reject(new GitCommandError(args, code, Buffer.concat(err).toString('utf8')));
      });
      child.stdin.on('error', () => {});
      child.stdin.end(input ?? '');
    });
  const exists = () =>
    fs.stat(join(gitDir, 'HEAD')).then(
      () => true,
      () => false,
    );
  const create = async () => {
    await init();
    // Refreshed once a process: the .gitignore files above the workspace may have changed since the last run.
    await fs.writeFile(join(gitDir, 'info', 'exclude'), (await ancestorIgnores(workTree)).join('\n'));
  };
  const init = async () => {
    if (await exists()) return;
    await fs.mkdir(gitDir, { recursive: true });
    // No template: the system's sample hooks and excludes are not wanted.
    await run(['init', '--quiet', '--template=']);
    await fs.appendFile(join(gitDir, 'config'), shadowConfig);
    await fs.mkdir(join(gitDir, 'info'), { recursive: true });
    await fs.writeFile(join(gitDir, 'info', 'attributes'), shadowAttributes);
  };
  let ready: Promise<void> | undefined;
  return {
    gitDir,
    exists,
    run,
    ensure() {
      ready ??= create().catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
      return ready;
    },
  };
}
