// When each message of a saved conversation was recorded: replayed like the conversation itself, so the times
// stand at the same indexes as the messages. /rewind and /undo take the files back to the workspace as it was at
// the time of a user message, and `keel undo` names the turn a checkpoint belongs to.
import type { SessionRecord } from './session-file.js';

/** The time each message of the replayed conversation was recorded, index for index. */
export function messageTimes(record: SessionRecord): string[] {
  const times: string[] = [];
  for (const event of record.events) {
    if (event.parent !== undefined) continue;
    if (event.type === 'message') times.push(event.time);
    else if (
      event.type === 'conversation_pruned' ||
      event.type === 'compaction' ||
      event.type === 'conversation_edited'
    ) {
      // A replaced range's new messages are as new as the edit.
      for (const edit of event.edits)
        times.splice(edit.from, edit.count, ...edit.messages.map(() => event.time));
    }
  }
  return times;
}

/**
 * The user's message that started the turn going on at `time`: the last one recorded at or before it (ISO times
 * compare as strings). Undefined when the session has none.
 */
export function turnAt(record: SessionRecord, time: string): string | undefined {
  let found: string | undefined;
  for (const event of record.events) {
    if (event.time > time) break;
    if (
      event.parent === undefined &&
      event.type === 'message' &&
      event.role === 'user' &&
      !event.content.startsWith('[Keel:')
    )
      found = event.content;
  }
  return found;
}
