// Compaction on its own: the summary request, the compacted conversation (system prompt built again, summary,
// todo list, the request still open), the event whose edits replay to it, and the loop compacting near the limit
// with pruning as the fallback.
import { describe, expect, it } from 'vitest';
import { CompactionError, compact, SUMMARY_MARKER } from '../../src/agent/compaction.js';
import { Conversation } from '../../src/agent/conversation.js';
import { runLoop } from '../../src/agent/loop.js';
import { type AgentEvent, messageEvent, replayConversation } from '../../src/core/events.js';
import type { Message } from '../../src/core/messages.js';
import type { Model, ModelEvent, ModelRequest } from '../../src/core/model.js';

/** A model answering each request with the next scripted events, keeping the requests it got. */
function scriptedModel(replies: ModelEvent[][]) {
  const requests: ModelRequest[] = [];
  const model: Model = {
    provider: 'test',
    modelId: 'scripted',
    async *stream(request) {
      requests.push(request);
      const reply = replies[requests.length - 1];
      if (!reply) throw new Error('script exhausted');
      yield* reply;
    },
  };
  return { model, requests };
}

const text = (delta: string): ModelEvent => ({ type: 'text', delta });
const usage = (input: number, output: number): ModelEvent => ({
  type: 'usage',
  usage: { inputTokens: input, outputTokens: output },
});
const SUMMARY = '## Goal\nRename foo.\n## Instructions\nKeep tests green.\n## Open\nUpdate callers.';

function inProgress(): Conversation {
  const c = new Conversation('old system', { maxTokens: 10_000, minRetainTurns: 2, pruneThreshold: 0.8 });
  c.push({ role: 'user', content: 'rename foo to bar' });
  c.push({
    role: 'assistant',
    content: 'Looking.',
    toolCalls: [{ id: 'c1', name: 'read_file', input: '{"path":"a.ts"}' }],
  });
  // A file long enough that a summary is smaller than the conversation, as it is when a run compacts.
  const file = `export const foo = 1;\n${'export const other = 2;\n'.repeat(200)}`;
  c.push({ role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: file });
  return c;
}

describe('compact', () => {
  it('asks once without tools for the sectioned summary, steered by the focus', async () => {
    const { model, requests } = scriptedModel([[text(SUMMARY), usage(300, 40)]]);
    const conversation = inProgress();
    await compact(
      { model, conversation, systemPrompt: async () => 'new system', emit: () => {} },
      { trigger: 'manual', focus: 'the callers', turn: 0, signal: new AbortController().signal },
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]!.tools).toEqual([]);
    const [system, user] = requests[0]!.messages;
    expect(system?.role).toBe('system');
    expect(user?.content).toContain('### User\nrename foo to bar');
    expect(user?.content).toContain('→ read_file {"path":"a.ts"}');
    expect(user?.content).toContain('### Result of read_file\nexport const foo = 1;');
    for (const section of ['Goal', 'Instructions', 'Discoveries', 'Done', 'Open', 'Files touched'])
      expect(user?.content).toContain(`## ${section}\n`);
    expect(user?.content).toContain('The user asks the summary to focus on: the callers');
  });

  it('replaces the conversation with the new system prompt, the summary, the todo list and the open request', async () => {
    const { model } = scriptedModel([[text(SUMMARY), usage(300, 40)]]);
    const conversation = inProgress();
    const events: AgentEvent[] = [];
    conversation.report((m) => events.push(messageEvent(m)));
    const result = await compact(
      {
        model,
        conversation,
        systemPrompt: async () => 'new system with AGENTS.md',
        todos: () => [
          { id: '1', content: 'rename the definition', status: 'done' },
          { id: '2', content: 'update callers', status: 'in_progress' },
          { id: '3', content: 'run the tests', status: 'pending' },
        ],
        emit: (e) => events.push(e),
      },
      { trigger: 'auto', turn: 3, signal: new AbortController().signal },
    );
    const messages = conversation.messages;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(messages[0]!.content).toBe('new system with AGENTS.md');
    expect(messages[1]!.content.startsWith(SUMMARY_MARKER)).toBe(true);
    expect(messages[1]!.content).toContain(SUMMARY);
    expect(messages[1]!.content).toContain(
      'Current todo list ([x] done, [>] in progress, [ ] pending):\n- [x] 1: rename the definition\n- [>] 2: update callers\n- [ ] 3: run the tests',
    );
    expect(messages[2]!.content).toBe('rename foo to bar');
    if (!result) throw new Error('nothing was compacted');
    expect(result.usage).toEqual({ inputTokens: 300, outputTokens: 40 });

    const event = events.find((e) => e.type === 'compaction');
    expect(event).toMatchObject({ type: 'compaction', turn: 3, trigger: 'auto', summary: SUMMARY });
    if (event?.type !== 'compaction') throw new Error('no compaction event');
    expect(event.tokens_before).toBe(result.tokensBefore);
    expect(event.tokens_after).toBe(result.tokensAfter);
    expect(events).toContainEqual({
      type: 'usage',
      turn: 3,
      provider: 'test',
      model: 'scripted',
      input_tokens: 300,
      output_tokens: 40,
    });
    // Replaying the session's events yields exactly the compacted list.
    expect(replayConversation(events)).toEqual(messages);
  });

  it('leaves out a request already answered and an empty todo list', async () => {
    const { model } = scriptedModel([[text(SUMMARY)]]);
    const conversation = inProgress();
    conversation.push({ role: 'assistant', content: 'Renamed.' });
    await compact(
      { model, conversation, systemPrompt: async () => 'sys', todos: () => [], emit: () => {} },
      { trigger: 'manual', turn: 0, signal: new AbortController().signal },
    );
    expect(conversation.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(conversation.messages[1]!.content).not.toContain('todo list');
  });

  it.each([
    // how the conversation ends, who compacts → what follows the summary; the messages added to inProgress()
    ['a tool result (work in progress)', 'auto', ['rename foo to bar'], []],
    ['a tool result: /compact after a turn that hit the turn limit', 'manual', [], []],
    [
      'an interrupted turn: its request, no answer',
      'manual',
      [],
      [{ role: 'user', content: 'now delete the old tests' }],
    ],
    [
      'an interrupted turn with a partial answer',
      'manual',
      [],
      [
        { role: 'user', content: 'now delete the old tests' },
        { role: 'assistant', content: 'I will start by' },
      ],
    ],
    [
      'an interrupted turn, then a run compacting before its first call',
      'auto',
      ['no, keep them; run them'],
      [
        { role: 'user', content: 'now delete the old tests' },
        { role: 'user', content: 'no, keep them; run them' },
      ],
    ],
  ] as [string, 'auto' | 'manual', string[], Message[]][])(
    'after %s, compaction (%s) keeps %j after the summary',
    async (_, trigger, kept, more) => {
      const { model, requests } = scriptedModel([[text(SUMMARY)]]);
      const conversation = inProgress();
      for (const m of more) conversation.push(m);
      await compact(
        { model, conversation, systemPrompt: async () => 'sys', emit: () => {} },
        { trigger, turn: trigger === 'auto' ? 2 : 0, signal: new AbortController().signal },
      );
      // Each of the user's messages reaches the summary once, in the transcript.
      for (const m of more.filter((m) => m.role === 'user'))
        expect(requests[0]!.messages[1]!.content.split(`### User\n${m.content}`)).toHaveLength(2);
      expect(conversation.messages.slice(2).map((m) => m.content)).toEqual(kept);
    },
  );

  it('has nothing to compact in a conversation without a message, and asks the model nothing', async () => {
    const { model, requests } = scriptedModel([[text(SUMMARY), usage(300, 40)]]);
    const conversation = new Conversation('sys', {
      maxTokens: 1_000,
      minRetainTurns: 1,
      pruneThreshold: 0.8,
    });
    const events: AgentEvent[] = [];
    const result = await compact(
      { model, conversation, systemPrompt: async () => 'sys', emit: (e) => events.push(e) },
      { trigger: 'manual', turn: 0, signal: new AbortController().signal },
    );
    expect(result).toBeUndefined();
    expect(requests).toHaveLength(0);
    expect(events).toEqual([]);
    expect(conversation.messages.map((m) => m.role)).toEqual(['system']);
  });

  it('fails without touching the conversation when the model gives no summary', async () => {
    const { model } = scriptedModel([[text('  '), usage(10, 0)]]);
    const conversation = inProgress();
    const before = [...conversation.messages];
    await expect(
      compact(
        { model, conversation, systemPrompt: async () => 'sys', emit: () => {} },
        { trigger: 'manual', turn: 0, signal: new AbortController().signal },
      ),
    ).rejects.toThrow(CompactionError);
    expect(conversation.messages).toEqual(before);
  });
});

describe('runLoop with automatic compaction', () => {
  /** A conversation at about 900 of 1,000 tokens: past an 85% compaction threshold. */
  function nearlyFull(): Conversation {
    const c = new Conversation('sys', { maxTokens: 1_000, minRetainTurns: 1, pruneThreshold: 0.8 });
    c.push({ role: 'user', content: 'the task' });
    for (let i = 0; i < 3; i++) {
      c.push({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${i}`, name: 'read_file', input: '{}' }],
      });
      c.push({ role: 'tool', toolCallId: `c${i}`, toolName: 'read_file', content: 'z'.repeat(1_150) });
    }
    return c;
  }

  function loopOptions(model: Model, events: AgentEvent[], compactor: Parameters<typeof compact>[0]) {
    return {
      model,
      executor: { specs: () => [], run: async () => ({ content: 'ok', isError: false }) },
      emit: (e: AgentEvent) => events.push(e),
      workspace: '/ws',
      maxTurns: 5,
      signal: new AbortController().signal,
      autoCompact: {
        threshold: 0.85,
        compact: async (turn: number, signal: AbortSignal) =>
          (await compact(compactor, { trigger: 'auto', turn, signal }))!.usage,
      },
    };
  }

  it('compacts before the model call, counts its usage and continues from the summary', async () => {
    const { model, requests } = scriptedModel([
      [text(SUMMARY), usage(900, 50)],
      [text('Done.'), usage(100, 5)],
    ]);
    const conversation = nearlyFull();
    const events: AgentEvent[] = [];
    const compactor = {
      model,
      conversation,
      systemPrompt: async () => 'sys again',
      emit: events.push.bind(events),
    };
    const result = await runLoop(conversation, loopOptions(model, events, compactor));
    expect(result).toMatchObject({ reason: 'done', usage: { inputTokens: 1_000, outputTokens: 55 } });
    expect(requests[0]!.tools).toEqual([]);
    const next = requests[1]!.messages.map((m: Message) => m.content);
    expect(next[1]).toContain(SUMMARY);
    expect(next[2]).toBe('the task');
    expect(events.filter((e) => e.type === 'conversation_pruned')).toEqual([]);
    const compaction = events.find((e) => e.type === 'compaction');
    if (compaction?.type !== 'compaction') throw new Error('no compaction event');
    expect(compaction.tokens_before).toBeGreaterThan(compaction.tokens_after);
    expect(replayConversation(events)).toEqual(conversation.messages);
  });

  it('does not compact when the system prompt alone nearly fills the budget', async () => {
    const { model, requests } = scriptedModel([[text('Done.')]]);
    const conversation = new Conversation('s'.repeat(3_600), {
      maxTokens: 1_000,
      minRetainTurns: 1,
      pruneThreshold: 0.8,
    });
    conversation.push({ role: 'user', content: 'hi' });
    const events: AgentEvent[] = [];
    const compactor = {
      model,
      conversation,
      systemPrompt: async () => 'sys',
      emit: events.push.bind(events),
    };
    expect((await runLoop(conversation, loopOptions(model, events, compactor))).reason).toBe('done');
    expect(requests).toHaveLength(1);
    expect(events.some((e) => e.type === 'compaction')).toBe(false);
  });

  it('prunes instead, with a warning, when compaction fails, and does not try again that run', async () => {
    const { model, requests } = scriptedModel([[usage(10, 0)], [text('Done.')]]);
    const conversation = nearlyFull();
    const events: AgentEvent[] = [];
    const compactor = {
      model,
      conversation,
      systemPrompt: async () => 'sys',
      emit: events.push.bind(events),
    };
    const result = await runLoop(conversation, loopOptions(model, events, compactor));
    expect(result.reason).toBe('done');
    expect(requests).toHaveLength(2);
    expect(events).toContainEqual({
      type: 'warning',
      message: 'compaction failed: the model returned no summary; pruning old turns instead',
    });
    expect(events.some((e) => e.type === 'conversation_pruned')).toBe(true);
    expect(replayConversation(events)).toEqual(conversation.messages);
  });

  it('reports no compaction when the summary beside the open request would not be smaller, and counts its call', async () => {
    const { model, requests } = scriptedModel([[text(SUMMARY), usage(900, 50)], [text('Done.')]]);
    // The goal itself fills the window: the summary would be sent with it again.
    const conversation = new Conversation('sys', {
      maxTokens: 1_000,
      minRetainTurns: 1,
      pruneThreshold: 0.8,
    });
    conversation.push({ role: 'user', content: 'g'.repeat(3_600) });
    const before = [...conversation.messages];
    const events: AgentEvent[] = [];
    const compactor = {
      model,
      conversation,
      systemPrompt: async () => 'sys',
      emit: events.push.bind(events),
    };
    const result = await runLoop(conversation, loopOptions(model, events, compactor));
    expect(result).toMatchObject({ reason: 'done', usage: { inputTokens: 900, outputTokens: 50 } });
    expect(events.some((e) => e.type === 'compaction')).toBe(false);
    const warning = events.find((e) => e.type === 'warning');
    expect(warning).toMatchObject({
      message: expect.stringMatching(
        /^compaction would not make the conversation smaller \(\d+ → \d+ tokens\): the request being worked on is most of it; pruning old turns instead$/,
      ),
    });
    expect(requests[1]!.messages.slice(0, 2)).toEqual(before);
  });
});
