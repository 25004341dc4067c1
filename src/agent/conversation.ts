// Conversation history with an approximate token count and xzatoma-style pruning: keep the system
// prompt, the first user message and the last N turns; replace the oldest tool exchanges with a summary.
import type { Message } from '../core/messages.js';

export interface ConversationLimits {
  /** Token budget of the whole conversation. */
  maxTokens: number;
  /** Turns (an assistant message and its tool results) always kept verbatim. */
  minRetainTurns: number;
  /** Prune when the estimate passes this fraction of maxTokens. */
  pruneThreshold: number;
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

  constructor(
    system: string,
    private readonly limits: ConversationLimits,
  ) {
    this.push({ role: 'system', content: system });
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
  }

  /** Prunes old tool exchanges when over budget; returns a note describing what went, or undefined. */
  pruneIfNeeded(): string | undefined {
    if (this.tokens <= this.limits.maxTokens * this.limits.pruneThreshold) return undefined;
    const firstUser = this.items.findIndex((m) => m.role === 'user');
    if (firstUser < 0) return undefined;
    // Turn boundaries: each assistant message starts a turn; never split a call from its results.
    const turnStarts: number[] = [];
    for (let i = firstUser + 1; i < this.items.length; i++) {
      if (this.items[i]?.role === 'assistant') turnStarts.push(i);
    }
    const keepFrom = turnStarts[turnStarts.length - this.limits.minRetainTurns];
    if (keepFrom === undefined || keepFrom <= firstUser + 1) return undefined;
    const pruned = this.items.slice(firstUser + 1, keepFrom);
    const names: string[] = [];
    for (const m of pruned) {
      if (m.role === 'assistant') for (const c of m.toolCalls ?? []) names.push(c.name);
    }
    const summary = `${pruned.length} messages with ${names.length} tool calls: ${[...new Set(names)].join(', ') || 'none'}`;
    const note: Message = { role: 'system', content: `[CONTEXT PRUNED: ${summary}]` };
    this.items.splice(firstUser + 1, pruned.length, note);
    this.tokens = estimateTokens(this.items);
    return summary;
  }
}
