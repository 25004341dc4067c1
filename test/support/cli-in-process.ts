// Runs keel's command line in this process, as src/cli/main.ts does in the binary: the same argument handling,
// commands and exit codes, with stdin, stdout, stderr and the environment swapped for the call and restored after.
// Saves the ~0.7 s of CPU each spawn of dist/keel.js costs (node boot, the bundle, module init); signals, process
// death and a real terminal still need the binary (runKeel, tmux).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runArgs } from '../../src/cli/run-args.js';
import type { ChatStep } from './chat.js';
import { type KeelRun, type KeelRunOptions, keelTestEnv } from './cli.js';

type Write = typeof process.stdout.write;

/** Ctrl-C to the command running in process: its SIGINT handler runs, as keel's would on the signal. */
function ctrlC(): void {
  if (process.listenerCount('SIGINT') === 0) throw new Error('runCli: Ctrl-C with no SIGINT handler set');
  process.emit('SIGINT', 'SIGINT');
}

/** Captures what goes to a stream's write, calling back as the real one does. */
function capture(stream: NodeJS.WriteStream, sink: (text: string) => void): () => void {
  const original = stream.write;
  stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  }) as Write;
  return () => {
    stream.write = original;
  };
}

/** A stdin that is not a terminal and holds `input` (empty when undefined), as runKeel's piped stdin. */
function pipedStdin(input: string | undefined): NodeJS.ReadStream {
  return Readable.from(input ? [Buffer.from(input)] : []) as unknown as NodeJS.ReadStream;
}

/**
 * Like converse() in chat.ts for a child: each step waits for the output it names, then types, ends stdin, or
 * delivers a Ctrl-C. That is SIGINT's event on this process, as the kernel's signal is on keel's, to the handler
 * the command set (there must be one: the test worker has none, and its own would end the worker); delivered on a
 * later turn of the event loop, as a signal is. Other signals, and process death, need runKeel.
 */
function conversation(steps: ChatStep[], output: { stdout: string; stderr: string }) {
  const stdin = new PassThrough();
  let next = 0;
  const advance = () => {
    for (let step = steps[next]; step && (step.until?.(output) ?? true); step = steps[++next]) {
      if (step.signal && step.signal !== 'SIGINT')
        throw new Error(`runCli cannot send ${step.signal}: use runKeel`);
      if (step.send !== undefined) stdin.write(step.send);
      if (step.signal) setImmediate(ctrlC);
      if (step.end) stdin.end();
    }
  };
  return { stdin: stdin as unknown as NodeJS.ReadStream, advance };
}

export interface CliOptions extends Pick<KeelRunOptions, 'cwd' | 'env' | 'input' | 'checkpoints'> {
  /** Typed into stdin step by step as the output shows what each waits for (instead of `input`). */
  steps?: ChatStep[];
}

/** Set while a call runs: the process's environment and streams are the call's until it ends. */
let running = false;

/**
 * `keel …args` in process, with the same temp HOME, cleared variables and defaults as runKeel (checkpoints off
 * unless asked). One call at a time (never under Promise.all); not for runs that must be killed or signalled.
 */
export async function runCli(args: string[], options: CliOptions = {}): Promise<KeelRun> {
  if (running) throw new Error('runCli: one call at a time (each takes over process.env and stdio)');
  running = true;
  try {
    return await runCliOnce(args, options);
  } finally {
    running = false;
  }
}

async function runCliOnce(args: string[], options: CliOptions): Promise<KeelRun> {
  const home = await mkdtemp(join(tmpdir(), 'keel-home-'));
  const savedEnv = process.env;
  const savedExitCode = process.exitCode;
  const stdinDescriptor = Object.getOwnPropertyDescriptor(process, 'stdin')!;
  const env = keelTestEnv(home, options);
  const output = { stdout: '', stderr: '' };
  const talk = options.steps ? conversation(options.steps, output) : undefined;
  const restoreOut = capture(process.stdout, (t) => {
    output.stdout += t;
    talk?.advance();
  });
  const restoreErr = capture(process.stderr, (t) => {
    output.stderr += t;
    talk?.advance();
  });
  process.env = env;
  process.exitCode = undefined;
  const stdin = talk?.stdin ?? pipedStdin(options.input);
  Object.defineProperty(process, 'stdin', { value: stdin, configurable: true });
  try {
    const argv = withCwd(args, options.cwd ?? home);
    talk?.advance();
    // As src/cli/main.ts runs it, less watching for a closed stdout (a test's output never closes).
    await runArgs(['node', 'keel', ...argv], { stdin: false, stdout: false });
    return { code: Number(process.exitCode ?? 0), ...output };
  } finally {
    Object.defineProperty(process, 'stdin', stdinDescriptor);
    process.exitCode = savedExitCode;
    process.env = savedEnv;
    restoreErr();
    restoreOut();
    await rm(home, { recursive: true, force: true });
  }
}

/**
 * runKeel's `cwd` (default: the temp HOME) is the child's directory; this process's own is the repository, which
 * a command must never take for its workspace, so a call without --cwd gets one.
 */
function withCwd(args: string[], cwd: string): string[] {
  return args.includes('--cwd') ? args : [...args, '--cwd', cwd];
}
