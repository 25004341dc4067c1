// `keel run` in the test's own process: runCommand with the options commander would parse, stdout and stderr
// captured, Keel's dirs under a temp home and process.env restored after. No binary spawned (~0.7 s CPU saved).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Command, CommanderError } from 'commander';
import { entryArgs } from '../../src/cli/entry-argv.js';
import { buildProgram } from '../../src/cli/program.js';
import { type RunOptions, runCommand } from '../../src/cli/run.js';
import { clearedEnv, type KeelRun } from './cli.js';
import { homeEnv, type WireProvider } from './e2e.js';
import type { ModelServer } from './model-server.js';

export interface InProcessOptions {
  /** Added to the run's environment (undefined removes a variable); Keel's dirs are under a temp home. */
  env?: Record<string, string | undefined>;
  /** Text piped on stdin; absent: nothing piped. */
  stdin?: string;
  /** Interrupts the run, as Ctrl-C does the binary's. */
  signal?: AbortSignal;
  /** Take checkpoints before changes (off by default, as for the binary in test/support/cli.ts). */
  checkpoints?: boolean;
}

/** The variables a developer's shell may hold that would change a run. */
const cleared = [...clearedEnv, 'OLLAMA_API_KEY', 'FORCE_COLOR'];

function replaceEnv(env: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
}

/** A stream that keeps what is written to it (not a terminal, as a pipe). */
function capture(): NodeJS.WriteStream & { text: string } {
  const stream = {
    text: '',
    isTTY: false,
    write(chunk: string | Uint8Array, ...rest: unknown[]) {
      stream.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    },
  };
  return stream as unknown as NodeJS.WriteStream & { text: string };
}

/**
 * Runs `body` with process.env as the binary's run would have it: Keel's dirs under a temp home, a developer's
 * provider variables cleared, checkpoints off unless asked for, `extra.env` on top. Restored after.
 */
export async function inKeelEnv<T>(extra: InProcessOptions, body: () => Promise<T>): Promise<T> {
  const home = await mkdtemp(join(tmpdir(), 'keel-home-'));
  const saved = { ...process.env };
  const env: NodeJS.ProcessEnv = { ...saved, ...homeEnv(home), NO_COLOR: '1' };
  for (const name of cleared) delete env[name];
  if (!extra.checkpoints) env.KEEL_CHECKPOINTS = 'off';
  for (const [name, value] of Object.entries(extra.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  // Changed in place: a module holding process.env sees the run's variables too.
  replaceEnv(env);
  try {
    return await body();
  } finally {
    replaceEnv(saved);
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
}

/** `keel run` with these options (output text unless given), as the binary would run it; its exit code and output. */
export function keelRun(options: Partial<RunOptions>, extra: InProcessOptions = {}): Promise<KeelRun> {
  return inKeelEnv(extra, async () => {
    const stdout = capture();
    const stderr = capture();
    const code = await runCommand(
      { output: 'text', ...options },
      {
        stdout,
        stderr,
        signal: extra.signal ?? new AbortController().signal,
        ...(extra.stdin === undefined ? {} : { stdin: extra.stdin }),
      },
    );
    return { code, stdout: stdout.text, stderr: stderr.text };
  });
}

/** keelRun against a scripted server's Ollama route (the default provider), in workspace `ws`. */
export function ollamaRun(
  s: ModelServer,
  ws: string,
  options: Partial<RunOptions>,
  extra?: InProcessOptions,
): Promise<KeelRun> {
  return keelRun({ baseUrl: s.ollamaUrl, cwd: ws, ...options }, extra);
}

/** keelRun as `--provider p --base-url <its URL on s> --model test-model`, with a key when p needs one. */
export function providerRun(
  p: WireProvider,
  s: ModelServer,
  ws: string,
  options: Partial<RunOptions>,
  extra: InProcessOptions = {},
): Promise<KeelRun> {
  const env = { ...(p.envVar ? { [p.envVar]: 'sk-scripted-test' } : {}), ...extra.env };
  return keelRun(
    { provider: p.provider, baseUrl: s[p.url], model: 'test-model', cwd: ws, ...options },
    { ...extra, env },
  );
}

/**
 * `keel …args` parsed in this process as the binary parses them (entry-argv.ts, then commander), for help and
 * parse errors only: a valid command's action would run. The exit code is main.ts's: 0 for help, 2 otherwise.
 */
export async function parseHere(args: string[]): Promise<KeelRun> {
  const program = buildProgram();
  let stdout = '';
  let stderr = '';
  const output = {
    writeOut: (text: string) => {
      stdout += text;
    },
    writeErr: (text: string) => {
      stderr += text;
    },
  };
  const configure = (command: Command) => {
    command.configureOutput(output);
    for (const sub of command.commands) configure(sub);
  };
  configure(program);
  try {
    await program.parseAsync(['node', 'keel', ...entryArgs(args, program, { stdin: false, stdout: false })]);
    throw new Error(`keel ${args.join(' ')} parsed without a help or parse error: its action ran`);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { code: error.exitCode === 0 ? 0 : 2, stdout, stderr };
  }
}
