// Conversation history: the messages in order, their token estimate (calibrated by the provider's counts), what
// pruning removed so far, and the listener that records each message. What to prune, trim or compact and when is
// decided in context-budget.ts, which changes the history only through `apply`; every change is an edit, so the
// conversation can be rebuilt from events alone.
import type { PruneEdit } from '../core/events.js';
import type { Message } from '../core/messages.js';

export interface ConversationLimits {
  /** Token budget of the whole conversation. */
  maxTokens: number;
  /** Turns (an assistant message and its tool results) always kept verbatim by the first step. */
  minRetainTurns: number;
  /** Prune when the estimate passes this fraction of maxTokens. */
  pruneThreshold: number;
}

/** What pruning has removed so far: a later note replaces an earlier one and tells the whole of it. */
export interface PrunedHistory {
  messages: number;
  toolCalls: number;
  toolNames: Set<string>;
  requests: string[];
  /** The note standing in the history where the removed messages were. */
  note?: Message;
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

export class Conversation {
  private readonly items: Message[] = [];
  private tokens = 0;
  private listener: ((message: Message) => void) | undefined;
  /** Messages [0, reported) have been given to a listener. */
  private reported = 0;
  /** Everything pruned so far; forgotten when the whole list is replaced. */
  readonly pruned: PrunedHistory = { messages: 0, toolCalls: 0, toolNames: new Set<string>(), requests: [] };
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

  /** The budget and pruning limits the conversation was made with (context-budget.ts reads them). */
  get budget(): ConversationLimits {
    return this.limits;
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

  /**
   * Drops messages [from, end) (/undo, /rewind) between runs. The edit covers only reported messages: one never
   * reported goes without having been recorded.
   */
  truncate(from: number): PruneEdit<Message> {
    const edit = { from, count: Math.max(0, this.reported - from), messages: [] };
    this.items.splice(from);
    this.tokens = estimateTokens(this.items);
    this.reported = Math.min(this.reported, this.items.length);
    this.calibration = undefined;
    return edit;
  }

  private forgetPruning(): void {
    this.pruned.note = undefined;
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

  /** Applies one pruning edit: messages [from, from + count) become `edit.messages`; the estimate follows. */
  apply(edit: PruneEdit<Message>): void {
    const removed = this.items.splice(edit.from, edit.count, ...edit.messages);
    this.tokens += estimateTokens(edit.messages) - estimateTokens(removed);
    // The edit itself is recorded: a listener has seen every message of the list as it now is.
    if (this.listener) this.reported = this.items.length;
  }

  /** Counts the whole list again: edit by edit, the estimate rounds once per edit. */
  recount(): void {
    this.tokens = estimateTokens(this.items);
    if (this.listener) this.reported = this.items.length;
  }
}
