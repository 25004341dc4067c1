// Runs the built keel binary as a child process in a temp HOME, with provider env vars cleared.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const keelBin = resolve(import.meta.dirname, '../../dist/keel.js');
/** The `keel` command as npm installs it (scripts/launcher.sh), which starts node on keelBin. */
export const keelCommand = resolve(import.meta.dirname, '../../dist/keel');

export interface KeelRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface KeelRunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** Called with the child once spawned (to send signals). */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
  /** Leave stdin open (instead of writing `input` and ending it): onSpawn writes to it and ends it. */
  openStdin?: boolean;
  /**
   * Take checkpoints before changes (for the tests of undo and of checkpointing). Off by default: each one costs
   * several git processes, and a test not about undo has nothing to gain from them.
   */
  checkpoints?: boolean;
}

/** Provider and Keel variables a test run never inherits from the developer's shell. */
export const clearedEnv = [
  'OLLAMA_HOST',
  'OLLAMA_MODEL',
  'OPENAI_BASE_URL',
  'OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'OPENROUTER_API_KEY',
  'ANTHROPIC_API_KEY',
  'GITHUB_TOKEN',
  'COPILOT_MODEL',
  'KEEL_PROVIDER',
  'KEEL_MODEL',
  'KEEL_CHECKPOINTS',
];

/**
 * The environment a test's keel gets: this process's, with Keel's dirs under `home`, no colour, no OS keyring, the
 * developer's provider variables left out, checkpoints off unless asked for, then the test's own (undefined: unset).
 */
export function keelTestEnv(
  home: string,
  options: Pick<KeelRunOptions, 'checkpoints' | 'env'> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    // Trusted folders and other state: never the developer's own.
    XDG_STATE_HOME: join(home, '.local', 'state'),
    NO_COLOR: '1',
    // Never the developer's real OS keyring.
    KEEL_KEYRING: 'off',
  };
  for (const name of clearedEnv) delete env[name];
  if (!options.checkpoints) env.KEEL_CHECKPOINTS = 'off';
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export async function runKeel(args: string[], options: KeelRunOptions = {}): Promise<KeelRun> {
  const home = await mkdtemp(join(tmpdir(), 'keel-home-'));
  const env = keelTestEnv(home, options);
  try {
    return await new Promise<KeelRun>((resolvePromise, reject) => {
      const child = spawn(keelCommand, args, {
        cwd: options.cwd ?? home,
        env,
        stdio: 'pipe',
      });
      options.onSpawn?.(child);
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolvePromise({ code, stdout, stderr });
      });
      if (!options.openStdin) child.stdin.end(options.input ?? '');
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

/** A temp directory holding the given files; returns its path. */
export async function makeWorkspace(files: Record<string, string> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'keel-ws-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}
