// One model response, streamed: its text, reasoning and tool calls (oversized arguments refused by boundedCall), the
// deltas, citations, usage and retries emitted as they come; a retry discards what the failed attempt streamed.
import { type AgentEvent, usageEvent } from '../core/events.js';
import type { ToolCall, Usage } from '../core/messages.js';
import type { FinishReason, Model, ToolSpec } from '../core/model.js';
import type { Conversation } from './conversation.js';
import { boundedCall } from './oversized-call.js';

export interface ModelTurn {
  text: string;
  reasoning: string;
  calls: ToolCall[];
  finish: FinishReason;
}

/** What a turn's request needs of the loop's options. */
export interface TurnOptions {
  model: Model;
  emit: (event: AgentEvent) => void;
  /** A tool call's arguments over this many bytes are refused and kept only as a stub (boundedCall). */
  maxToolArgumentBytes?: number;
}

/** Streams one model response to `tools`, emitting its deltas; a retry discards what the failed attempt streamed. */
export async function streamTurn(
  conversation: Conversation,
  options: TurnOptions,
  tools: ToolSpec[],
  turn: number,
  signal: AbortSignal,
  addTurnUsage: (usage: Usage) => void,
): Promise<ModelTurn> {
  const { emit } = options;
  const result: ModelTurn = { text: '', reasoning: '', calls: [], finish: 'stop' };
  for await (const event of options.model.stream({
    messages: [...conversation.messages],
    tools,
    signal,
  })) {
    switch (event.type) {
      case 'text':
        result.text += event.delta;
        emit({ type: 'text_delta', turn, delta: event.delta });
        break;
      case 'reasoning':
        result.reasoning += event.delta;
        emit({ type: 'reasoning_delta', turn, delta: event.delta });
        break;
      case 'tool-call':
        result.calls.push(
          options.maxToolArgumentBytes === undefined
            ? event.call
            : boundedCall(event.call, options.maxToolArgumentBytes),
        );
        break;
      case 'citation':
        emit({ type: 'citation', turn, url: event.url, ...(event.title ? { title: event.title } : {}) });
        break;
      case 'usage':
        // The provider's count for exactly these messages makes the next estimate better than bytes alone.
        conversation.calibrate(event.usage.inputTokens);
        addTurnUsage(event.usage);
        emit(usageEvent(turn, event.usage, options.model));
        break;
      case 'finish':
        result.finish = event.reason;
        break;
      case 'warning':
        emit({ type: 'warning', message: event.message });
        break;
      case 'retry':
        // The whole request is sent again: what this attempt streamed would otherwise be doubled.
        result.text = '';
        result.reasoning = '';
        result.calls.length = 0;
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
  return result;
}
