// Runs one hook command: bash in its own process group in the workspace, the JSON event on stdin, output kept up
// to a cap, and at its timeout (or an abort) the whole group killed. No policy: hooks are the user's own config,
// trusted like the config itself (a project file sets them only in a trusted folder).
import { spawn } from 'node:child_process';

const OUTPUT_CAP = 64 * 1024;

export interface HookOutcome {
  /** null when killed by a signal, or when it could not start (then `error` says why). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  error?: string;
}

export interface HookRequest {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  input: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export function runHook(request: HookRequest): Promise<HookOutcome> {
  return new Promise((resolvePromise) => {
    // detached: the hook leads its own process group, so the kill reaches everything it started. --norc: Node's
    // stdin pipe is a socket, which bash would take for a remote shell and source ~/.bashrc.
    const child = spawn('bash', ['--norc', '--noprofile', '-c', request.command], {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const keep = (text: string, chunk: Buffer) =>
      text.length < OUTPUT_CAP ? text + chunk.toString('utf8').slice(0, OUTPUT_CAP - text.length) : text;
    child.stdout.on('data', (chunk: Buffer) => (stdout = keep(stdout, chunk)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = keep(stderr, chunk)));
    // A hook that never reads its stdin must not fail the write.
    child.stdin.on('error', () => {});
    child.stdin.end(request.input);
    const stop = () => {
      killGroup(child.pid);
      // Something that left the group may still hold the pipes: stop waiting for them.
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, request.timeoutMs);
    request.signal?.addEventListener('abort', stop, { once: true });
    let settled = false;
    const finish = (outcome: HookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', stop);
      resolvePromise(outcome);
    };
    child.once('error', (error) => finish({ code: null, stdout, stderr, timedOut, error: error.message }));
    child.once('close', (code) => finish({ code, stdout, stderr, timedOut }));
  });
}
