// The agent loop: call the model with the conversation and tools, run every tool call it asks for,
// append the results, and repeat until a final answer, the turn limit, an interrupt or a failure.

import { isAbortError, KeelError } from '../core/errors.js';
import type { EventSink, RunEndReason } from '../core/events.js';
import { addUsage, emptyUsage, type ToolCall, type Usage } from '../core/messages.js';
import type { Model, ToolSpec } from '../providers/model.js';
import type { Conversation } from './conversation.js';

export interface ToolOutcome {
  /** What goes back to the model. */
  content: string;
  isError: boolean;
}

export interface LoopOptions {
  model: Model;
  tools: ToolSpec[];
  runTool: (call: ToolCall, turn: number, signal: AbortSignal) => Promise<ToolOutcome>;
  emit: EventSink;
  workspace: string;
  maxTurns: number;
  /** Fires on Ctrl-C: the run ends as interrupted. */
  signal: AbortSignal;
  /** Whole-run limit (agent.timeout_seconds); the run ends as failed. */
  timeoutMs?: number;
}

export interface LoopResult {
  reason: RunEndReason;
  answer: string;
  turns: number;
  toolCalls: number;
  usage: Usage;
  /** Set when reason is failed. */
  error?: KeelError;
}

export class RunTimeoutError extends KeelError {
  constructor(seconds: number) {
    super('run_timeout', 1, `the run took longer than agent.timeout_seconds (${seconds} s) and was stopped`, {
      hint: 'raise agent.timeout_seconds in your config, or split the task',
    });
  }
}

/** Runs the loop on a conversation that already ends with the user's message. */
export async function runLoop(conversation: Conversation, options: LoopOptions): Promise<LoopResult> {
  const { model, emit } = options;
  const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
  const signal = timeout ? AbortSignal.any([options.signal, timeout]) : options.signal;
  const state = { turns: 0, toolCalls: 0, usage: emptyUsage(), answer: '' };
  const end = (reason: RunEndReason, error?: KeelError): LoopResult => {
    const result: LoopResult = {
      reason,
      answer: state.answer,
      turns: state.turns,
      toolCalls: state.toolCalls,
      usage: state.usage,
      error,
    };
    if (error) emit({ type: 'error', code: error.code, message: error.message, hint: error.hint });
    emit({
      type: 'run_end',
      reason,
      answer: state.answer,
      turns: state.turns,
      tool_calls: state.toolCalls,
      usage: { input_tokens: state.usage.inputTokens, output_tokens: state.usage.outputTokens },
    });
    return result;
  };

  emit({ type: 'run_start', provider: model.provider, model: model.modelId, workspace: options.workspace });
  try {
    while (state.turns < options.maxTurns) {
      const turn = ++state.turns;
      emit({ type: 'turn_start', turn });
      const pruned = conversation.pruneIfNeeded();
      if (pruned) emit({ type: 'warning', message: `conversation pruned to fit the context: ${pruned}` });

      let text = '';
      let reasoning = '';
      const calls: ToolCall[] = [];
      for await (const event of model.stream({
        messages: [...conversation.messages],
        tools: options.tools,
        signal,
      })) {
        switch (event.type) {
          case 'text':
            text += event.delta;
            emit({ type: 'text_delta', turn, delta: event.delta });
            break;
          case 'reasoning':
            reasoning += event.delta;
            emit({ type: 'reasoning_delta', turn, delta: event.delta });
            break;
          case 'tool-call':
            calls.push(event.call);
            break;
          case 'citation':
            emit({ type: 'citation', turn, url: event.url, ...(event.title ? { title: event.title } : {}) });
            break;
          case 'usage':
            state.usage = addUsage(state.usage, event.usage);
            emit({
              type: 'usage',
              turn,
              input_tokens: event.usage.inputTokens,
              output_tokens: event.usage.outputTokens,
            });
            break;
          case 'finish':
            break;
          case 'retry':
            // The whole request is sent again: what this attempt streamed would otherwise be doubled.
            text = '';
            reasoning = '';
            calls.length = 0;
            emit({
              type: 'retry',
              turn,
              attempt: event.attempt,
              max: event.max,
              delay_ms: event.delayMs,
              reason: event.reason,
            });
            break;
        }
      }
      conversation.push({
        role: 'assistant',
        content: text,
        ...(reasoning ? { reasoning } : {}),
        ...(calls.length ? { toolCalls: calls } : {}),
      });

      if (calls.length === 0) {
        state.answer = text.trim();
        emit({ type: 'turn_end', turn, tool_calls: 0 });
        return end('done');
      }
      // Every call gets a result, in order, so the next request is well-formed even if one fails.
      for (const call of calls) {
        const outcome = signal.aborted
          ? { content: 'Error: interrupted before this tool ran', isError: true }
          : await options.runTool(call, turn, signal);
        state.toolCalls++;
        conversation.push({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: outcome.content,
          ...(outcome.isError ? { isError: true } : {}),
        });
      }
      emit({ type: 'turn_end', turn, tool_calls: calls.length });
      signal.throwIfAborted();
    }
    return end('turn-limit');
  } catch (error) {
    if (timeout?.aborted && !options.signal.aborted)
      return end('failed', new RunTimeoutError(options.timeoutMs! / 1000));
    if (options.signal.aborted || isAbortError(error)) return end('interrupted');
    if (error instanceof KeelError) return end('failed', error);
    throw error;
  }
}
