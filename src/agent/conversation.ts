// Conversation history with an approximate token count and pruning in two steps: first replace the oldest
// turns (after the first user message, before the last N turns) with a user-role note, as xzatoma does; then,
// if that is not enough, shorten the largest older tool results. Every change is reported as edits, so the
// conversation can be rebuilt from events alone.
import type { PruneEdit } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { clip } from '../core/text.js';

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

  get tokenCount(): number {
    return this.tokens;
  }

  push(message: Message): void {
    this.items.push(message);
    this.tokens += estimateTokens([message]);
    if (this.listener) {
      this.reported = this.items.length;
      this.listener(message);
    }
  }

  /** Prunes when over the threshold; returns what it did, or undefined when nothing changed. */
  pruneIfNeeded(): Pruning | undefined {
    if (this.tokens <= this.limits.maxTokens * this.limits.pruneThreshold) return undefined;
    const edits: PruneEdit<Message>[] = [];
    const summaries: string[] = [];
    const dropped = this.dropOldTurns();
    if (dropped) {
      edits.push(dropped.edit);
      summaries.push(dropped.summary);
    }
    if (this.tokens > this.limits.maxTokens) {
      const shortened = this.shortenToolResults();
      edits.push(...shortened);
      if (shortened.length > 0) summaries.push(`${shortened.length} older tool results shortened`);
    }
    this.tokens = estimateTokens(this.items);
    if (this.listener) this.reported = this.items.length;
    return edits.length === 0 ? undefined : { summary: summaries.join('; '), edits };
  }

  /** Step one: the turns between the first user message and the last minRetainTurns become one note. */
  private dropOldTurns(): { edit: PruneEdit<Message>; summary: string } | undefined {
    const firstUser = this.items.findIndex((m) => m.role === 'user');
    if (firstUser < 0) return undefined;
    // Turn boundaries: each assistant message starts a turn; never split a call from its results.
    const turnStarts: number[] = [];
    for (let i = firstUser + 1; i < this.items.length; i++) {
      if (this.items[i]?.role === 'assistant') turnStarts.push(i);
    }
    const keepFrom = turnStarts[turnStarts.length - this.limits.minRetainTurns];
    if (keepFrom === undefined || keepFrom <= firstUser + 1) return undefined;
    const from = firstUser + 1;
    const pruned = this.items.slice(from, keepFrom);
    const names: string[] = [];
    for (const m of pruned) {
      if (m.role === 'assistant') for (const c of m.toolCalls ?? []) names.push(c.name);
    }
    const summary = `${pruned.length} messages with ${names.length} tool calls: ${[...new Set(names)].join(', ') || 'none'}`;
    // A user-role note: every wire format accepts it here (a system message mid-conversation breaks Gemini
    // and Anthropic), and the kept part still starts with an assistant turn after a user turn.
    // In a chat the removed part may hold the user's later requests: they stay, in the note.
    const requests = pruned.filter((m) => m.role === 'user').map((m) => `\n- ${clip(m.content, 500)}`);
    const note: Message = {
      role: 'user',
      content: `[Keel: to fit the context window, ${summary} were removed from this conversation. The task is unchanged; read files again if you need their content.${requests.length ? ` The user's messages among them:${requests.join('')}` : ''}]`,
    };
    this.items.splice(from, pruned.length, note);
    return { edit: { from, count: pruned.length, messages: [note] }, summary };
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
    let tokens = estimateTokens(this.items);
    for (const { m, index } of candidates) {
      if (tokens <= this.limits.maxTokens || m.role !== 'tool') break;
      const shortened: Message = {
        ...m,
        content: `${m.content.slice(0, ELIDED_KEEP_CHARS)}\n[Keel: the rest of this result (${m.content.length - ELIDED_KEEP_CHARS} characters) was removed to fit the context window; run the tool again if you need it.]`,
      };
      tokens -= estimateTokens([m]) - estimateTokens([shortened]);
      this.items[index] = shortened;
      edits.push({ from: index, count: 1, messages: [shortened] });
    }
    return edits;
  }
}
