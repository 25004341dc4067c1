// When each message of a saved conversation was recorded, index for index with the replayed conversation, and
// the user's message a checkpoint's turn started from.
import { describe, expect, it } from 'vitest';
import { replayConversation } from '../../src/core/events.js';
import { messageTimes, turnAt } from '../../src/session/message-times.js';
import type { SessionRecord } from '../../src/session/session-file.js';

const t = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000Z`;
const record: SessionRecord = {
  meta: {
    type: 'session',
    version: 1,
    id: 's',
    workspace: '/w',
    provider: 'ollama',
    model: 'm',
    started: t(0),
  },
  truncated: false,
  events: [
    { type: 'message', role: 'system', content: 'sys', time: t(1) },
    { type: 'message', role: 'user', content: 'first', time: t(2) },
    { type: 'message', role: 'assistant', content: 'a1', time: t(3) },
    { type: 'message', role: 'user', content: 'second\n\n[Keel: note]', time: t(4) },
    { type: 'message', role: 'assistant', content: 'a2', time: t(5) },
    { type: 'conversation_edited', reason: 'undo', edits: [{ from: 3, count: 2, messages: [] }], time: t(6) },
    { type: 'message', role: 'user', content: '[Keel: your answer was cut off]', time: t(7) },
    { type: 'message', role: 'user', content: 'third', time: t(8) },
  ],
};

describe('messageTimes', () => {
  it('gives each replayed message its time, an undone turn taken out', () => {
    const times = messageTimes(record);
    expect(times).toEqual([t(1), t(2), t(3), t(7), t(8)]);
    expect(times).toHaveLength(replayConversation(record.events).length);
  });
});

describe('turnAt', () => {
  it.each([
    ['during the first turn', t(3), 'first'],
    ["after a Keel note: the user's last message", t(7), 'second\n\n[Keel: note]'],
    ['before any message', t(0), undefined],
  ])('%s', (_, time, content) => {
    expect(turnAt(record, time)).toBe(content);
  });
});
