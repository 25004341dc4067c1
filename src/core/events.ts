// The one typed event stream: everything the agent does is an event; renderers, JSON output,
// session store and audit subscribe. Each event serialises to one JSON line (field names in snake_case,
// as `--output stream-json` prints them).
import { usageCost } from './cost.js';
import type { ImagePart, Message, Usage } from './messages.js';
import type { Model } from './model.js';
import type { TodoItem } from './todos.js';

export type RunEndReason = 'done' | 'turn-limit' | 'interrupted' | 'failed';

/** A tool call as it appears in a message event (snake_case, like every event field). */
export interface ToolCallRecord {
  id: string;
  name: string;
  /** The argument text exactly as the model sent it. */
  input: string;
  provider_metadata?: Record<string, Record<string, unknown>>;
}

/** An image as a message event carries it (snake_case). Outputs and the session store keep no `data`. */
export interface ImageRecord {
  type: 'image';
  media_type: string;
  data?: string;
  path?: string;
  sha256?: string;
  bytes?: number;
  name?: string;
}

/** One pruning step: messages [from, from + count) are replaced by `messages`. */
export interface PruneEdit<M> {
  from: number;
  count: number;
  messages: M[];
}

/**
 * One message appended to the conversation, exactly as the model will read it. A session store rebuilds the
 * message list from these alone (plus `conversation_pruned`): see `messageFromEvent`.
 */
export type MessageEvent =
  | { type: 'message'; role: 'system'; content: string }
  | { type: 'message'; role: 'user'; content: string; images?: ImageRecord[] }
  | {
      type: 'message';
      role: 'assistant';
      content: string;
      reasoning?: string;
      tool_calls?: ToolCallRecord[];
    }
  | {
      type: 'message';
      role: 'tool';
      tool_call_id: string;
      tool_name: string;
      content: string;
      is_error?: boolean;
      images?: ImageRecord[];
    };

/**
 * Every event of the run, each optionally tagged with `parent`: set on a sub-agent's events (the `task` tool), the
 * id of the task call that started it — `T1` for a sub-agent of the run, `T1/T2` for one that sub-agent started.
 * A reader nests them under that call; the run's own conversation never includes them.
 */
export type AgentEvent = RunEvent & { parent?: string };

type RunEvent =
  | { type: 'run_start'; provider: string; model: string; workspace: string }
  | MessageEvent
  /** The conversation was cut to fit the context window: each edit replaced messages [from, from + count). */
  | { type: 'conversation_pruned'; turn: number; summary: string; edits: PruneEdit<MessageEvent>[] }
  | { type: 'turn_start'; turn: number }
  | { type: 'text_delta'; turn: number; delta: string }
  | { type: 'reasoning_delta'; turn: number; delta: string }
  | { type: 'tool_call'; turn: number; id: string; name: string; args: unknown }
  | { type: 'citation'; turn: number; url: string; title?: string }
  | {
      type: 'approval_requested';
      id: string;
      name: string;
      reason: string;
      /** The command, or the diff of a file change, the user is asked about. */
      command?: string;
      diff?: string;
    }
  | {
      type: 'approval_answered';
      id: string;
      /** True for once and always. */
      approved: boolean;
      decision: 'once' | 'always' | 'keep' | 'edit' | 'deny';
      /** What the user told the model when declining. */
      feedback?: string;
      /** The call's arguments as the user rewrote them; they go to the policy again before anything runs. */
      edited?: Record<string, unknown>;
    }
  | {
      type: 'tool_result';
      turn: number;
      id: string;
      name: string;
      success: boolean;
      /** What the user sees (a short summary, a diff); the model reads the full output. */
      display: string;
      error?: string;
      truncated: boolean;
      metadata: Record<string, string | number | boolean>;
      duration_ms: number;
      /** Absolute paths a file tool created, changed or deleted (a command's changes cannot be known). */
      changed?: string[];
    }
  /**
   * One model call's tokens; input_tokens counts cached ones too (cache_read_tokens, cache_write_tokens of it).
   * Turn 0: a tool's own request (web_fetch condensing a page), no turn's. The provider and model that served it,
   * and cost_usd at that model's price when Keel knows it (usageEvent): sessions add these up across model changes.
   */
  | ({ type: 'usage'; turn: number; provider: string; model: string; cost_usd?: number } & UsageCounts)
  /** What the user's message asks for, from a local classifier (no model call); it steers the system prompt. */
  | {
      type: 'intent';
      intent: 'explain' | 'implement' | 'refactor' | 'debug' | 'test' | 'document' | 'analyze';
      scope: 'single_file' | 'multi_file' | 'whole_project';
      /** Paths and symbols named in the message. */
      entities: string[];
      confidence: number;
    }
  /** The todo list as it stands now, whole (todo_write, or a plan file's progress). */
  | { type: 'todo'; todos: TodoItem[] }
  /**
   * The conversation was replaced by a summary the model wrote (/compact or automatic near the context limit);
   * the edits, like conversation_pruned's, turn the old message list into the new one.
   */
  | {
      type: 'compaction';
      turn: number;
      trigger: 'manual' | 'auto';
      tokens_before: number;
      tokens_after: number;
      summary: string;
      edits: PruneEdit<MessageEvent>[];
    }
  /**
   * The user went back: /undo took the last turn out, /rewind went back to before one of their messages, or the
   * conversation was carried over to another provider (`carry`: ids and provider data converted). The edits turn
   * the old message list into the new one, so a resumed session does not bring back what was undone.
   */
  | { type: 'conversation_edited'; reason: 'undo' | 'rewind' | 'carry'; edits: PruneEdit<MessageEvent>[] }
  /** ask_user: the model's question to the user, with the options to choose from. */
  | { type: 'user_question'; id: string; question: string; options?: string[] }
  /** The user's answer to a user_question. */
  | { type: 'user_answer'; id: string; answer: string }
  /** The model call failed and is sent again after delay_ms; the turn's partial text so far is void. */
  | { type: 'retry'; turn: number; attempt: number; max: number; delay_ms: number; reason: string }
  | { type: 'warning'; message: string }
  /** What Keel is waiting for (MCP servers starting), shown once while it waits; no part of any result. */
  | { type: 'status'; message: string }
  | { type: 'error'; code: string; message: string; hint?: string }
  /** `continued`: the answer was cut off by the output limit and the next turn asks for the rest. */
  | { type: 'turn_end'; turn: number; tool_calls: number; continued?: boolean }
  | {
      type: 'run_end';
      reason: RunEndReason;
      answer: string;
      turns: number;
      tool_calls: number;
      /** cost_usd: at the model's list price, when Keel knows it. */
      usage: UsageCounts & { cost_usd?: number };
    };

/** A consumer of events. A durable one (the session store) may return a promise: the write in flight. */
export type EventSink = (event: AgentEvent) => void | Promise<void>;

/** What producers hold: emit never waits; flush waits until every durable consumer has written what it got. */
export interface EventStream {
  emit(event: AgentEvent): void;
  flush(): Promise<void>;
}

/** Fans each event out to the sinks, tracking the writes of asynchronous ones for `flush`. */
export function createEventStream(...sinks: EventSink[]): EventStream {
  const pending = new Set<Promise<void>>();
  let failure: unknown;
  return {
    emit(event) {
      for (const sink of sinks) {
        const written = sink(event);
        if (!written) continue;
        const tracked: Promise<void> = written.then(
          () => void pending.delete(tracked),
          (error: unknown) => {
            pending.delete(tracked);
            failure ??= error;
          },
        );
        pending.add(tracked);
      }
    },
    async flush() {
      while (pending.size > 0) await Promise.all(pending);
      if (failure !== undefined) {
        const error = failure;
        failure = undefined;
        throw error;
      }
    },
  };
}

/** Fans one event out to several consumers (synchronous ones; see createEventStream for durable ones). */
export function fanOut(...sinks: EventSink[]): EventSink {
  return (event) => {
    for (const sink of sinks) void sink(event);
  };
}

/** Token counts as events carry them; the cache fields are there only when the provider reported cached tokens. */
export interface UsageCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
}

export function usageCounts(usage: Usage): UsageCounts {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    ...(usage.cacheReadTokens ? { cache_read_tokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
  };
}

/** The usage event of one request `model` served, priced at the model's list price when it is known. */
export function usageEvent(turn: number, usage: Usage, model: Model): Extract<AgentEvent, { type: 'usage' }> {
  const cost = usageCost(usage, model.capabilities?.price);
  return {
    type: 'usage',
    turn,
    provider: model.provider,
    model: model.modelId,
    ...usageCounts(usage),
    ...(cost === undefined ? {} : { cost_usd: cost }),
  };
}

/** The event that records `message` being appended to the conversation. */
export function messageEvent(message: Message): MessageEvent {
  switch (message.role) {
    case 'system':
      return { type: 'message', role: message.role, content: message.content };
    case 'user':
      return {
        type: 'message',
        role: 'user',
        content: message.content,
        ...(message.images?.length ? { images: message.images.map(imageRecord) } : {}),
      };
    case 'assistant':
      return {
        type: 'message',
        role: 'assistant',
        content: message.content,
        ...(message.reasoning ? { reasoning: message.reasoning } : {}),
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                name: call.name,
                input: call.input,
                ...(call.providerMetadata ? { provider_metadata: call.providerMetadata } : {}),
              })),
            }
          : {}),
      };
    case 'tool':
      return {
        type: 'message',
        role: 'tool',
        tool_call_id: message.toolCallId,
        tool_name: message.toolName,
        content: message.content,
        ...(message.isError ? { is_error: true } : {}),
        ...(message.images?.length ? { images: message.images.map(imageRecord) } : {}),
      };
  }
}

/** The message a `message` event recorded: the inverse of messageEvent. */
export function messageFromEvent(event: MessageEvent): Message {
  switch (event.role) {
    case 'system':
      return { role: event.role, content: event.content };
    case 'user':
      return {
        role: 'user',
        content: event.content,
        ...(event.images?.length ? { images: event.images.map(imagePart) } : {}),
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: event.content,
        ...(event.reasoning ? { reasoning: event.reasoning } : {}),
        ...(event.tool_calls?.length
          ? {
              toolCalls: event.tool_calls.map((call) => ({
                id: call.id,
                name: call.name,
                input: call.input,
                ...(call.provider_metadata ? { providerMetadata: call.provider_metadata } : {}),
              })),
            }
          : {}),
      };
    case 'tool':
      return {
        role: 'tool',
        toolCallId: event.tool_call_id,
        toolName: event.tool_name,
        content: event.content,
        ...(event.is_error ? { isError: true } : {}),
        ...(event.images?.length ? { images: event.images.map(imagePart) } : {}),
      };
  }
}

export function imageRecord(image: ImagePart): ImageRecord {
  const { type, mediaType, ...rest } = image;
  return { type, media_type: mediaType, ...rest };
}

export function imagePart(record: ImageRecord): ImagePart {
  const { type, media_type, ...rest } = record;
  return { type, mediaType: media_type, ...rest };
}

/** The event with no image bytes in it (JSON outputs): images keep their type, hash, size and name. */
export function withoutImageData(event: AgentEvent): AgentEvent {
  const strip = (m: MessageEvent): MessageEvent =>
    (m.role === 'user' || m.role === 'tool') && m.images?.some((i) => i.data !== undefined)
      ? { ...m, images: m.images.map(({ data: _, ...image }) => image) }
      : m;
  if (event.type === 'message') return strip(event);
  if (
    event.type === 'conversation_pruned' ||
    event.type === 'compaction' ||
    event.type === 'conversation_edited'
  )
    return { ...event, edits: event.edits.map((edit) => ({ ...edit, messages: edit.messages.map(strip) })) };
  return event;
}

/** Rebuilds the conversation from a run's events: what a session store does on resume. */
export function replayConversation(events: Iterable<AgentEvent>): Message[] {
  const messages: Message[] = [];
  for (const event of events) replayEvent(messages, event, messageFromEvent);
  return messages;
}

/**
 * One event's change to a conversation being rebuilt, each message as `take` makes it of its event: the message
 * itself (`edit` undefined) or message `index` of the event's edit `edit`. What replayConversation does event by
 * event, for a reader that keeps where each message is rather than the message (a session shown from its file).
 */
export function replayEvent<T>(
  messages: T[],
  event: AgentEvent,
  take: (message: MessageEvent, edit?: number, index?: number) => T,
): void {
  // A sub-agent's conversation is its own: the parent read only the task's result.
  if (event.parent !== undefined) return;
  if (event.type === 'message') messages.push(take(event));
  else if (
    event.type === 'conversation_pruned' ||
    event.type === 'compaction' ||
    event.type === 'conversation_edited'
  ) {
    event.edits.forEach((edit, e) => {
      messages.splice(edit.from, edit.count, ...edit.messages.map((m, index) => take(m, e, index)));
    });
  }
}
