// Compaction: the model summarises the conversation so far (one streamed call without tools), and the conversation
// is replaced by the system prompt built again (context files read again from disk), the summary, the todo list
// and, when a run compacts, the request it is working on. The `compaction` event carries the edits, so a resumed
// session continues from exactly the compacted list.
import { isAbortError, KeelError } from '../core/errors.js';
import { type AgentEvent, messageEvent, usageEvent } from '../core/events.js';
import { addUsage, emptyUsage, type Message, type Usage } from '../core/messages.js';
import type { Model } from '../core/model.js';
import type { TodoItem } from '../core/todos.js';
import { compactionRequest } from './compaction-prompt.js';
import { type Conversation, estimateTokens } from './conversation.js';

/** The summary message opens with this: the model, the session list and the user know it is not the user's. */
export const SUMMARY_MARKER = '[Keel: summary of earlier work.';

export interface CompactorOptions {
  model: Model;
  conversation: Conversation;
  /** The system prompt as it would be built now: context files are read again, so edits to them count. */
  systemPrompt: () => Promise<string>;
  /** The current todo list, sent again after compaction. */
  todos?: () => TodoItem[];
  emit: (event: AgentEvent) => void;
}

export interface CompactRequest {
  trigger: 'manual' | 'auto';
  /** What the summary should keep above all (`/compact <focus>`). */
  focus?: string;
  /** The turn the events carry (0 between runs). */
  turn: number;
  signal: AbortSignal;
}

export interface Compaction {
  summary: string;
  tokensBefore: number;
  tokensAfter: number;
  /** What the summary call used: counted in the run's usage. */
  usage: Usage;
}

/**
 * The model gave no summary, the call failed, or the summary would not make the conversation smaller: the
 * conversation is left as it was. `usage`: what a summary call that completed spent.
 */
export class CompactionError extends KeelError {
  constructor(
    message: string,
    cause?: unknown,
    readonly usage?: Usage,
  ) {
    super('compaction_failed', 1, message, {
      hint: 'try /compact again, or go on: Keel prunes old turns when the context fills up',
      cause,
    });
  }
}

/** Asks the model for the summary, streamed; usage events are emitted as they come. */
async function summarise(
  options: CompactorOptions,
  request: CompactRequest,
): Promise<{ text: string; usage: Usage }> {
  let text = '';
  let usage = emptyUsage();
  const messages = compactionRequest(options.conversation.messages, {
    focus: request.focus,
    maxTokens: options.conversation.maxTokens,
  });
  for await (const event of options.model.stream({ messages, tools: [], signal: request.signal })) {
    switch (event.type) {
      case 'text':
        text += event.delta;
        break;
      case 'retry':
        // The request is sent again: what this attempt streamed is void.
        text = '';
        break;
      case 'usage':
        usage = addUsage(usage, event.usage);
        options.emit(usageEvent(request.turn, event.usage, options.model));
        break;
    }
  }
  return { text: text.trim(), usage };
}

/**
 * Compacts the conversation in place and emits the `compaction` event; undefined when there is nothing to compact
 * (no message of the user's yet: no model call is made). Throws CompactionError when it cannot.
 */
export async function compact(
  options: CompactorOptions,
  request: CompactRequest,
): Promise<Compaction | undefined> {
  const { conversation } = options;
  if (!conversation.messages.some((m) => m.role === 'user')) return undefined;
  const tokensBefore = conversation.estimate;
  let result: { text: string; usage: Usage };
  try {
    result = await summarise(options, request);
  } catch (error) {
    if (request.signal.aborted || isAbortError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new CompactionError(`compaction failed: ${message}`, error);
  }
  if (!result.text)
    throw new CompactionError('compaction failed: the model returned no summary', undefined, result.usage);
  const pending = request.trigger === 'auto' ? openRequest(conversation.messages) : undefined;
  const compacted: Message[] = [
    { role: 'system', content: await options.systemPrompt() },
    { role: 'user', content: summaryMessage(result.text, options.todos?.() ?? []) },
    ...(pending === undefined ? [] : [{ role: 'user' as const, content: pending }]),
  ];
  // A summary kept beside a request as large as everything else (a huge piped goal) saves nothing.
  const projected = estimateTokens(compacted);
  if (request.trigger === 'auto' && projected >= conversation.tokenCount) {
    const kept = estimateTokens(compacted.slice(2));
    const why = kept * 2 > projected ? ': the request being worked on is most of it' : '';
    throw new CompactionError(
      `compaction would not make the conversation smaller (${tokensBefore} → ${projected} tokens)${why}`,
      undefined,
      result.usage,
    );
  }
  const edit = conversation.replaceAll(compacted);
  const tokensAfter = conversation.estimate;
  options.emit({
    type: 'compaction',
    turn: request.turn,
    trigger: request.trigger,
    tokens_before: tokensBefore,
    tokens_after: tokensAfter,
    summary: result.text,
    edits: [{ ...edit, messages: edit.messages.map(messageEvent) }],
  });
  return { summary: result.text, tokensBefore, tokensAfter, usage: result.usage };
}

/**
 * The request a run is working on when it compacts: the last user request, unless a final answer came after it.
 * Only a run compacting (auto) has one. Between turns (/compact) the user's next message is the next request: an
 * interrupted or unfinished one is in the summary, and sent again after it would be answered as a new request
 * (and be followed by the next message, two user messages in a row).
 */
function openRequest(messages: readonly Message[]): string | undefined {
  const last = messages.at(-1);
  return last?.role === 'assistant' && !last.toolCalls?.length ? undefined : lastRequest(messages);
}

/** The user's last own message (not one of Keel's notes). */
function lastRequest(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && !m.content.startsWith('[Keel:')) return m.content;
  }
  return undefined;
}

const TODO_MARKS = { done: '[x]', in_progress: '[>]', pending: '[ ]' } as const;

/** The todo list as text, one item a line: `- [x] 1: content`. */
export function todoListText(todos: readonly TodoItem[]): string {
  return todos.map((t) => `- ${TODO_MARKS[t.status]} ${t.id}: ${t.content}`).join('\n');
}

/** The user-role message the compacted conversation continues from. */
export function summaryMessage(summary: string, todos: readonly TodoItem[]): string {
  const parts = [
    `${SUMMARY_MARKER} The conversation so far was replaced by this summary of it, to fit the context window. Continue from it; re-read files before changing them.]`,
    summary,
  ];
  if (todos.length > 0)
    parts.push(`Current todo list ([x] done, [>] in progress, [ ] pending):\n${todoListText(todos)}`);
  return parts.join('\n\n');
}
