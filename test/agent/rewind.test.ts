// Going back in the conversation: which messages are the user's turns, and the edits /undo and /rewind make, which
// the session replays so a resumed conversation does not bring back what was taken out.
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation.js';
import { preview, rewindConversation, typedText, userTurns } from '../../src/agent/rewind.js';
import { type AgentEvent, messageEvent, replayConversation } from '../../src/core/events.js';
import type { Message } from '../../src/core/messages.js';

const limits = { maxTokens: 100_000, minRetainTurns: 2, pruneThreshold: 0.8 };

/** A chat of three turns, each recorded as the loop records it (the listener attached while a run goes on). */
function chat() {
  const conversation = new Conversation('system prompt', limits);
  const events: AgentEvent[] = [];
  const turn = (user: string, ...rest: Message[]) => {
    conversation.push({ role: 'user', content: user });
    const detach = conversation.report((m) => events.push(messageEvent(m)));
    for (const m of rest) conversation.push(m);
    detach();
  };
  turn(
    'write one',
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'write_file', input: '{"path":"a.txt"}' }],
    },
    { role: 'tool', toolCallId: 'c1', toolName: 'write_file', content: 'ok' },
    { role: 'assistant', content: 'wrote one' },
  );
  turn('write two\n\n[Keel: steering note]', { role: 'assistant', content: 'wrote two' });
  turn('explain @a.txt\n\n<file path="a.txt">\none\n</file>', { role: 'assistant', content: 'it says one' });
  return { conversation, events };
}

describe('userTurns', () => {
  it.each([
    ['plain', 'fix the test', 'fix the test'],
    ['a steering note appended', 'fix it\n\n[Keel: intent note]', 'fix it'],
    ['a file attached', 'read @a\n\n<file path="a">\nx\n</file>', 'read @a'],
    ['several lines kept', 'line one\nline two', 'line one\nline two'],
  ])('the typed text of a message with %s', (_, content, typed) => {
    expect(typedText(content)).toBe(typed);
  });

  it("lists the user's messages, leaving out Keel's notes in the user's role", () => {
    const messages: Message[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: '[Keel: to fit the context window, 3 earlier messages were removed.]' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'cut off' },
      { role: 'user', content: '[Keel: your answer was cut off by the output limit. Continue]' },
      { role: 'assistant', content: 'rest' },
      { role: 'user', content: 'second' },
    ];
    expect(userTurns(messages)).toEqual([
      { index: 2, text: 'first' },
      { index: 6, text: 'second' },
    ]);
  });

  it('previews a long message on one line', () => {
    expect(preview('a\nb  c')).toBe('a b c');
    expect(preview('x'.repeat(80), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('rewindConversation', () => {
  it('/undo drops the last turn, and the session replays the conversation without it', () => {
    const { conversation, events } = chat();
    const last = userTurns(conversation.messages).at(-1)!;
    const edit = rewindConversation(conversation, last.index, 'undo');
    events.push(edit);
    expect(conversation.messages.map((m) => m.content).at(-1)).toBe('wrote two');
    expect(replayConversation(events)).toEqual(conversation.messages);
  });

  it('/rewind to message 1 leaves only the system prompt; the next turn is recorded after it', () => {
    const { conversation, events } = chat();
    events.push(rewindConversation(conversation, userTurns(conversation.messages)[0]!.index, 'rewind'));
    expect(conversation.messages).toEqual([{ role: 'system', content: 'system prompt' }]);
    conversation.push({ role: 'user', content: 'write three' });
    const detach = conversation.report((m) => events.push(messageEvent(m)));
    conversation.push({ role: 'assistant', content: 'wrote three' });
    detach();
    const replayed = replayConversation(events);
    expect(replayed.map((m) => m.content)).toEqual(['system prompt', 'write three', 'wrote three']);
    expect(replayed).toEqual(conversation.messages);
  });

  it('an undo of a message never recorded removes it without an edit of recorded ones', () => {
    const conversation = new Conversation('s', limits);
    const events: AgentEvent[] = [];
    conversation.report((m) => events.push(messageEvent(m)))();
    conversation.push({ role: 'user', content: 'typed, never sent' });
    const edit = rewindConversation(conversation, 1, 'undo');
    expect(edit.edits).toEqual([{ from: 1, count: 0, messages: [] }]);
    expect(replayConversation([...events, edit])).toEqual(conversation.messages);
  });
});
