// Fitting the conversation into its budget before each model call, cheapest step first: old tool outputs cut to a
// head and a tail; then, near the limit, compaction (a summary by the model); pruning old turns only when
// compaction is off or failed, or the compacted conversation is still over the whole budget.
import { isAbortError } from '../core/errors.js';
import { type AgentEvent, messageEvent } from '../core/events.js';
import type { Usage } from '../core/messages.js';
import { type Conversation, estimateTokens, type Pruning } from './conversation.js';

/** The share of the budget the messages after the system prompt must hold for a summary of them to be worth it. */
const MIN_COMPACTABLE = 0.05;

export interface AutoCompaction {
  /** Compact when the estimated next request passes this fraction of the budget (agent.conversation.compact_at). */
  threshold: number;
  /** Compacts the conversation (emitting `compaction`) and returns the summary call's usage. */
  compact(turn: number, signal: AbortSignal): Promise<Usage>;
}

export interface Fitted {
  /** Usage of a compaction's summary call. */
  usage?: Usage;
  /** Automatic compaction failed (a warning said so): the caller stops trying for this run. */
  compactionFailed?: boolean;
}

function reportPruning(emit: (event: AgentEvent) => void, turn: number, pruning: Pruning | undefined): void {
  if (!pruning) return;
  emit({
    type: 'conversation_pruned',
    turn,
    summary: pruning.summary,
    edits: pruning.edits.map((edit) => ({ ...edit, messages: edit.messages.map(messageEvent) })),
  });
}

export async function fitContext(
  conversation: Conversation,
  options: {
    turn: number;
    emit: (event: AgentEvent) => void;
    signal: AbortSignal;
    autoCompact?: AutoCompaction;
  },
): Promise<Fitted> {
  const { turn, emit, autoCompact } = options;
  reportPruning(emit, turn, conversation.trimOldOutputs());
  if (!autoCompact) {
    reportPruning(emit, turn, conversation.pruneIfNeeded());
    return {};
  }
  // Below the compaction threshold nothing more is needed: turns are not pruned while compaction is on.
  if (conversation.estimate <= conversation.maxTokens * autoCompact.threshold) return {};
  // When the system prompt and the tools fill the window, a summary of the little else would not help (and would
  // be asked for again every turn): only the whole budget's pruning applies.
  if (estimateTokens(conversation.messages.slice(1)) < conversation.maxTokens * MIN_COMPACTABLE) {
    reportPruning(emit, turn, conversation.pruneIfNeeded(1));
    return {};
  }
  try {
    const usage = await autoCompact.compact(turn, options.signal);
    reportPruning(emit, turn, conversation.pruneIfNeeded(1));
    return { usage };
  } catch (error) {
    if (options.signal.aborted || isAbortError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    emit({ type: 'warning', message: `${message}; pruning old turns instead` });
    reportPruning(emit, turn, conversation.pruneIfNeeded());
    return { compactionFailed: true };
  }
}
