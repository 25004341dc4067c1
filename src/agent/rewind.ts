// Going back in the conversation: which messages are the user's turns (not Keel's own notes in the user's role),
// the text they typed, and the edit that takes the conversation back to before one of them (/undo, /rewind).
import { type AgentEvent, messageEvent } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { Conversation } from './conversation.js';

export interface UserTurn {
  /** Where the user's message stands in the conversation. */
  index: number;
  /** What the user typed: without the files attached to it and Keel's notes appended to it. */
  text: string;
}

/** Notes Keel writes in the user's role (pruning, "continue", a compaction's summary) start so. */
const KEEL_NOTE = '[Keel:';

/** The message as typed: attached files (`<file …>` blocks) and Keel's appended notes cut off. */
export function typedText(content: string): string {
  const cut = content.search(/\n\n(?:\[Keel:|<file )/);
  return (cut < 0 ? content : content.slice(0, cut)).trim();
}

/** The user's messages in the conversation, oldest first. */
export function userTurns(messages: readonly Message[]): UserTurn[] {
  const turns: UserTurn[] = [];
  messages.forEach((m, index) => {
    if (m.role === 'user' && !m.content.startsWith(KEEL_NOTE))
      turns.push({ index, text: typedText(m.content) });
  });
  return turns;
}

/** One line of at most `width` characters: the start of a message, for a list or a notice. */
export function preview(text: string, width = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/**
 * Takes the conversation back to before message `index` (a user turn) and returns the event that records it, so
 * the session replays the conversation without what was dropped.
 */
export function rewindConversation(
  conversation: Conversation,
  index: number,
  reason: 'undo' | 'rewind',
): Extract<AgentEvent, { type: 'conversation_edited' }> {
  const edit = conversation.truncate(index);
  return {
    type: 'conversation_edited',
    reason,
    edits: [{ ...edit, messages: edit.messages.map(messageEvent) }],
  };
}
