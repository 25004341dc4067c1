// The chat's /undo and /rewind on a real conversation with a fake chat around it, and the /model argument that
// switches provider: arguments, the questions, what is taken back and what is said.
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation.js';
import { modelSwitch } from '../../src/cli/chat-commands.js';
import { parseRewind, type RewindChat, rewind, undoTurn } from '../../src/cli/chat-rewind.js';
import type { AgentEvent } from '../../src/core/events.js';

function fakeChat(answers: (string | null)[] = [], interactive = false) {
  const conversation = new Conversation('sys', { maxTokens: 10_000, minRetainTurns: 2, pruneThreshold: 0.8 });
  for (const [user, reply] of [
    ['one', 'did one'],
    ['two', 'did two'],
    ['three', 'did three'],
  ] as const) {
    conversation.push({ role: 'user', content: user });
    conversation.push({ role: 'assistant', content: reply });
  }
  const said: string[] = [];
  const events: AgentEvent[] = [];
  const calls: string[] = [];
  const chat: RewindChat = {
    conversation,
    emit: (e) => void events.push(e),
    flush: async () => {},
    // --no-session: no times, so /undo falls back to keel undo's own choice.
    sessionFile: () => undefined,
    note: (t) => void said.push(t),
    print: (t) => void said.push(t),
    ...(interactive ? { ask: async () => (answers.length > 0 ? answers.shift()! : null) } : {}),
    restoreFilesAt: async (time) => {
      calls.push(`restore ${time}`);
      return true;
    },
    undoLastRun: async () => void calls.push('undo last run'),
    putBack: (text) => void calls.push(`put back ${text}`),
  };
  const contents = () => conversation.messages.map((m) => m.content);
  return { chat, said, events, calls, contents };
}

describe('parseRewind', () => {
  it.each([
    ['', { files: false }],
    ['2', { n: 2, files: false }],
    ['2 --files', { n: 2, files: true }],
    ['--files 3', { n: 3, files: true }],
    ['--files', undefined],
    ['two', undefined],
    ['1 2', undefined],
  ])('/rewind %j', (args, parsed) => {
    expect(parseRewind(args)).toEqual(parsed);
  });
});

describe('/undo and /rewind', () => {
  it('/undo takes back the last turn; without a session the files go back as keel undo would', async () => {
    const f = fakeChat();
    await undoTurn(f.chat);
    expect(f.contents()).toEqual(['sys', 'one', 'did one', 'two', 'did two']);
    expect(f.calls).toEqual(['undo last run']);
    expect(f.events).toEqual([
      { type: 'conversation_edited', reason: 'undo', edits: [{ from: 5, count: 0, messages: [] }] },
    ]);
    expect(f.said.join('')).toContain('undid the turn "three"');
  });

  it('/rewind <n> keeps the files and puts the message back in the input line', async () => {
    const f = fakeChat();
    await rewind(f.chat, '2');
    expect(f.contents()).toEqual(['sys', 'one', 'did one']);
    expect(f.calls).toEqual(['put back two']);
    expect(f.said.join('')).toContain(
      'rewound to before message 2 (files unchanged): 2 of your messages taken back',
    );
  });

  it('/rewind asks which message and how far on a terminal; an empty answer cancels', async () => {
    const f = fakeChat(['1', 'c'], true);
    await rewind(f.chat, '');
    expect(f.said[0]).toBe('your messages (newest last):\n  1  one\n  2  two\n  3  three\n');
    expect(f.contents()).toEqual(['sys']);
    const g = fakeChat([''], true);
    await rewind(g.chat, '');
    expect(g.contents()).toHaveLength(7);
    expect(g.said.at(-1)).toBe('rewind cancelled\n');
  });

  it.each([
    // answers in order → messages left, files restored, notes said after the list
    [['2', 'c'], 3, false, []],
    [['2', 'f'], 3, true, []],
    [['2', 'FILES'], 3, true, []],
    [
      ['3', 'yes', 'f'],
      5,
      true,
      ['answer c (the conversation only) or f (the files too), or Enter to cancel\n'],
    ],
    [
      ['1', 'x', 'conversation'],
      1,
      false,
      ['answer c (the conversation only) or f (the files too), or Enter to cancel\n'],
    ],
    [
      ['0', 'two', '4', '1', 'c'],
      1,
      false,
      Array(3).fill('answer a message number from 1 to 3, or Enter to cancel\n'),
    ],
    [['2', ''], 7, false, ['rewind cancelled\n']],
    [
      ['2', 'x', '  '],
      7,
      false,
      ['answer c (the conversation only) or f (the files too), or Enter to cancel\n', 'rewind cancelled\n'],
    ],
    [
      ['two', ''],
      7,
      false,
      ['answer a message number from 1 to 3, or Enter to cancel\n', 'rewind cancelled\n'],
    ],
    // Ctrl-C or the end of input (null) cancels either question.
    [[null], 7, false, ['rewind cancelled\n']],
    [['1', null], 7, false, ['rewind cancelled\n']],
  ] as const)('/rewind answered %j leaves %i messages, files %s', async (answers, left, files, notes) => {
    const f = fakeChat([...answers], true);
    await rewind(f.chat, '');
    expect(f.contents()).toHaveLength(left);
    expect(f.calls.some((c) => c.startsWith('restore') || c === 'undo last run')).toBe(false);
    const said = f.said.slice(1);
    if (left === 7) expect(said).toEqual(notes);
    else {
      expect(said.slice(0, notes.length)).toEqual(notes);
      expect(said.at(-1)).toContain(files ? ', files included' : '(files unchanged)');
    }
  });

  it('/rewind names a message out of range and a bad argument', async () => {
    const f = fakeChat();
    await rewind(f.chat, '4');
    await rewind(f.chat, 'x');
    expect(f.said).toEqual([
      'no message 4: /rewind lists 3 (1 is the oldest)\n',
      'usage: /rewind [<n> [--files]] (n: a message of the list /rewind shows)\n',
    ]);
    expect(f.contents()).toHaveLength(7);
  });
});

describe('modelSwitch', () => {
  it.each([
    ['qwen3', 'ollama', { model: 'qwen3' }],
    ['openai-compatible/gpt-4o', 'ollama', { provider: 'openai-compatible', model: 'gpt-4o' }],
    ['anthropic', 'ollama', { provider: 'anthropic' }],
    [
      'openrouter/anthropic/claude-sonnet-4',
      'ollama',
      { provider: 'openrouter', model: 'anthropic/claude-sonnet-4' },
    ],
    ['anthropic/claude-sonnet-4', 'openrouter', { model: 'anthropic/claude-sonnet-4' }],
    ['gemini/gemini-2.5-pro', 'openrouter', { provider: 'gemini', model: 'gemini-2.5-pro' }],
    ['library/llama3:8b', 'ollama', { model: 'library/llama3:8b' }],
  ])('/model %s on %s', (arg, current, expected) => {
    expect(modelSwitch(arg, current)).toEqual(expected);
  });
});
