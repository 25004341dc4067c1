// Tests' own git and shell commands, started from one small shell kept for the worker: each command forks from
// that shell (a few MB) instead of from the vitest worker (200–420 MB), whose every fork costs ~40–65 ms of CPU
// for the page tables it copies and the copy-on-write faults after. Same results as execFileSync, awaited.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Checkpointer, createCheckpointer } from '../../src/checkpoint/checkpointer.js';
import { GitCommandError, GitMissingError, type GitSpawn } from '../../src/checkpoint/shadow-git.js';

export interface ExecOptions {
  /** Where the command runs (default: this process's directory). */
  cwd?: string;
  /** Its whole environment (default: process.env at the call). */
  env?: NodeJS.ProcessEnv;
  /** Piped on its stdin (default: nothing). */
  input?: string | Uint8Array;
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

interface Shell {
  child: ChildProcess;
  dir: string;
  /** Resolves each request's exit status, in order. */
  waiting: ((status: number) => void)[];
}

let shell: Shell | undefined;
/** The small shell's only variable of its own. */
const SHELL_VAR = 'KEEL_TEST_SMALL_SHELL';
/** Requests run one at a time: each uses the shell's files for its input and output. */
let queue: Promise<unknown> = Promise.resolve();

function start(): Shell {
  const dir = mkdtempSync(join(tmpdir(), 'keel-small-shell-'));
  // It ends when this process does (its stdin closes); it keeps nothing alive meanwhile.
  // One variable of its own, which each command's subshell unsets before exporting exactly the variables it is given
  // (see execNow). Not none: to Keel's process sweep (src/exec/process-tree.ts) a process with an empty environment
  // is one in the middle of exec, and an in-process run would look at the shell again for a few rounds after each
  // command.
  const child = spawn('/bin/sh', ['-s'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    cwd: dir,
    env: { [SHELL_VAR]: '1' },
  });
  const started: Shell = { child, dir, waiting: [] };
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let match = /^done (\d+)\n/.exec(buffered); match; match = /^done (\d+)\n/.exec(buffered)) {
      buffered = buffered.slice(match[0].length);
      started.waiting.shift()?.(Number(match[1]));
    }
  });
  child.on('exit', () => {
    if (shell === started) shell = undefined;
    for (const resolve of started.waiting.splice(0)) resolve(-1);
  });
  unref(child);
  return started;
}

const unref = (child: ChildProcess) => {
  child.unref();
  for (const stream of [child.stdin, child.stdout]) (stream as unknown as { unref?: () => void })?.unref?.();
};
const ref = (child: ChildProcess) => {
  child.ref();
  for (const stream of [child.stdin, child.stdout]) (stream as unknown as { ref?: () => void })?.ref?.();
};

/** `file args…` as execFileSync runs it: its stdout, or an error with its stderr when it exits non-zero. */
export function exec(file: string, args: string[], options: ExecOptions = {}): Promise<string> {
  const result = queue.then(() => execNow(file, args, options));
  queue = result.catch(() => {});
  return result;
}

async function execNow(file: string, args: string[], options: ExecOptions): Promise<string> {
  shell ??= start();
  const { child, dir } = shell;
  const input = join(dir, 'in');
  writeFileSync(input, options.input ?? '');
  const vars = Object.entries(options.env ?? process.env).filter(([, value]) => value !== undefined);
  const env = vars.map(([name, value]) => quote(`${name}=${value}`)).join(' ');
  const command = [file, ...args].map(quote).join(' ');
  const cwd = quote(options.cwd ?? process.cwd());
  // The subshell holds only PWD and OLDPWD (cd's) and the shell's own variable: without those, the variables it
  // exports are the command's whole environment, as `env -i` would give it, without starting env(1)
  // for every command (5 ms of CPU each here, and the checkpoint tests run a thousand git commands). A name the shell
  // cannot export still goes through env(1).
  const run = vars.every(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    ? `unset PWD OLDPWD ${SHELL_VAR} && ${env === '' ? '' : `export ${env} && `}exec ${command}`
    : `exec env -i ${env} ${command}`;
  const status = await new Promise<number>((resolve) => {
    shell!.waiting.push(resolve);
    ref(child);
    child.stdin!.write(
      `(cd ${cwd} && ${run}) <${quote(input)} >${quote(join(dir, 'out'))} 2>${quote(join(dir, 'err'))}; echo "done $?"\n`,
    );
  });
  if (shell?.waiting.length === 0) unref(child);
  if (status === -1) throw new Error(`${file} ${args.join(' ')}: the shell running it ended`);
  const stdout = readFileSync(join(dir, 'out'), 'utf8');
  if (status !== 0) {
    const stderr = readFileSync(join(dir, 'err'), 'utf8');
    throw Object.assign(new Error(`Command failed: ${file} ${args.join(' ')}\n${stderr}`), {
      status,
      stdout,
      stderr,
    });
  }
  return stdout;
}

/** `git args…` in `cwd` with the user's and the system's git config left out, as tests run git. */
export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return exec('git', args, {
    cwd,
    env: { ...env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/**
 * The checkpoint store's git processes (its `startGit`), started from this shell: the same stdout and the same
 * errors as spawnGit, without a fork of the worker for each (a checkpoint test starts 60–200 of them).
 */
export const shellGit: GitSpawn = (env, cwd, args, input) =>
  exec('git', [...args], { cwd, env, input: input ?? '' }).catch(
    (error: Error & { status?: number; stdout?: string; stderr?: string }) => {
      if (error.status === undefined) throw error;
      // env(1) exits 127 when it finds no git on PATH.
      if (error.status === 127) throw new GitMissingError();
      throw new GitCommandError(args, error.status, error.stderr ?? '', error.stdout ?? '');
    },
  );

/** A checkpointer over `root` with its store in `stateDir`, its git started from this shell, warnings dropped. */
export function shellCheckpointer(root: string, stateDir: string): Checkpointer {
  return createCheckpointer({ root, stateDir, env: process.env, startGit: shellGit, warn: () => {} });
}
