// createAgent: the library API's agent over the shared run assembly (runtime/assemble.ts). Each run() is one user
// turn of a conversation kept across runs, its events handed to the caller as they happen; canUseTool stands in for
// the terminal's approval prompt.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LoopResult } from '../agent/loop.js';
import { asProvider, type FlagNames } from '../config/overrides.js';
import type { ApprovalAnswer, ApprovalRequest, Approve } from '../core/approval.js';
import { UsageError } from '../core/errors.js';
import type { AgentEvent } from '../core/events.js';
import { assembleRun, type Run } from '../runtime/assemble.js';
import { type HintWords, MODES } from '../safety/modes.js';
import { redactingSink } from '../safety/redact-stream.js';
import { customTool } from './custom-tools.js';
import { EventQueue } from './event-queue.js';
import type { AgentOptions, CreateAgent, RunResult, ToolUse, ToolUseAnswer } from './types.js';

/** A bad option value is named as the caller gave it (`baseUrl`), not as keel's flag (`--base-url`). */
const LIBRARY_OPTIONS: FlagNames = {
  provider: 'provider',
  model: 'model',
  baseUrl: 'baseUrl',
  maxTurns: 'maxTurns',
  cassette: 'cassette',
  kind: 'option',
};

const DECISIONS = new Set(['once', 'always', 'keep', 'edit', 'deny']);

/** A refusal's hint names createAgent's options, not the command line's flags. */
export const LIBRARY_WORDS: HintWords = {
  mode: (modes) => `set the mode option to ${modes}`,
  allow: (rules) => `pass allow: [${rules.map((rule) => JSON.stringify(rule)).join(', ')}]`,
  approve: (modes) => `pass canUseTool to approve it${modes ? ` (in mode ${modes})` : ''}`,
};

/** canUseTool's answer as the executor's; anything else is a refusal, so a caller's slip never lets a call through. */
export function approvalAnswer(answer: ToolUseAnswer): ApprovalAnswer {
  if (answer === 'allow') return { decision: 'once' };
  if (answer === 'always') return { decision: 'always' };
  if (typeof answer === 'object' && answer !== null && DECISIONS.has(answer.decision)) {
    if (answer.decision === 'edit' && typeof answer.edited !== 'string') return { decision: 'deny' };
    return answer;
  }
  return { decision: 'deny' };
}

function toolUse(request: ApprovalRequest): ToolUse {
  const preview = request.preview ?? {};
  return {
    id: request.id,
    name: request.tool,
    args: request.args,
    reason: request.reason,
    summary: request.summary,
    ...(preview.command !== undefined ? { command: preview.command } : {}),
    ...(preview.diff !== undefined ? { diff: preview.diff } : {}),
    reads: preview.reads ?? [],
    writes: preview.writes ?? [],
  };
}

function runResult(ended: LoopResult, end: AgentEvent | undefined, sessionId: string | undefined): RunResult {
  return {
    reason: ended.reason,
    answer: ended.answer,
    turns: ended.turns,
    toolCalls: ended.toolCalls,
    usage:
      end?.type === 'run_end'
        ? end.usage
        : { input_tokens: ended.usage.inputTokens, output_tokens: ended.usage.outputTokens },
    ...(sessionId ? { sessionId } : {}),
    ...(ended.error
      ? {
          error: {
            code: ended.error.code,
            message: ended.error.message,
            ...(ended.error.hint ? { hint: ended.error.hint } : {}),
          },
        }
      : {}),
  };
}

const CLOSED =
  'this agent is closed: agent.resume(sessionId) continues its conversation, createAgent() makes another';

export const createAgent: CreateAgent = (options: AgentOptions = {}) => {
  if (options.mode !== undefined && !MODES.includes(options.mode)) {
    throw new UsageError(`unknown mode ${JSON.stringify(options.mode)}`, {
      hint: `use one of ${MODES.join(', ')}`,
    });
  }
  asProvider(options.provider, 'the provider option');
  const tools = (options.tools ?? []).map(customTool);
  const twice = tools.find((tool, index) => tools.findIndex((other) => other.name === tool.name) !== index);
  if (twice) throw new UsageError(`two custom tools are named ${twice.name}`);
  let resumeId = options.resume;
  let opened: Promise<Run> | undefined;
  let assembled: Run | undefined;
  let busy = false;
  /** close() was called and no resume() since: a run would start a new conversation unasked. */
  let closed = false;
  /** The run in progress: close() interrupts it and waits for its loop to end before closing what it runs on. */
  let running: { controller: AbortController; done: Promise<void> } | undefined;
  // Where the run's events go: the running call's queue; between runs they wait for the next one.
  let deliver: ((event: AgentEvent) => void) | undefined;
  const waiting: AgentEvent[] = [];
  const observe = (event: AgentEvent) => (deliver ? deliver(event) : void waiting.push(event));

  const approve: Approve | undefined = options.canUseTool
    ? async (request, signal) => {
        try {
          return approvalAnswer(await options.canUseTool!(toolUse(request), { signal }));
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          observe({
            type: 'warning',
            message: `canUseTool failed, so ${request.tool} was refused: ${message}`,
          });
          return { decision: 'deny' };
        }
      }
    : undefined;

  const open = async (): Promise<Run> => {
    const env = (options.env ?? process.env) as NodeJS.ProcessEnv;
    // Said in the library's words: the run assembly's own message names keel's --cwd flag.
    if (
      options.cwd !== undefined &&
      !(await stat(resolve(options.cwd)).catch(() => undefined))?.isDirectory()
    ) {
      throw new UsageError(`the cwd option is not an existing directory: ${resolve(options.cwd)}`, {
        hint: 'set cwd to the directory the agent works in',
      });
    }
    if (
      options.config !== undefined &&
      !(await stat(resolve(options.config)).catch(() => undefined))?.isFile()
    ) {
      throw new UsageError(`the config option is not a config file: ${resolve(options.config)}`, {
        hint: 'set config to a YAML file (keel config init writes one), or leave it out for the user config',
      });
    }
    const run = await assembleRun({
      ...(options.cwd !== undefined ? { cwd: resolve(options.cwd) } : {}),
      ...(options.config !== undefined ? { configFile: resolve(options.config) } : {}),
      flags: {
        provider: options.provider,
        model: options.model,
        baseUrl: options.baseUrl,
        maxTurns: options.maxTurns,
        names: LIBRARY_OPTIONS,
      },
      mode: (loaded) => options.mode ?? loaded.config.agent.terminal.default_mode ?? 'restricted',
      ...(options.allow ? { allow: options.allow } : {}),
      hintWords: LIBRARY_WORDS,
      ...(approve ? { approve } : {}),
      ...(options.askUser
        ? {
            askUser: (q, signal) =>
              options.askUser!(
                { question: q.question, ...(q.options ? { options: q.options } : {}) },
                { signal },
              ),
          }
        : {}),
      ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
      session: { save: options.session !== false, ...(resumeId ? { resume: resumeId } : {}) },
      // The events `--output stream-json` prints, so through the run's redactor as they are (and as keel acp's are).
      outputs: (_model, redact) => redactingSink(observe, redact),
      env,
    });
    const taken = tools.find((tool) => run.registry.has(tool.name));
    if (taken) {
      await run.close();
      throw new UsageError(`custom tool ${taken.name} has the name of a built-in tool`, {
        hint: 'give it another name',
      });
    }
    for (const tool of tools) run.registry.add(tool);
    assembled = run;
    return run;
  };

  const current = (): Promise<Run> => {
    opened ??= open().catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };

  async function* run(prompt: string, runOptions: { signal?: AbortSignal } = {}) {
    if (closed) throw new Error(CLOSED);
    if (busy) throw new Error('this agent is already running: wait for its run() to end before the next');
    busy = true;
    const queue = new EventQueue();
    const controller = new AbortController();
    const stop = () => controller.abort();
    runOptions.signal?.addEventListener('abort', stop, { once: true });
    if (runOptions.signal?.aborted) controller.abort();
    let last: AgentEvent | undefined;
    deliver = (event) => {
      last = event;
      queue.push(event);
    };
    for (const event of waiting.splice(0)) deliver(event);
    const started = current().then((agent) => {
      agent.conversation.push({ role: 'user', content: prompt });
      // A failure of the loop itself still ends the iteration: the queue ends, then `await settled` throws.
      const settled = agent.run(controller.signal).finally(() => queue.end());
      return { agent, settled };
    });
    const mine = {
      controller,
      done: started
        .then(({ settled }) => settled)
        .then(
          () => {},
          () => {},
        ),
    };
    running = mine;
    try {
      const { agent, settled } = await started;
      yield* queue.drain();
      const ended = await settled;
      return runResult({ ...ended, answer: agent.redact(ended.answer) }, last, agent.session?.id);
    } finally {
      // Left early (break, return, a throw in the caller's loop): the run is interrupted and awaited, so the
      // conversation is whole before the next run.
      controller.abort();
      deliver = () => {};
      await mine.done;
      deliver = undefined;
      runOptions.signal?.removeEventListener('abort', stop);
      if (running === mine) running = undefined;
      busy = false;
    }
  }

  /** Ends the run in progress and closes what it runs on; the next run() opens the agent's run again. */
  const shut = async () => {
    // A run in progress ends first (interrupted), so nothing runs on, or retries, over a closed run.
    const stopping = running;
    stopping?.controller.abort();
    await stopping?.done;
    const closing = opened;
    opened = undefined;
    assembled = undefined;
    await (await closing?.catch(() => undefined))?.close();
  };

  return {
    run,
    async resume(id: string) {
      if (busy) throw new Error('this agent is running: resume another session once its run() has ended');
      await shut();
      resumeId = id;
      closed = false;
    },
    get sessionId() {
      return assembled?.session?.id;
    },
    async close() {
      closed = true;
      await shut();
    },
  };
};
