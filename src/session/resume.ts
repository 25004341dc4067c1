// Picking the session to resume (--continue: the workspace's latest; --resume <id>: an id or its prefix) and the
// messages it continues from: the saved conversation, with a result for any tool call a crash left unanswered,
// and the todo list as it last stood.
import { readdir } from 'node:fs/promises';
import type { Message } from '../core/messages.js';
import type { TodoItem } from '../core/todos.js';
import { findSession, SessionError, type SessionRecord, sessionMessages } from './session-file.js';
import { listSessions } from './session-sidecar.js';

export interface ResumeRequest {
  continue?: boolean;
  resume?: string;
  /** `resume` is a whole id a program holds (an editor's session id), never a prefix of one. */
  exact?: boolean;
}

/**
 * Whether `request` names a session `dir` holds, with sessionToResume's errors, reading no session: the CLI asks
 * before it needs a provider, so a mistyped id is reported as that, not as a provider that is missing.
 */
export async function checkResumable(dir: string, request: ResumeRequest): Promise<void> {
  if (request.resume !== undefined) {
    await findSession(dir, request.resume, request.exact);
    return;
  }
  if (!request.continue) return;
  const names = await readdir(dir).catch(() => [] as string[]);
  if (!names.some((name) => name.endsWith('.jsonl'))) throw noSessionToContinue();
}

const noSessionToContinue = () =>
  new SessionError('no session to continue in this workspace', 'start one with keel chat', true);

/** The id to resume in `dir`, or undefined for a new session. */
export async function sessionToResume(dir: string, request: ResumeRequest): Promise<string | undefined> {
  if (request.resume !== undefined) return findSession(dir, request.resume, request.exact);
  if (!request.continue) return undefined;
  const latest = (await listSessions(dir))[0];
  if (!latest) throw noSessionToContinue();
  return latest.id;
}

/** What a crash left: calls without results. Every provider requires one per call before the next message. */
export const INTERRUPTED_RESULT = 'Error: interrupted: Keel stopped before this tool call finished';

/**
 * The saved conversation and, separately, the results to append for calls left unanswered (they are new
 * messages: the session file records them when they are sent).
 */
export function resumedConversation(record: SessionRecord): { messages: Message[]; repairs: Message[] } {
  const messages = sessionMessages(record);
  const answered = new Set<string>();
  for (const m of messages) if (m.role === 'tool') answered.add(m.toolCallId);
  const repairs: Message[] = [];
  const last = messages.findLastIndex((m) => m.role === 'assistant');
  const calls = last < 0 ? [] : ((messages[last] as Extract<Message, { role: 'assistant' }>).toolCalls ?? []);
  for (const call of calls) {
    if (answered.has(call.id)) continue;
    repairs.push({
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: INTERRUPTED_RESULT,
      isError: true,
    });
  }
  return { messages, repairs };
}

/** The todo list as the session last saved it (its last `todo` event), or an empty one. */
export function resumedTodos(record: SessionRecord): TodoItem[] {
  const last = record.events.findLast((e) => e.type === 'todo');
  return last?.type === 'todo' && Array.isArray(last.todos) ? last.todos : [];
}
