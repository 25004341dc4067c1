// The agent loop: call the model with the conversation and tools, run every tool call it asks for,
// append the results, and repeat until a final answer, the turn limit, an interrupt or a failure.
// Every path ends with exactly one run_end event.

import { usageCost } from '../core/cost.js';
import { isAbortError, type KeelError } from '../core/errors.js';
import { type AgentEvent, messageEvent, type RunEndReason, usageCounts } from '../core/events.js';
import { addUsage, emptyUsage, imagesFor, type ToolCall, type Usage } from '../core/messages.js';
import type { Model, ToolSpec } from '../core/model.js';
import { foldCodeTools, unfoldCodeCall } from './code-tool.js';
import { type AutoCompaction, fitContext } from './context-budget.js';
import type { Conversation } from './conversation.js';
import { type Classification, classifyIntent } from './intent.js';
import { streamTurn } from './model-turn.js';
import { OfferedTools } from './offered-tools.js';
import { cutCall } from './oversized-call.js';
import { repeatedReadNote } from './repeated-read.js';
import { RepetitionGuard } from './repetition.js';
import { AnswerCutError, asKeelError, RunTimeoutError } from './run-errors.js';
import { steeringNote } from './steering.js';
import { type CallAssessment, runToolBatch, type ToolOutcome } from './tool-batch.js';
import type { ToolOffer } from './tool-offer.js';
import { type ToolSpend, withToolSpend } from './tool-spend.js';
import { turnWarning } from './turn-warnings.js';

export type { CallAssessment, ToolOutcome } from './tool-batch.js';

/** What the loop needs of the tool executor: the tools offered now, running a call, and assessing one. */
export interface LoopExecutor {
  /** The tools offered now: asked again every turn, as tools may come and go during a run. */
  specs(): ToolSpec[];
  /**
   * `concurrent`: the call runs beside the turn's other read-only calls, ahead of its mutating ones, so its
   * assessment still holds; its events go to `concurrent.emit`, which holds them back to keep the model's order.
   */
  run(
    call: ToolCall,
    turn: number,
    signal: AbortSignal,
    concurrent?: { emit: (event: AgentEvent) => void },
  ): Promise<ToolOutcome>;
  /** What the policy says of a call before it runs; given, a turn's read-only calls run concurrently. */
  assess?(call: ToolCall, turn: number, signal: AbortSignal): Promise<CallAssessment>;
  /**
   * One turn's outcomes, in its calls' order, within what the model reads of a turn: each result is capped alone,
   * but a turn may hold any number of them. Absent: the outcomes go back as they are.
   */
  capTurn?(
    calls: readonly ToolCall[],
    outcomes: readonly ToolOutcome[],
    signal: AbortSignal,
  ): Promise<ToolOutcome[]>;
}

export interface LoopOptions {
  model: Model;
  /** What the run's tools spend on model requests of their own (sub-agents, page condensing): in its totals. */
  toolSpend?: ToolSpend;
  /** The run's tool executor, as a value: the tools it offers and how it runs and assesses their calls. */
  executor: LoopExecutor;
  /** Classify the user's message and steer the model with a note on it (the coding agent; not keel init). */
  intent?: boolean;
  emit: (event: AgentEvent) => void;
  /** Waits until durable event consumers (the session store) have written everything; called before each model call. */
  flush?: () => Promise<void>;
  workspace: string;
  maxTurns: number;
  /** Fires on Ctrl-C: the run ends as interrupted. */
  signal: AbortSignal;
  /** Whole-run limit (agent.timeout_seconds); the run ends as failed. */
  timeoutMs?: number;
  /** How often an answer cut off by the output limit is continued (default 3). */
  maxContinuations?: number;
  /** Compaction near the context limit; without it, pruning alone keeps the conversation in budget. */
  autoCompact?: AutoCompaction;
  /** A tool call's arguments over this many bytes are refused and kept only as a stub (boundedCall). */
  maxToolArgumentBytes?: number;
  /** Waits (bounded, never throwing) for tools still starting, such as MCP servers', before the run's first request. */
  toolsReady?: (signal: AbortSignal) => Promise<void>;
  /** Called right after `run_start`: what the run shows first (a plan's or resumed session's todo list). */
  started?: () => void;
  /** The tools earlier requests of this conversation offered (kept across a chat's runs); a new one gets a note. */
  offered?: OfferedTools;
  /** Which built-in tools are offered (groups join as messages and calls need them); absent: every tool. */
  offer?: ToolOffer;
}

export interface LoopResult {
  reason: RunEndReason;
  answer: string;
  turns: number;
  toolCalls: number;
  /** The run's own requests and what its tools spent on theirs (LoopOptions.toolSpend). */
  usage: Usage;
  /** At the list prices of the models used; undefined when one is unknown. */
  costUsd?: number;
  /** Set when reason is failed. */
  error?: KeelError;
}

/** The user-role message that asks for the rest of an answer cut off by the output limit. */
export const CONTINUE_PROMPT =
  '[Keel: your answer was cut off by the output limit. Continue exactly where it stopped, without repeating anything.]';

/** Text with Keel's notes after it, each on its own paragraph. */
export function withNotes(content: string, notes: readonly (string | undefined)[]): string {
  const given = notes.filter((n): n is string => n !== undefined);
  return given.length === 0 ? content : [content, ...given].join('\n\n');
}

/**
 * Classifies the user's message the run starts from, lets the tool groups it calls for join the offer, and appends
 * the steering note (and a note on newly offered tools) to it before anyone has seen it (so the message event
 * carries the notes). Nothing when the conversation does not end with a new user message.
 */
function steerUserMessage(conversation: Conversation, options: LoopOptions, offered: OfferedTools) {
  const last = conversation.unreportedLast;
  if (last?.role !== 'user') {
    // No new message to carry a note: the tools count as pointed out (as before the first request).
    offered.note(offeredSpecs(options));
    return undefined;
  }
  const classified = options.intent === true ? classifyIntent(last.content) : undefined;
  options.offer?.message(last.content, classified);
  const tools = offeredSpecs(options);
  const toolsNote = offered.note(tools);
  const note = classified && noteFor(classified, tools);
  if (note || toolsNote) conversation.amendLast(withNotes(last.content, [note, toolsNote]));
  return classified;
}

/** The steering note for a classified user message, given the tools offered with it. */
export const noteFor = (classified: Classification, tools: readonly ToolSpec[]): string | undefined =>
  steeringNote(
    classified,
    tools.some((t) => t.name === 'todo_write'),
  );

/** The tools a request offers of `specs`: narrowed by the offer when there is one, the code tools folded. */
export const offerOf = (specs: readonly ToolSpec[], offer: ToolOffer | undefined): ToolSpec[] =>
  foldCodeTools(offer ? offer.select(specs) : specs);

/** The tools a request offers: the executor's, through offerOf. */
function offeredSpecs(options: LoopOptions): ToolSpec[] {
  return offerOf(options.executor.specs(), options.offer);
}

/** Runs the loop on a conversation that already ends with the user's message. */
export async function runLoop(conversation: Conversation, options: LoopOptions): Promise<LoopResult> {
  const { model, emit, executor } = options;
  const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
  const signal = timeout ? AbortSignal.any([options.signal, timeout]) : options.signal;
  const maxContinuations = options.maxContinuations ?? 3;
  const state = { turns: 0, toolCalls: 0, usage: emptyUsage(), answer: '', continuations: 0 };
  /** Text of answers cut off by the output limit, awaiting their continuation. */
  let partial = '';
  let autoCompact = options.autoCompact;
  const end = (reason: RunEndReason, error?: KeelError): LoopResult => {
    const { usage, costUsd: cost } = withToolSpend(
      { usage: state.usage, costUsd: usageCost(state.usage, model.capabilities?.price) },
      options.toolSpend,
    );
    const result: LoopResult = {
      reason,
      answer: state.answer,
      turns: state.turns,
      toolCalls: state.toolCalls,
      usage,
      ...(cost === undefined ? {} : { costUsd: cost }),
      error,
    };
    if (error) emit({ type: 'error', code: error.code, message: error.message, hint: error.hint });
    emit({
      type: 'run_end',
      reason,
      answer: state.answer,
      turns: state.turns,
      tool_calls: state.toolCalls,
      usage: { ...usageCounts(usage), ...(cost === undefined ? {} : { cost_usd: cost }) },
    });
    return result;
  };

  emit({ type: 'run_start', provider: model.provider, model: model.modelId, workspace: options.workspace });
  options.started?.();
  await options.toolsReady?.(signal);
  const offered = options.offered ?? new OfferedTools();
  const classified = steerUserMessage(conversation, options, offered);
  // The conversation's messages become events from here on (the system prompt and user message included).
  const detach = conversation.report((message) => emit(messageEvent(message)));
  if (classified) emit({ type: 'intent', ...classified });
  const repetition = new RepetitionGuard();
  /** The turn warning for the request of `turn`: shown to the user now, returned for the model. */
  const warnFor = (turn: number): string | undefined => {
    const warning = turn <= options.maxTurns ? turnWarning(turn, options.maxTurns) : undefined;
    if (warning) emit({ type: 'warning', message: warning.message });
    return warning?.note;
  };
  try {
    while (state.turns < options.maxTurns) {
      const turn = ++state.turns;
      emit({ type: 'turn_start', turn });
      const fitted = await fitContext(conversation, { turn, emit, signal, autoCompact });
      if (fitted.usage) state.usage = addUsage(state.usage, fitted.usage);
      if (fitted.compactionFailed) autoCompact = undefined;
      // Nothing lost: every message so far is on disk before the model sees it.
      await options.flush?.();

      const tools = offeredSpecs(options);
      offered.sent(tools);
      const {
        text,
        reasoning,
        calls: streamed,
        finish,
      } = await streamTurn(conversation, options, tools, turn, signal, (u) => {
        state.usage = addUsage(state.usage, u);
      });
      const calls = finish === 'length' ? streamed.map(cutCall) : streamed;
      conversation.push({
        role: 'assistant',
        content: text,
        ...(reasoning ? { reasoning } : {}),
        ...(calls.length ? { toolCalls: calls } : {}),
      });

      if (finish === 'content-filter') {
        state.answer = (partial + text).trim();
        emit({ type: 'turn_end', turn, tool_calls: 0 });
        return end(
          'failed',
          new AnswerCutError(
            'content_filter',
            `${model.provider} stopped the answer with its content filter`,
            'rephrase the task, or try another model',
          ),
        );
      }
      if (calls.length === 0) {
        if (finish === 'length') {
          // A truncated answer is not a finished task: ask for the rest.
          partial += text;
          if (state.continuations >= maxContinuations) {
            state.answer = partial.trim();
            emit({ type: 'turn_end', turn, tool_calls: 0 });
            return end(
              'failed',
              new AnswerCutError(
                'output_limit',
                `the answer was still cut off by the model's output limit after ${maxContinuations} continuations`,
                'ask for a shorter answer, or use a model with a larger output limit',
              ),
            );
          }
          state.continuations++;
          emit({ type: 'turn_end', turn, tool_calls: 0, continued: true });
          const warning = warnFor(turn + 1);
          const toolsNote = offered.note(offeredSpecs(options));
          conversation.push({ role: 'user', content: withNotes(CONTINUE_PROMPT, [warning, toolsNote]) });
          continue;
        }
        state.answer = (partial + text).trim();
        emit({ type: 'turn_end', turn, tool_calls: 0 });
        return end('done');
      }
      partial = '';
      // The calls are on disk before they run: after a crash mid-call, a resumed session knows they were made.
      await options.flush?.();
      // Every call gets a result, in order, so the next request is well-formed even if one fails.
      for (const call of calls) options.offer?.used(call.name, call.input);
      // A `code` call runs as the tool its action names; the conversation keeps the call as the model made it.
      const runs = calls.map(unfoldCodeCall);
      const ran = await runToolBatch(runs, {
        run: (call, concurrent) => executor.run(call, turn, signal, concurrent),
        ...(executor.assess ? { assess: (call) => executor.assess!(call, turn, signal) } : {}),
        emit,
        signal,
        workspace: options.workspace,
      });
      const outcomes = executor.capTurn ? await executor.capTurn(runs, ran, signal) : ran;
      state.toolCalls += calls.length;
      // Notes for the next request ride on the turn's last tool result: never a user-role message between
      // turns, which pruning would count among the user's requests. An interrupted turn has no next request.
      const notes = signal.aborted
        ? []
        : [repetition.afterTurn(runs), warnFor(turn + 1), offered.note(offeredSpecs(options))];
      calls.forEach((call, i) => {
        const outcome = outcomes[i]!;
        const read = repeatedReadNote(runs[i]!, outcome.content, outcome.isError, conversation.messages);
        const { content, images } = imagesFor(
          model.capabilities?.images === true,
          read ?? outcome.content,
          outcome.images,
        );
        conversation.push({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: i === calls.length - 1 ? withNotes(content, notes) : content,
          ...(outcome.isError ? { isError: true } : {}),
          ...(images ? { images } : {}),
        });
      });
      emit({ type: 'turn_end', turn, tool_calls: calls.length });
      signal.throwIfAborted();
    }
    return end('turn-limit');
  } catch (error) {
    if (timeout?.aborted && !options.signal.aborted)
      return end('failed', new RunTimeoutError(options.timeoutMs! / 1000));
    if (options.signal.aborted || isAbortError(error)) return end('interrupted');
    return end('failed', asKeelError(error));
  } finally {
    detach();
    // What the run appended (results of an interrupted turn included) reaches the disk before the caller goes on.
    await options.flush?.().catch(() => {});
  }
}
