// Conversation history: token estimate and xzatoma-style pruning that keeps the system prompt, the first user
// message and the last turns, never splits a tool call from its results, and leaves a history every provider accepts.
import { describe, expect, it } from 'vitest';
import { pruneIfNeeded, trimOldOutputs } from '../../src/agent/context-budget.js';
import { Conversation, estimateTokens } from '../../src/agent/conversation.js';
import type { Message } from '../../src/core/messages.js';

function turn(i: number, size: number): Message[] {
  return [
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `c${i}`, name: i % 2 ? 'read_file' : 'list_files', input: '{}' }],
    },
    {
      role: 'tool',
      toolCallId: `c${i}`,
      toolName: i % 2 ? 'read_file' : 'list_files',
      content: 'x'.repeat(size),
    },
  ];
}

describe('Conversation', () => {
  it('estimates about four characters per token', () => {
    expect(estimateTokens([{ role: 'user', content: 'x'.repeat(400) }])).toBe(102);
  });

  it('does not prune under the threshold', () => {
    const c = new Conversation('system', { maxTokens: 10_000, minRetainTurns: 2, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    for (let i = 0; i < 5; i++) for (const m of turn(i, 100)) c.push(m);
    expect(pruneIfNeeded(c)).toBeUndefined();
    expect(c.messages).toHaveLength(12);
  });

  it('prunes the oldest tool exchanges, keeping system, goal and the last turns whole', () => {
    const c = new Conversation('system', { maxTokens: 2_000, minRetainTurns: 2, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'the goal' });
    for (let i = 0; i < 6; i++) for (const m of turn(i, 1_500)) c.push(m);
    const before = c.tokenCount;
    const pruning = pruneIfNeeded(c);
    expect(pruning?.summary).toMatch(/^8 messages with 4 tool calls: list_files, read_file/);
    const roles = c.messages.map((m) => m.role);
    // The note is a user message: a system message mid-conversation is rejected by Gemini and Anthropic.
    expect(roles).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(c.messages[1]).toMatchObject({ content: 'the goal' });
    expect(c.messages[2]!.content).toBe(
      '[Keel: to fit the context window, 8 earlier messages with 4 tool calls (list_files, read_file) were removed. ' +
        'The task is unchanged; re-read files if you need their content.]',
    );
    expect(pruning?.edits[0]).toMatchObject({ from: 2, count: 8, messages: [c.messages[2]] });
    // The kept turns are the newest ones, each call with its result.
    const kept = c.messages
      .filter((m) => m.role === 'tool')
      .map((m) => (m.role === 'tool' ? m.toolCallId : ''));
    expect(kept).toEqual(['c4', 'c5']);
    expect(c.tokenCount).toBeLessThan(before);
  });

  it('within the retained turns, shortens older tool results when still over budget, never the last turn', () => {
    const c = new Conversation('system', { maxTokens: 600, minRetainTurns: 5, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    for (let i = 0; i < 3; i++) for (const m of turn(i, 1_000)) c.push(m);
    const pruning = pruneIfNeeded(c);
    expect(pruning?.summary).toBe('2 older tool results shortened');
    expect(c.messages).toHaveLength(8);
    const results = c.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toMatch(/^x{200}\n\[Keel: the rest of this result \(800 characters\) was removed/);
    expect(results[2]).toBe('x'.repeat(1_000));
    expect(c.tokenCount).toBeLessThanOrEqual(600);
  });

  it('keeps the user messages of a pruned chat in the note', () => {
    const c = new Conversation('system', { maxTokens: 200, minRetainTurns: 1, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'first request' });
    for (const m of turn(0, 4_000)) c.push(m);
    c.push({ role: 'assistant', content: 'done' });
    c.push({ role: 'user', content: 'now rename it' });
    for (const m of turn(1, 100)) c.push(m);
    pruneIfNeeded(c);
    expect(c.messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool']);
    expect(c.messages[2]!.content).toContain("The user's messages among them:\n- now rename it");
  });

  it('reports the messages so far when a listener attaches, then each new one until it detaches', () => {
    const seen: string[] = [];
    const c = new Conversation('sys', { maxTokens: 100, minRetainTurns: 1, pruneThreshold: 1 });
    c.push({ role: 'user', content: 'hi' });
    const detach = c.report((m) => seen.push(`${m.role}:${m.content}`));
    c.push({ role: 'assistant', content: 'hello' });
    detach();
    c.push({ role: 'user', content: 'again' });
    expect(seen).toEqual(['system:sys', 'user:hi', 'assistant:hello']);
    c.report((m) => seen.push(`${m.role}:${m.content}`));
    expect(seen.at(-1)).toBe('user:again');
  });

  it('leaves no system message after the first, no orphan tool result and no two assistants in a row', () => {
    const c = new Conversation('system', { maxTokens: 800, minRetainTurns: 1, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    c.push({ role: 'assistant', content: 'Looking around.' });
    for (let i = 0; i < 4; i++) for (const m of turn(i, 2_000)) c.push(m);
    expect(pruneIfNeeded(c)).toBeDefined();
    expectWellFormed(c.messages);
    expect(c.messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool']);
  });

  it('keeps a turn whole when its tool results come after a later message', () => {
    // An assistant message between a call and its result (never produced by the loop, but possible in a replayed
    // history) must not become a cut point that strands the result.
    const c = new Conversation('system', { maxTokens: 1_000, minRetainTurns: 1, pruneThreshold: 0.5 });
    c.push({ role: 'user', content: 'goal' });
    for (const m of turn(0, 1_500)) c.push(m);
    c.push({ role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'read_file', input: '{}' }] });
    c.push({ role: 'assistant', content: 'thinking aloud' });
    c.push({ role: 'tool', toolCallId: 'a', toolName: 'read_file', content: 'x'.repeat(1_500) });
    expect(pruneIfNeeded(c)?.summary).toMatch(/^2 messages with 1 tool calls/);
    expect(c.messages.slice(3).map((m) => m.role)).toEqual(['assistant', 'assistant', 'tool']);
  });

  it('counts earlier pruning in the note of a later one, without counting the old note', () => {
    const c = new Conversation('system', { maxTokens: 1_000, minRetainTurns: 1, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    for (let i = 0; i < 3; i++) for (const m of turn(i, 2_500)) c.push(m);
    expect(pruneIfNeeded(c)?.summary).toMatch(/; 4 messages with 2 tool calls/);
    for (let i = 3; i < 5; i++) for (const m of turn(i, 2_500)) c.push(m);
    expect(pruneIfNeeded(c)?.summary).toMatch(/; 4 messages with 2 tool calls/);
    const notes = c.messages.filter((m) => m.content.startsWith('[Keel:'));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.content).toMatch(/8 earlier messages with 4 tool calls \(list_files, read_file\)/);
    expectWellFormed(c.messages);
    expect(c.tokenCount).toBe(estimateTokens(c.messages));
  });
});

describe('Conversation budget by priority', () => {
  /** A turn reading or editing `path` whose result is `size` characters. */
  const fileTurn = (id: string, name: string, path: string, size: number): Message[] => [
    { role: 'assistant', content: '', toolCalls: [{ id, name, input: JSON.stringify({ path }) }] },
    { role: 'tool', toolCallId: id, toolName: name, content: `${path}:`.padEnd(size, 'y') },
  ];

  it('cuts long outputs of old turns to head and tail before pruning any turn, every change an edit', () => {
    const c = new Conversation('system', { maxTokens: 3_500, minRetainTurns: 2, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    for (let i = 0; i < 4; i++) for (const m of turn(i, 4_000)) c.push(m);
    const before = c.messages.map((m) => m.content);
    const pruning = pruneIfNeeded(c);
    expect(pruning?.summary).toBe('2 old tool outputs cut to head and tail');
    // No turn went: the two old results are cut, the two recent ones are whole.
    expect(c.messages).toHaveLength(10);
    const results = c.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    for (const old of results.slice(0, 2)) {
      expect(old).toMatch(
        /^x{600}\n\[Keel: 3100 characters of this old result were cut to fit the context window; run the tool again if you need them\.\]\nx{300}$/,
      );
    }
    expect(results.slice(2)).toEqual(['x'.repeat(4_000), 'x'.repeat(4_000)]);
    // Replaying the edits on the old list gives the new one.
    const replayed = before.slice();
    for (const edit of pruning!.edits)
      replayed.splice(edit.from, edit.count, ...edit.messages.map((m) => m.content));
    expect(replayed).toEqual(c.messages.map((m) => m.content));
  });

  it('cuts old output about other files before output about a file being edited', () => {
    const c = new Conversation('system', { maxTokens: 3_000, minRetainTurns: 1, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    for (const m of fileTurn('r1', 'read_file', 'edited.ts', 5_000)) c.push(m);
    for (const m of fileTurn('r2', 'read_file', 'other.ts', 4_500)) c.push(m);
    for (const m of fileTurn('e1', 'edit_file', 'edited.ts', 100)) c.push(m);
    for (const m of fileTurn('r3', 'read_file', 'last.ts', 2_000)) c.push(m);
    // 11,600 characters ≈ 2,900 tokens: cutting other.ts (the smaller) reaches a step below the limit (2,100),
    // edited.ts stays whole.
    expect(trimOldOutputs(c)?.summary).toBe('1 old tool output cut to head and tail');
    const byId = (id: string) => c.messages.find((m) => m.role === 'tool' && m.toolCallId === id)!.content;
    expect(byId('r2')).toContain('characters of this old result were cut');
    expect(byId('r1')).toHaveLength(5_000);
    expect(byId('r3')).toHaveLength(2_000);
  });

  it('trims a step below the limit, so the next turns leave every earlier message as it was', () => {
    const c = new Conversation('system', { maxTokens: 10_000, minRetainTurns: 2, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    for (let i = 0; i < 9; i++) for (const m of turn(i, 4_000)) c.push(m);
    expect(trimOldOutputs(c)).toBeDefined();
    expect(c.estimate).toBeLessThanOrEqual(7_000);
    const trimmed = c.messages.map((m) => m.content);
    // Three more turns of 1,000 characters (250 tokens) each fit in the step: no edit, the prefix is untouched.
    for (let i = 9; i < 12; i++) {
      for (const m of turn(i, 1_000)) c.push(m);
      expect(trimOldOutputs(c)).toBeUndefined();
    }
    expect(c.messages.slice(0, trimmed.length).map((m) => m.content)).toEqual(trimmed);
  });

  it('estimates the next request from the provider count of the last one plus what came since', () => {
    const c = new Conversation('system', { maxTokens: 100_000, minRetainTurns: 1, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'x'.repeat(4_000) });
    const bytes = c.tokenCount;
    c.calibrate(2_000); // a tokenizer denser than four characters a token
    expect(c.estimate).toBe(2_000);
    c.push({ role: 'assistant', content: 'y'.repeat(400) });
    expect(c.estimate).toBe(2_000 + c.tokenCount - bytes);
    // A count below the byte estimate (cached tokens left out) never lowers it.
    c.calibrate(10);
    expect(c.estimate).toBe(c.tokenCount);
  });

  it('prunes on the calibrated estimate when the bytes alone would not', () => {
    const c = new Conversation('system', { maxTokens: 2_000, minRetainTurns: 1, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    for (let i = 0; i < 3; i++) for (const m of turn(i, 1_000)) c.push(m);
    expect(pruneIfNeeded(c)).toBeUndefined();
    c.calibrate(1_900);
    expect(pruneIfNeeded(c)?.summary).toMatch(/^4 messages with 2 tool calls/);
  });

  it('replaces the whole list with one edit over the messages already reported', () => {
    const c = new Conversation('sys', { maxTokens: 1_000, minRetainTurns: 1, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    const detach = c.report(() => {});
    detach();
    c.push({ role: 'user', content: 'never recorded' });
    const edit = c.replaceAll([
      { role: 'system', content: 'sys 2' },
      { role: 'user', content: 'summary' },
    ]);
    expect(edit).toEqual({ from: 0, count: 2, messages: c.messages });
    // The new messages travel in the edit, so they count as reported.
    const seen: string[] = [];
    c.report((m) => seen.push(m.content));
    expect(seen).toEqual([]);
  });
});

/** The shape every wire format accepts: one leading system message, calls and results paired, no assistant pairs. */
function expectWellFormed(messages: readonly Message[]) {
  expect(messages.slice(1).filter((m) => m.role === 'system')).toEqual([]);
  const open = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      expect(open.has(m.toolCallId), `tool result ${m.toolCallId} without its call`).toBe(true);
      open.delete(m.toolCallId);
    } else {
      expect(open.size, `calls ${[...open].join(', ')} unanswered before message ${i}`).toBe(0);
      if (m.role === 'assistant') for (const call of m.toolCalls ?? []) open.add(call.id);
    }
    if (m.role === 'assistant') expect(messages[i - 1]?.role, `two assistants at ${i}`).not.toBe('assistant');
  }
}
