// Keel's AgentEvent stream as ACP `session/update`s: message and thought chunks, tool calls and their results,
// the todo list as the plan. A subscriber, like the terminal renderer: the loop is the run's, never one of ours.
// Also the replay of a saved conversation for `session/load`.
import type { PlanEntry, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import { typedText } from '../agent/rewind.js';
import type { AgentEvent } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { TodoItem } from '../core/todos.js';
import { describeToolCall } from './tool-calls.js';

/** What the editor shows of one tool result at most; the model read the whole of it. */
const SHOWN_RESULT_CHARS = 4000;

const textBlock = (text: string) => ({ type: 'text' as const, text });

function resultContent(text: string): ToolCallContent[] {
  if (!text) return [];
  const shown = text.length > SHOWN_RESULT_CHARS ? `${text.slice(0, SHOWN_RESULT_CHARS)}\n…` : text;
  return [{ type: 'content', content: textBlock(shown) }];
}

export function planEntries(todos: readonly TodoItem[]): PlanEntry[] {
  return todos.map((todo) => ({
    content: todo.content,
    priority: 'medium',
    status: todo.status === 'done' ? 'completed' : todo.status,
  }));
}

/**
 * The updates one event makes (most make none: usage, message records, turn bounds). `root` is the session's
 * workspace, which relative paths in arguments are resolved against; `replaced`, for a write_file call, the text
 * it overwrites (null: a new file; see replaced-text.ts).
 */
export function eventUpdates(event: AgentEvent, root: string, replaced?: string | null): SessionUpdate[] {
  // A sub-agent's work (the task tool) shows as its tool calls, ids under the task's, never as the agent's own text.
  if (event.parent !== undefined) {
    if (event.type !== 'tool_call' && event.type !== 'tool_result') return [];
    return eventUpdates({ ...event, id: `${event.parent}/${event.id}`, parent: undefined }, root, replaced);
  }
  switch (event.type) {
    case 'text_delta':
      return [{ sessionUpdate: 'agent_message_chunk', content: textBlock(event.delta) }];
    case 'reasoning_delta':
      return [{ sessionUpdate: 'agent_thought_chunk', content: textBlock(event.delta) }];
    case 'tool_call':
      return [
        {
          sessionUpdate: 'tool_call',
          toolCallId: event.id,
          status: 'pending',
          ...describeToolCall(root, event.name, event.args, replaced),
        },
      ];
    case 'approval_answered':
      return event.approved
        ? [{ sessionUpdate: 'tool_call_update', toolCallId: event.id, status: 'in_progress' }]
        : [];
    case 'tool_result':
      return [
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: event.id,
          status: event.success ? 'completed' : 'failed',
        },
      ];
    case 'message':
      // The result as the model reads it (a command's output, not just its exit) follows the status.
      return event.role === 'tool'
        ? resultUpdate(event.tool_call_id, event.tool_name, event.content, event.is_error)
        : [];
    case 'todo':
      return [{ sessionUpdate: 'plan', entries: planEntries(event.todos) }];
    case 'error':
      return [
        {
          sessionUpdate: 'agent_message_chunk',
          content: textBlock(`\n\nerror: ${event.message}${event.hint ? ` (${event.hint})` : ''}\n`),
        },
      ];
    default:
      return [];
  }
}

const isEdit = (name: string) => name === 'write_file' || name === 'edit_file';

/** A result's content: a file change keeps its diff; any other call shows what it produced, or why it failed. */
function resultUpdate(id: string, name: string, content: string, isError?: boolean): SessionUpdate[] {
  if (isEdit(name) && !isError) return [];
  return [{ sessionUpdate: 'tool_call_update', toolCallId: id, content: resultContent(content) }];
}

/** The write_file calls of a saved session that made a new file, as their results recorded. */
export function newFileCalls(events: readonly AgentEvent[]): Set<string> {
  return new Set(
    events.flatMap((e) =>
      e.type === 'tool_result' && e.name === 'write_file' && e.metadata?.created === true ? [e.id] : [],
    ),
  );
}

/**
 * A saved conversation as the updates that show it again (`session/load`): the user's messages as typed (without
 * the files and Keel's notes appended to them, as /rewind lists them), no system prompt. A write_file call shows
 * its diff only when it made a new file (`newFiles`, see newFileCalls): what an overwrite replaced is not kept.
 */
export function replayUpdates(
  messages: readonly Message[],
  root: string,
  newFiles: ReadonlySet<string> = new Set(),
): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const names = new Map<string, string>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        updates.push({ sessionUpdate: 'user_message_chunk', content: textBlock(typedText(message.content)) });
        // Images whose bytes the session kept are shown again; the text names the others.
        for (const image of message.images ?? []) {
          if (image.data)
            updates.push({
              sessionUpdate: 'user_message_chunk',
              content: { type: 'image', mimeType: image.mediaType, data: image.data },
            });
        }
        break;
      case 'assistant':
        if (message.reasoning)
          updates.push({ sessionUpdate: 'agent_thought_chunk', content: textBlock(message.reasoning) });
        if (message.content)
          updates.push({ sessionUpdate: 'agent_message_chunk', content: textBlock(message.content) });
        for (const call of message.toolCalls ?? []) {
          names.set(call.id, call.name);
          updates.push({
            sessionUpdate: 'tool_call',
            toolCallId: call.id,
            status: 'pending',
            ...describeToolCall(
              root,
              call.name,
              parseInput(call.input),
              newFiles.has(call.id) ? null : undefined,
            ),
          });
        }
        break;
      case 'tool': {
        const name = names.get(message.toolCallId) ?? message.toolName;
        updates.push({
          sessionUpdate: 'tool_call_update',
          toolCallId: message.toolCallId,
          status: message.isError ? 'failed' : 'completed',
        });
        updates.push(...resultUpdate(message.toolCallId, name, message.content, message.isError));
        break;
      }
    }
  }
  return updates;
}

function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}
