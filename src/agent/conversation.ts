// Conversation history with a token estimate (calibrated by the provider's counts) and pruning by priority:
// first long tool outputs of old turns are cut to a head and a tail (context-priority.ts); then the oldest turns
// (after the first user message, before the last N turns) become a user-role note, as xzatoma does; then, if
// still over budget, older tool results keep only their beginning. Compaction (compaction.ts) replaces the whole
// list. Every change is reported as edits, so the conversation can be rebuilt from events alone.
import type { PruneEdit } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { clip } from '../core/text.js';
import { trimCandidates, trimmedOutput } from './context-priority.js';

export interface ConversationLimits {
  /** Token budget of the whole conversation. */
  maxTokens: number;
  /** Turns (an assistant message and its tool results) always kept verbatim by the first step. */
  minRetainTurns: number;
  /** Prune when the estimate passes this fraction of maxTokens. */
  pruneThreshold: number;
}

export interface Pruning {
  /** What went, in words, for the user. */
  summary: string;
  /** Applied in order to the message list as it was. */
  edits: PruneEdit<Message>[];
}

/** About four characters per token: cheap, provider-neutral, good enough for budgeting. */
export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += m.content.length + 8;
    if (m.role === 'assistant' && m.toolCalls) {
      for (const call of m.toolCalls) chars += call.name.length + call.input.length;
    }
  }
  return Math.ceil(chars / 4);
}

/** What an older tool result becomes when even the retained turns do not fit. */
const ELIDED_KEEP_CHARS = 200;

export class Conversation {
  private readonly items: Message[] = [];
  private tokens = 0;
  private listener: ((message: Message) => void) | undefined;
  /** Messages [0, reported) have been given to a listener. */
  private reported = 0;
  /** Everything pruned so far: a later note replaces an earlier one and tells the whole of it. */
  private readonly pruned = {
    messages: 0,
    toolCalls: 0,
    toolNames: new Set<string>(),
    requests: [] as string[],
  };
  private note: Message | undefined;
  /** The provider's input token count for the last request, and the byte estimate of that request's messages. */
  private calibration: { reported: number; estimated: number } | undefined;

  constructor(
    system: string,
    private readonly limits: ConversationLimits,
  ) {
    this.push({ role: 'system', content: system });
  }

  /**
   * Gives the listener every message not yet reported, then each one as it is appended, until the returned
   * function detaches it. The loop reports while a run goes on, so message events follow run_start.
   */
  report(listener: (message: Message) => void): () => void {
    this.listener = listener;
    for (; this.reported < this.items.length; this.reported++) listener(this.items[this.reported]!);
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  get messages(): readonly Message[] {
    return this.items;
  }

  /** The byte estimate of the messages (about four characters a token). */
  get tokenCount(): number {
    return this.tokens;
  }

  /** The token budget of the whole conversation. */
  get maxTokens(): number {
    return this.limits.maxTokens;
  }

  /**
   * The estimated size of the next request: the provider's count for the last one plus the estimate of what
   * changed since, never below the byte estimate (a provider may leave cached tokens out of its count).
   */
  get estimate(): number {
    if (!this.calibration) return this.tokens;
    return Math.max(this.tokens, this.calibration.reported + this.tokens - this.calibration.estimated);
  }

  /** The provider counted `inputTokens` for a request of the messages as they are now. */
  calibrate(inputTokens: number): void {
    if (inputTokens > 0) this.calibration = { reported: inputTokens, estimated: this.tokens };
  }

  /**
   * Takes over a saved conversation (a resumed session) in place of this one, system prompt included, so the
   * model reads it exactly as before. The messages count as reported: the session file already holds them.
   */
  restore(messages: readonly Message[]): void {
    this.items.splice(0, this.items.length, ...messages);
    this.tokens = estimateTokens(this.items);
    this.reported = this.items.length;
    this.forgetPruning();
  }

  /**
   * Replaces the whole conversation (compaction). The edit covers the messages already reported: any not yet
   * reported go without ever being recorded, and the new ones are recorded by the edit itself.
   */
  replaceAll(messages: readonly Message[]): PruneEdit<Message> {
    const edit = { from: 0, count: this.reported, messages: [...messages] };
    this.items.splice(0, this.items.length, ...messages);
    this.tokens = estimateTokens(this.items);
    this.reported = this.items.length;
    this.forgetPruning();
    return edit;
  }

  private forgetPruning(): void {
    this.note = undefined;
    this.calibration = undefined;
    this.pruned.messages = 0;
    this.pruned.toolCalls = 0;
    this.pruned.toolNames.clear();
    this.pruned.requests.length = 0;
  }

  push(message: Message): void {
    this.items.push(message);
    this.tokens += estimateTokens([message]);
    if (this.listener) {
      this.reported = this.items.length;
      this.listener(message);
    }
  }

  /** The last message while no listener has been given it: it may still be amended. */
  get unreportedLast(): Message | undefined {
    return this.reported < this.items.length ? this.items.at(-1) : undefined;
  }

  /** Replaces the last message's content (the loop's note on the user's message) before it is reported. */
  amendLast(content: string): void {
    const last = this.items.at(-1);
    if (!last || !this.unreportedLast) throw new Error('only an unreported message can be amended');
    this.tokens += estimateTokens([{ ...last, content }]) - estimateTokens([last]);
    this.items[this.items.length - 1] = { ...last, content };
  }

  /**
   * Over the prune threshold, shortens long tool outputs of old turns to a head and a tail, lowest priority first,
   * until under it: the cheapest step, taken before compaction or pruning whole turns.
   */
  trimOldOutputs(): Pruning | undefined {
    const edits = this.trim(this.limits.maxTokens * this.limits.pruneThreshold);
    return edits.length === 0 ? undefined : { summary: trimSummary(edits.length), edits };
  }

  /**
   * Prunes when over `threshold` (a fraction of the budget; default the prune threshold): old outputs trimmed,
   * then old turns pruned, then, over the whole budget, older results shortened. Returns what it did, or
   * undefined when nothing changed.
   */
  pruneIfNeeded(threshold = this.limits.pruneThreshold): Pruning | undefined {
    const limit = this.limits.maxTokens * threshold;
    if (this.estimate <= limit) return undefined;
    const edits: PruneEdit<Message>[] = this.trim(limit);
    const summaries: string[] = edits.length > 0 ? [trimSummary(edits.length)] : [];
    const dropped = this.estimate > limit ? this.dropOldTurns() : undefined;
    if (dropped) {
      edits.push(dropped.edit);
      summaries.push(dropped.summary);
    }
    if (this.estimate > this.limits.maxTokens) {
      const shortened = this.shortenToolResults();
      edits.push(...shortened);
      if (shortened.length > 0) summaries.push(`${shortened.length} older tool results shortened`);
    }
    this.tokens = estimateTokens(this.items);
    if (this.listener) this.reported = this.items.length;
    return edits.length === 0 ? undefined : { summary: summaries.join('; '), edits };
  }

  /** Old tool outputs cut to a head and a tail, in priority order, until the estimate is at most `limit`. */
  private trim(limit: number): PruneEdit<Message>[] {
    if (this.estimate <= limit) return [];
    const edits: PruneEdit<Message>[] = [];
    for (const index of trimCandidates(this.items, this.limits.minRetainTurns)) {
      if (this.estimate <= limit) break;
      const m = this.items[index]!;
      const trimmed: Message = { ...m, content: trimmedOutput(m.content) };
      this.tokens += estimateTokens([trimmed]) - estimateTokens([m]);
      this.items[index] = trimmed;
      edits.push({ from: index, count: 1, messages: [trimmed] });
    }
    if (this.listener) this.reported = this.items.length;
    return edits;
  }

  /** Step one: the turns between the first user message and the last minRetainTurns become one note. */
  private dropOldTurns(): { edit: PruneEdit<Message>; summary: string } | undefined {
    const firstUser = this.items.findIndex((m) => m.role === 'user');
    if (firstUser < 0) return undefined;
    const from = firstUser + 1;
    const starts = safeTurnStarts(this.items, from);
    const keepFrom = starts[starts.length - this.limits.minRetainTurns];
    if (keepFrom === undefined || keepFrom <= from) return undefined;
    const pruned = this.items.slice(from, keepFrom);
    const names: string[] = [];
    let messages = 0;
    for (const m of pruned) {
      // An earlier note is folded into this one rather than counted as a message.
      if (m === this.note) continue;
      messages += 1;
      if (m.role === 'assistant') for (const c of m.toolCalls ?? []) names.push(c.name);
      // In a chat the removed part may hold the user's later requests: they stay, in the note.
      if (m.role === 'user') this.pruned.requests.push(clip(m.content, 500));
    }
    const summary = `${messages} messages with ${names.length} tool calls: ${[...new Set(names)].join(', ') || 'none'}`;
    this.pruned.messages += messages;
    this.pruned.toolCalls += names.length;
    for (const name of names) this.pruned.toolNames.add(name);
    // A user-role note where the range was: every provider accepts it there (Gemini rejects a system message
    // mid-conversation, Anthropic takes none inside `messages`), and it sits between the goal and an assistant turn.
    this.note = { role: 'user', content: pruneNote(this.pruned) };
    this.items.splice(from, pruned.length, this.note);
    this.tokens = estimateTokens(this.items);
    return { edit: { from, count: pruned.length, messages: [this.note] }, summary };
  }

  /** Step two: tool results before the last turn, largest first, keep only their beginning. */
  private shortenToolResults(): PruneEdit<Message>[] {
    let lastTurn = this.items.length;
    for (let i = this.items.length - 1; i >= 0; i--) {
      if (this.items[i]?.role === 'assistant') {
        lastTurn = i;
        break;
      }
    }
    const candidates = this.items
      .map((m, index) => ({ m, index }))
      .filter(
        ({ m, index }) => index < lastTurn && m.role === 'tool' && m.content.length > ELIDED_KEEP_CHARS * 2,
      )
      .sort((a, b) => b.m.content.length - a.m.content.length);
    const edits: PruneEdit<Message>[] = [];
    for (const { m, index } of candidates) {
      if (this.estimate <= this.limits.maxTokens || m.role !== 'tool') break;
      const shortened: Message = {
        ...m,
        content: `${m.content.slice(0, ELIDED_KEEP_CHARS)}\n[Keel: the rest of this result (${m.content.length - ELIDED_KEEP_CHARS} characters) was removed to fit the context window; run the tool again if you need it.]`,
      };
      this.tokens -= estimateTokens([m]) - estimateTokens([shortened]);
      this.items[index] = shortened;
      edits.push({ from: index, count: 1, messages: [shortened] });
    }
    return edits;
  }
}

const trimSummary = (n: number) => `${n} old tool output${n === 1 ? '' : 's'} cut to head and tail`;

/** The note the model reads in place of pruned messages, worded as Keel's, not the user's. */
function pruneNote(pruned: {
  messages: number;
  toolCalls: number;
  toolNames: Set<string>;
  requests: string[];
}): string {
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
