// In-process runs with checkpoints and `keel undo`, for the tests of undo: the code `keel run` and `keel undo` call,
// in a temp home set on process.env for one test file (restored after it), without starting the built binary.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { LoopResult } from '../../src/agent/loop.js';
import { undoCommand } from '../../src/cli/undo-command.js';
import type { AgentEvent } from '../../src/core/events.js';
import { assembleRun, type Run, type RunOptions } from '../../src/runtime/assemble.js';
import { captureOutput } from './agent-in-process.js';
import { makeWorkspace } from './cli.js';
import { homeEnv } from './e2e.js';
import type { ModelServer } from './model-server.js';
import { shellGit } from './small-shell.js';

export { captureOutput };

/** What an in-process run left: its events, and how each message's run ended. */
export interface RunOutcome {
  events: AgentEvent[];
  reasons: LoopResult['reason'][];
}

/**
 * Call at file level: one temp home for the file's tests (Keel's state, data and config dirs, no keyring),
 * checkpoints on, process.env restored after the file. Tests keep apart by using their own workspaces.
 */
export function useUndoRuns() {
  const saved = { ...process.env };
  let home = '';
  beforeAll(async () => {
    home = await makeWorkspace();
    Object.assign(process.env, homeEnv(home));
    // Checkpoints are what these tests are about (runKeel turns them off for other tests' children).
    delete process.env.KEEL_CHECKPOINTS;
  });
  afterAll(async () => {
    process.env = { ...saved };
    // Retried: a checkpoint a closed run started in the background may still be writing its last files.
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  });
  return {
    /** XDG_STATE_HOME (Keel's checkpoints, audit log: under keel/). */
    stateHome: () => join(home, 'state'),
    /** XDG_DATA_HOME (Keel's sessions: under keel/). */
    dataHome: () => join(home, 'data'),
    /**
     * Each message as one run of `keel run` (or, with several, one chat turn each) against the scripted server,
     * in full mode without the sandbox unless `extra` says otherwise; the session saved, the run closed.
     */
    async run(
      s: ModelServer,
      ws: string,
      messages: string | string[],
      extra: Partial<RunOptions> = {},
    ): Promise<RunOutcome> {
      const events: AgentEvent[] = [];
      const reasons: LoopResult['reason'][] = [];
      let agent: Run | undefined;
      try {
        agent = await assembleRun({
          cwd: ws,
          flags: { provider: 'ollama', baseUrl: s.ollamaUrl, model: 'test-model' },
          mode: () => 'full',
          sandbox: false,
          session: { save: true },
          observe: (e) => void events.push(e),
          startGit: shellGit,
          ...extra,
        });
        for (const content of [messages].flat()) {
          agent.conversation.push({ role: 'user', content });
          reasons.push((await agent.run(new AbortController().signal)).reason);
        }
      } finally {
        await agent?.close();
      }
      return { events, reasons };
    },
    /** `keel undo [id] [--list] [--json: --output json] --cwd ws`, its exit code and what it printed on stdout and stderr. */
    async undo(ws: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
      const out = captureOutput();
      const id = args.find((a) => a !== '--list' && a !== '--json');
      const output = args.includes('--json') ? ('json' as const) : ('text' as const);
      const options = { cwd: ws, list: args.includes('--list'), output, startGit: shellGit };
      const code = await undoCommand(id, options, out);
      return { code, stdout: out.out, stderr: out.err };
    },
  };
}
