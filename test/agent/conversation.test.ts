// Conversation history: token estimate and xzatoma-style pruning that keeps the system prompt, the first user
// message and the last turns, and never splits a tool call from its results.
import { describe, expect, it } from 'vitest';
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
    expect(c.pruneIfNeeded()).toBeUndefined();
    expect(c.messages).toHaveLength(12);
  });

  it('prunes the oldest tool exchanges, keeping system, goal and the last turns whole', () => {
    const c = new Conversation('system', { maxTokens: 2_000, minRetainTurns: 2, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'the goal' });
    for (let i = 0; i < 6; i++) for (const m of turn(i, 1_500)) c.push(m);
    const before = c.tokenCount;
    const summary = c.pruneIfNeeded();
    expect(summary).toMatch(/8 messages with 4 tool calls: list_files, read_file/);
    const roles = c.messages.map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'system', 'assistant', 'tool', 'assistant', 'tool']);
    expect(c.messages[1]).toMatchObject({ content: 'the goal' });
    expect(c.messages[2]!.content).toMatch(/^\[CONTEXT PRUNED: /);
    // The kept turns are the newest ones, each call with its result.
    const kept = c.messages
      .filter((m) => m.role === 'tool')
      .map((m) => (m.role === 'tool' ? m.toolCallId : ''));
    expect(kept).toEqual(['c4', 'c5']);
    expect(c.tokenCount).toBeLessThan(before);
  });

  it('cannot prune below the retained turns', () => {
    const c = new Conversation('system', { maxTokens: 100, minRetainTurns: 5, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'goal' });
    for (let i = 0; i < 3; i++) for (const m of turn(i, 1_000)) c.push(m);
    expect(c.pruneIfNeeded()).toBeUndefined();
    expect(c.messages).toHaveLength(8);
  });
});
