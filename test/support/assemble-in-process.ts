// In-process runs and commands: a headless run assembled as keel run assembles it, a CommandOutput that keeps what a
// command prints, and a temp home on process.env (Keel's dirs, no provider variables, no keyring) for each test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { LoopResult } from '../../src/agent/loop.js';
import type { AgentEvent } from '../../src/core/events.js';
import { assembleRun, type Run, type RunOptions } from '../../src/runtime/assemble.js';
import type { ExecutionMode } from '../../src/safety/policy.js';
import { clearedEnv } from './cli.js';
import { homeEnv } from './e2e.js';
import type { ModelServer } from './model-server.js';

export { captureOutput } from './agent-in-process.js';

/**
 * Call at file level: before each test process.env gets a fresh temp home (homeEnv), no provider variables and
 * no checkpoints, as runKeel gives the binary; after it the environment is restored and the home removed.
 * Returns the current home.
 */
export function useTempHome(): () => string {
  const saved = { ...process.env };
  let home = '';
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'keel-home-'));
    const env: NodeJS.ProcessEnv = { ...saved, ...homeEnv(home), NO_COLOR: '1', KEEL_CHECKPOINTS: 'off' };
    for (const name of clearedEnv) if (name !== 'KEEL_CHECKPOINTS') delete env[name];
    process.env = env;
  });
  afterEach(async () => {
    process.env = { ...saved };
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });
  return () => home;
}

export interface InProcessRun {
  result: LoopResult;
  /** Every event the run emitted, in order. */
  events: AgentEvent[];
  /** The run (closed by now): its MCP servers, registry, session. */
  run: Run;
}

/**
 * One headless run of `prompt` in `ws` against the scripted server's Ollama route, assembled as `keel run` assembles
 * it (restricted unless `mode` says otherwise; the session saved), then closed. Options not named here pass to
 * assembleRun as they are.
 */
export async function runInProcess(
  s: ModelServer,
  ws: string,
  prompt: string,
  options: Partial<Omit<RunOptions, 'mode'>> & {
    config?: string;
    mode?: ExecutionMode;
    extraEnv?: Record<string, string>;
  } = {},
): Promise<InProcessRun> {
  const { config, mode = 'restricted', extraEnv, observe, ...rest } = options;
  const events: AgentEvent[] = [];
  let run: Run | undefined;
  try {
    run = await assembleRun({
      cwd: ws,
      ...(config ? { configFile: config } : {}),
      flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
      mode: () => mode,
      session: { save: true },
      env: { ...process.env, ...extraEnv },
      observe: (event) => {
        events.push(event);
        return observe?.(event);
      },
      ...rest,
    });
    run.conversation.push({ role: 'user', content: prompt });
    const result = await run.run(new AbortController().signal);
    return { result, events, run };
  } finally {
    run?.runner.killAll();
    await run?.close();
  }
}

/** The warnings among a run's events. */
export const warningsOf = (events: AgentEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));

/** The run's final answer (its run_end event). */
export const answerOf = (events: AgentEvent[]): string =>
  events.flatMap((e) => (e.type === 'run_end' ? [e.answer] : [])).join('');
