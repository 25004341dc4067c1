// In-process runs of what the CLI runs: an agent run as keel run makes it, a captured CommandOutput, and
// process.env pointed at a temp home for a test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { LoopResult } from '../../src/agent/loop.js';
import type { AgentEvent } from '../../src/core/events.js';
import { assembleRun, type Run, type RunOptions } from '../../src/runtime/assemble.js';
import type { ExecutionMode } from '../../src/safety/policy.js';
import type { CommandOutput } from '../../src/ui/command-output.js';
import { clearedEnv } from './cli.js';
import { homeEnv } from './e2e.js';
import type { ModelServer } from './model-server.js';

/** A CommandOutput that keeps what a command printed: `out` its stdout, `err` its stderr. */
export function captureOutput(): CommandOutput & { out: string; err: string } {
  const c = {
    out: '',
    err: '',
    print(text: string) {
      c.out += text;
    },
    notice(text: string) {
      c.err += text;
    },
  };
  return c;
}

/**
 * Call at file or describe level: before each test, process.env gets Keel's dirs under the home `home()` returns
 * (plus `extra`), and after it the environment is put back as it was.
 */
export function useHomeEnv(home: () => string, extra: Record<string, string> = {}): void {
  let saved: NodeJS.ProcessEnv = {};
  beforeEach(() => {
    saved = { ...process.env };
    Object.assign(process.env, homeEnv(home()), extra);
  });
  afterEach(() => {
    process.env = saved;
  });
}

export interface AgentRunOptions extends Partial<Omit<RunOptions, 'mode' | 'env'>> {
  /** The execution mode (default: restricted, keel run's own default without a sandbox). */
  mode?: ExecutionMode;
  /** The home whose Keel dirs the run uses (default: a new temp dir, removed after the run). */
  home?: string;
  /** Variables over the test's environment (HOME, keys, PATH…), as `runKeel`'s env. */
  env?: Record<string, string>;
}

export interface AgentRun {
  result: LoopResult;
  events: AgentEvent[];
  /** The warning events' messages: what `keel run` prints as `warning: …` on stderr. */
  warnings: string[];
}

/**
 * One `keel run --base-url <s's Ollama URL> --cwd ws --prompt <prompt>` in-process, as src/cli/run.ts makes it:
 * assembled by assembleRun, the prompt pushed, the loop run, background commands killed and the run closed.
 * Keel's dirs are under a temp home and provider variables of the developer's shell are left out.
 */
export async function runAgent(
  s: ModelServer,
  ws: string,
  prompt: string,
  options: AgentRunOptions = {},
): Promise<AgentRun> {
  const { mode = 'restricted', home: givenHome, env: extra, ...rest } = options;
  const home = givenHome ?? (await mkdtemp(join(tmpdir(), 'keel-home-')));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of clearedEnv) delete env[name];
  Object.assign(env, homeEnv(home), { KEEL_CHECKPOINTS: 'off', NO_COLOR: '1' });
  Object.assign(env, extra);
  const events: AgentEvent[] = [];
  let run: Run | undefined;
  try {
    run = await assembleRun({
      cwd: ws,
      flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
      session: { save: false },
      ...rest,
      mode: () => mode,
      env,
      observe: (event) => void events.push(event),
    });
    run.conversation.push({ role: 'user', content: prompt });
    const agent = run;
    const result = await agent.run(new AbortController().signal).finally(() => agent.runner.killAll());
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    return { result, events, warnings };
  } finally {
    await run?.close();
    if (givenHome === undefined) await rm(home, { recursive: true, force: true });
  }
}

/** Runs `fn` with `vars` set in process.env (for commands that read it, as `policyCheckCommand`), then puts it back. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    process.env = saved;
  }
}
