// Conversation history with an approximate token count and xzatoma-style pruning: keep the system
// prompt, the first user message and the last N turns; replace the oldest tool exchanges with a user-role note.
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
  /** What pruning has removed so far, for the note that stands in for it. */
  private readonly pruned = { messages: 0, toolCalls: 0, toolNames: new Set<string>() };
  private note: Message | undefined;

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
    const starts = safeTurnStarts(this.items, firstUser + 1);
    const keepFrom = starts[starts.length - this.limits.minRetainTurns];
    if (keepFrom === undefined || keepFrom <= firstUser + 1) return undefined;
    const pruned = this.items.slice(firstUser + 1, keepFrom);
    const names: string[] = [];
    let messages = 0;
    for (const m of pruned) {
      // An earlier note is folded into this one rather than counted as a message.
      if (m === this.note) continue;
      messages += 1;
      if (m.role === 'assistant') for (const c of m.toolCalls ?? []) names.push(c.name);
    }
    const summary = `${messages} messages with ${names.length} tool calls: ${[...new Set(names)].join(', ') || 'none'}`;
    this.pruned.messages += messages;
    this.pruned.toolCalls += names.length;
    for (const name of names) this.pruned.toolNames.add(name);
    // A user-role note where the range was: every provider accepts it there (Gemini rejects a system message
    // mid-conversation, Anthropic takes none inside `messages`), and it sits between the goal and an assistant turn.
    this.note = { role: 'user', content: pruneNote(this.pruned) };
    this.items.splice(firstUser + 1, pruned.length, this.note);
    this.tokens = estimateTokens(this.items);
    return summary;
  }
}

/** The note the model reads in place of pruned messages, worded as Keel's, not the user's. */
function pruneNote(pruned: { messages: number; toolCalls: number; toolNames: Set<string> }): string {
  const names = pruned.toolNames.size > 0 ? ` (${[...pruned.toolNames].join(', ')})` : '';
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `[Keel: to fit the context window, ${count(pruned.messages, 'earlier message')} with ${count(pruned.toolCalls, 'tool call')}${names} ${pruned.messages === 1 ? 'was' : 'were'} removed. The task is unchanged; re-read files if you need their content.]`;
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
