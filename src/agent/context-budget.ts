// Fitting the conversation into its budget before each model call: every decision of what goes and when. Cheapest
// step first: old tool outputs cut to a head and a tail (context-priority.ts ranks them); then, near the limit,
// compaction (a summary by the model, compaction.ts); pruning old turns only when compaction is off or failed, or
// the compacted conversation is still over the whole budget: the oldest turns (after the first user message, before
// the last N turns) become a user-role note, as xzatoma does; then, if still over budget, older tool results keep
// only their beginning. The conversation (conversation.ts) keeps the history and applies the edits.
import { isAbortError } from '../core/errors.js';
import { type AgentEvent, messageEvent, type PruneEdit } from '../core/events.js';
import type { Message, Usage } from '../core/messages.js';
import { clip } from '../core/text.js';
import { CompactionError } from './compaction.js';
import { trimCandidates, trimmedOutput } from './context-priority.js';
import { type Conversation, estimateTokens, type PrunedHistory } from './conversation.js';

/** The share of the budget the messages after the system prompt must hold for a summary of them to be worth it. */
const MIN_COMPACTABLE = 0.05;

/**
 * Trimming, once the estimate passes its limit, goes this share of the budget further down: the next turns then fit
 * without touching earlier messages, so the prompt's prefix stays byte-stable (and in the provider's prompt cache)
 * between trims instead of changing every turn.
 */
const TRIM_STEP = 0.1;

/** What an older tool result becomes when even the retained turns do not fit. */
const ELIDED_KEEP_CHARS = 200;

export interface Pruning {
  /** What went, in words, for the user. */
  summary: string;
  /** Applied in order to the message list as it was. */
  edits: PruneEdit<Message>[];
}

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
  reportPruning(emit, turn, trimOldOutputs(conversation));
  if (!autoCompact) {
    reportPruning(emit, turn, pruneIfNeeded(conversation));
    return {};
  }
  // Below the compaction threshold nothing more is needed: turns are not pruned while compaction is on.
  if (conversation.estimate <= conversation.maxTokens * autoCompact.threshold) return {};
  // When the system prompt and the tools fill the window, a summary of the little else would not help (and would
  // be asked for again every turn): only the whole budget's pruning applies.
  if (estimateTokens(conversation.messages.slice(1)) < conversation.maxTokens * MIN_COMPACTABLE) {
    reportPruning(emit, turn, pruneIfNeeded(conversation, 1));
    return {};
  }
  try {
    const usage = await autoCompact.compact(turn, options.signal);
    reportPruning(emit, turn, pruneIfNeeded(conversation, 1));
    return { usage };
  } catch (error) {
    if (options.signal.aborted || isAbortError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    emit({ type: 'warning', message: `${message}; pruning old turns instead` });
    reportPruning(emit, turn, pruneIfNeeded(conversation));
    const usage = error instanceof CompactionError ? error.usage : undefined;
    return { compactionFailed: true, ...(usage ? { usage } : {}) };
  }
}

/**
 * Over the prune threshold, shortens long tool outputs of old turns to a head and a tail, lowest priority first,
 * until under it: the cheapest step, taken before compaction or pruning whole turns.
 */
export function trimOldOutputs(conversation: Conversation): Pruning | undefined {
  const { maxTokens, pruneThreshold } = conversation.budget;
  const edits = trim(conversation, maxTokens * pruneThreshold);
  return edits.length === 0 ? undefined : { summary: trimSummary(edits.length), edits };
}

/**
 * Prunes when over `threshold` (a fraction of the budget; default the prune threshold): old outputs trimmed,
 * then old turns pruned, then, over the whole budget, older results shortened. Returns what it did, or
 * undefined when nothing changed.
 */
export function pruneIfNeeded(
  conversation: Conversation,
  threshold = conversation.budget.pruneThreshold,
): Pruning | undefined {
  const limit = conversation.maxTokens * threshold;
  if (conversation.estimate <= limit) return undefined;
  const edits: PruneEdit<Message>[] = trim(conversation, limit);
  const summaries: string[] = edits.length > 0 ? [trimSummary(edits.length)] : [];
  const dropped = conversation.estimate > limit ? dropOldTurns(conversation) : undefined;
  if (dropped) {
    edits.push(dropped.edit);
    summaries.push(dropped.summary);
  }
  if (conversation.estimate > conversation.maxTokens) {
    const shortened = shortenToolResults(conversation);
    edits.push(...shortened);
    if (shortened.length > 0) summaries.push(`${shortened.length} older tool results shortened`);
  }
  conversation.recount();
  return edits.length === 0 ? undefined : { summary: summaries.join('; '), edits };
}

/**
 * Over `limit`, old tool outputs cut to a head and a tail, in priority order, until the estimate is a step below
 * it (TRIM_STEP), or no output is left to cut.
 */
function trim(conversation: Conversation, limit: number): PruneEdit<Message>[] {
  if (conversation.estimate <= limit) return [];
  const target = Math.max(limit - conversation.maxTokens * TRIM_STEP, limit / 2);
  const edits: PruneEdit<Message>[] = [];
  for (const index of trimCandidates(conversation.messages, conversation.budget.minRetainTurns)) {
    if (conversation.estimate <= target) break;
    const m = conversation.messages[index]!;
    const edit = { from: index, count: 1, messages: [{ ...m, content: trimmedOutput(m.content) }] };
    conversation.apply(edit);
    edits.push(edit);
  }
  return edits;
}

/** Step one: the turns between the first user message and the last minRetainTurns become one note. */
function dropOldTurns(conversation: Conversation): { edit: PruneEdit<Message>; summary: string } | undefined {
  const items = conversation.messages;
  const firstUser = items.findIndex((m) => m.role === 'user');
  if (firstUser < 0) return undefined;
  const from = firstUser + 1;
  const starts = safeTurnStarts(items, from);
  const keepFrom = starts[starts.length - conversation.budget.minRetainTurns];
  if (keepFrom === undefined || keepFrom <= from) return undefined;
  const pruned = items.slice(from, keepFrom);
  const history = conversation.pruned;
  const names: string[] = [];
  let messages = 0;
  for (const m of pruned) {
    // An earlier note is folded into this one rather than counted as a message.
    if (m === history.note) continue;
    messages += 1;
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) names.push(c.name);
    // In a chat the removed part may hold the user's later requests: they stay, in the note.
    if (m.role === 'user') history.requests.push(clip(m.content, 500));
  }
  const summary = `${messages} messages with ${names.length} tool calls: ${[...new Set(names)].join(', ') || 'none'}`;
  history.messages += messages;
  history.toolCalls += names.length;
  for (const name of names) history.toolNames.add(name);
  // A user-role note where the range was: every provider accepts it there (Gemini rejects a system message
  // mid-conversation, Anthropic takes none inside `messages`), and it sits between the goal and an assistant turn.
  history.note = { role: 'user', content: pruneNote(history) };
  const edit = { from, count: pruned.length, messages: [history.note] };
  conversation.apply(edit);
  conversation.recount();
  return { edit, summary };
}

/** Step two: tool results before the last turn, largest first, keep only their beginning. */
function shortenToolResults(conversation: Conversation): PruneEdit<Message>[] {
  const items = conversation.messages;
  let lastTurn = items.length;
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i]?.role === 'assistant') {
      lastTurn = i;
      break;
    }
  }
  const candidates = items
    .map((m, index) => ({ m, index }))
    .filter(
      ({ m, index }) => index < lastTurn && m.role === 'tool' && m.content.length > ELIDED_KEEP_CHARS * 2,
    )
    .sort((a, b) => b.m.content.length - a.m.content.length);
  const edits: PruneEdit<Message>[] = [];
  for (const { m, index } of candidates) {
    if (conversation.estimate <= conversation.maxTokens || m.role !== 'tool') break;
    const shortened: Message = {
      ...m,
      content: `${m.content.slice(0, ELIDED_KEEP_CHARS)}\n[Keel: the rest of this result (${m.content.length - ELIDED_KEEP_CHARS} characters) was removed to fit the context window; run the tool again if you need it.]`,
    };
    const edit = { from: index, count: 1, messages: [shortened] };
    conversation.apply(edit);
    edits.push(edit);
  }
  return edits;
}

const trimSummary = (n: number) => `${n} old tool output${n === 1 ? '' : 's'} cut to head and tail`;

/** The note the model reads in place of pruned messages, worded as Keel's, not the user's. */
function pruneNote(pruned: PrunedHistory): string {
  const names = pruned.toolNames.size > 0 ? ` (${[...pruned.toolNames].join(', ')})` : '';
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const requests = pruned.requests.length
    ? ` The user's messages among them:${pruned.requests.map((r) => `\n- ${r}`).join('')}`
    : '';
  return `[Keel: to fit the context window, ${count(pruned.messages, 'earlier message')} with ${count(pruned.toolCalls, 'tool call')}${names} ${pruned.messages === 1 ? 'was' : 'were'} removed. The task is unchanged; re-read files if you need their content.${requests}]`;
}

/**
 * Indexes (from `from`) of assistant messages where the history can be cut: no tool result at or after the index
 * answers a call made before it, so pruning up to there never separates a tool call from its results.
 */
function safeTurnStarts(items: readonly Message[], from: number): number[] {
  const owner = new Map<string, number>();
  items.forEach((m, i) => {
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) owner.set(c.id, i);
  });
  // earliest[i]: the earliest assistant index answered by a tool result at index >= i.
  const earliest: number[] = new Array(items.length + 1).fill(Number.POSITIVE_INFINITY);
  for (let i = items.length - 1; i >= 0; i--) {
    const m = items[i]!;
    const at = m.role === 'tool' ? (owner.get(m.toolCallId) ?? i) : Number.POSITIVE_INFINITY;
    earliest[i] = Math.min(earliest[i + 1]!, at);
  }
  const starts: number[] = [];
  for (let i = from; i < items.length; i++) {
    if (items[i]?.role === 'assistant' && earliest[i]! >= i) starts.push(i);
  }
  return starts;
}
