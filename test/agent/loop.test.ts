// The agent loop on its own: every tool call answered, interrupts keep the conversation well-formed,
// the run timeout and the turn limit end the run with the right reason.
import { describe, expect, it } from 'vitest';
import { Conversation, estimateTokens } from '../../src/agent/conversation.js';
import { type LoopOptions, runLoop } from '../../src/agent/loop.js';
import { type AgentEvent, replayConversation } from '../../src/core/events.js';
import type { Model, ModelEvent } from '../../src/core/model.js';

/** A model that answers each request with the next scripted list of events. */
function scriptedModel(replies: ModelEvent[][], onRequest?: () => Promise<void>): Model {
  let i = 0;
  return {
    provider: 'test',
    modelId: 'scripted',
    async *stream() {
      await onRequest?.();
      const reply = replies[i++];
      if (!reply) throw new Error('script exhausted');
      yield* reply;
    },
  };
}

const call = (id: string, name = 'read_file'): ModelEvent => ({
  type: 'tool-call',
  call: { id, name, input: '{}' },
});

function setup(model: Model, overrides: Partial<LoopOptions> = {}) {
  const events: AgentEvent[] = [];
  const conversation = new Conversation('system', {
    maxTokens: 100_000,
    minRetainTurns: 5,
    pruneThreshold: 0.8,
  });
  conversation.push({ role: 'user', content: 'goal' });
  const options: LoopOptions = {
    model,
    executor: { specs: () => [], run: async (c) => ({ content: `result of ${c.id}`, isError: false }) },
    emit: (e) => events.push(e),
    workspace: '/ws',
    maxTurns: 10,
    signal: new AbortController().signal,
    ...overrides,
  };
  return { events, conversation, options };
}

describe('runLoop', () => {
  it('answers every tool call of a turn, in order, then returns the final answer', async () => {
    const { conversation, options, events } = setup(
      scriptedModel([[call('a'), call('b')], [{ type: 'text', delta: 'done' }]]),
    );
    const result = await runLoop(conversation, options);
    expect(result).toMatchObject({ reason: 'done', answer: 'done', turns: 2, toolCalls: 2 });
    const tools = conversation.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual(['result of a', 'result of b']);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'done', tool_calls: 2 });
  });

  it('runs a code call as the tool its action names, and answers it under the name the model used', async () => {
    const ran: { name: string; input: string }[] = [];
    const code: ModelEvent = {
      type: 'tool-call',
      call: { id: 'a', name: 'code', input: '{"action":"find_references","name":"f","path":"x.ts"}' },
    };
    const { conversation, options } = setup(scriptedModel([[code], [{ type: 'text', delta: 'done' }]]), {
      executor: {
        specs: () => [],
        run: async (c) => {
          ran.push({ name: c.name, input: c.input });
          return { content: 'refs', isError: false };
        },
      },
    });
    await runLoop(conversation, options);
    expect(ran).toEqual([{ name: 'find_references', input: '{"name":"f","path":"x.ts"}' }]);
    const assistant = conversation.messages.find((m) => m.role === 'assistant');
    expect(assistant?.toolCalls?.[0]?.name).toBe('code');
    expect(conversation.messages.find((m) => m.role === 'tool')).toMatchObject({
      toolName: 'code',
      content: 'refs',
    });
  });

  it('on an interrupt between tool calls, answers the rest as interrupted and ends as interrupted', async () => {
    const controller = new AbortController();
    const { conversation, options } = setup(scriptedModel([[call('a'), call('b'), call('c')]]), {
      signal: controller.signal,
      executor: {
        specs: () => [],
        run: async (c) => {
          if (c.id === 'a') controller.abort();
          return { content: `result of ${c.id}`, isError: false };
        },
      },
    });
    const result = await runLoop(conversation, options);
    expect(result.reason).toBe('interrupted');
    const tools = conversation.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.content)).toEqual([
      'result of a',
      'Error: interrupted before this tool ran',
      'Error: interrupted before this tool ran',
    ]);
  });

  it('ends as failed with a clear message when agent.timeout_seconds passes', async () => {
    const never = () => new Promise<void>(() => {});
    const { conversation, options } = setup(
      {
        provider: 'test',
        modelId: 'slow',
        async *stream(request) {
          await new Promise((_, reject) =>
            request.signal.addEventListener('abort', () => reject(request.signal.reason)),
          );
          await never();
        },
      },
      { timeoutMs: 50 },
    );
    const result = await runLoop(conversation, options);
    expect(result.reason).toBe('failed');
    expect(result.error?.message).toMatch(/agent\.timeout_seconds/);
  });

  it('stops at the turn limit', async () => {
    const { conversation, options } = setup(scriptedModel([[call('a')], [call('b')], [call('c')]]), {
      maxTurns: 2,
    });
    const result = await runLoop(conversation, options);
    expect(result).toMatchObject({ reason: 'turn-limit', turns: 2, toolCalls: 2 });
  });

  it('sends a history bounded by the budget however many turns a run takes', async () => {
    const sizes: number[] = [];
    const turns = 300;
    const model: Model = {
      provider: 'test',
      modelId: 'scripted',
      async *stream(request) {
        sizes.push(estimateTokens(request.messages));
        yield sizes.length < turns ? call(`c${sizes.length}`) : { type: 'text', delta: 'done' };
      },
    };
    const { options } = setup(model, {
      maxTurns: turns,
      executor: { specs: () => [], run: async (c) => ({ content: `${c.id} `.repeat(300), isError: false }) },
    });
    const budget = { maxTokens: 8_000, minRetainTurns: 5, pruneThreshold: 0.8 };
    const bounded = new Conversation('system', budget);
    bounded.push({ role: 'user', content: 'goal' });
    expect(await runLoop(bounded, options)).toMatchObject({ reason: 'done', turns });
    // Each turn adds about 300 tokens: unpruned, the last request would hold 90,000.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget.maxTokens);
    expect(bounded.messages.length).toBeLessThan(60);
  });

  it('ends with run_end as failed when something other than a KeelError is thrown', async () => {
    const { conversation, options, events } = setup(scriptedModel([[call('a')]]), {
      executor: {
        specs: () => [],
        run: async () => {
          throw new TypeError('cannot read properties of undefined');
        },
      },
    });
    const result = await runLoop(conversation, options);
    expect(result).toMatchObject({ reason: 'failed', error: { code: 'internal_error' } });
    expect(events.at(-2)).toMatchObject({
      type: 'error',
      message: 'internal error: cannot read properties of undefined',
    });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'failed' });
  });

  it('emits every message it appends, after run_start, so events alone rebuild the conversation', async () => {
    const { conversation, options, events } = setup(
      scriptedModel([[call('a'), { type: 'text', delta: 'thinking' }], [{ type: 'text', delta: 'done' }]]),
    );
    await runLoop(conversation, options);
    expect(events[0]!.type).toBe('run_start');
    expect(replayConversation(events)).toEqual(conversation.messages);
  });

  it('continues an answer cut off by the output limit, and gives up after maxContinuations', async () => {
    const cut = (delta: string): ModelEvent[] => [
      { type: 'text', delta },
      { type: 'finish', reason: 'length' },
    ];
    const once = setup(scriptedModel([cut('Hel'), [{ type: 'text', delta: 'lo' }]]));
    expect(await runLoop(once.conversation, once.options)).toMatchObject({ reason: 'done', answer: 'Hello' });
    expect(once.events.filter((e) => e.type === 'turn_end')).toEqual([
      { type: 'turn_end', turn: 1, tool_calls: 0, continued: true },
      { type: 'turn_end', turn: 2, tool_calls: 0 },
    ]);
    const always = setup(scriptedModel([cut('a'), cut('b'), cut('c')]), { maxContinuations: 2 });
    const result = await runLoop(always.conversation, always.options);
    expect(result).toMatchObject({ reason: 'failed', answer: 'abc', error: { code: 'output_limit' } });
  });

  it('fails on a content-filter finish instead of calling it done', async () => {
    const { conversation, options } = setup(
      scriptedModel([
        [
          { type: 'text', delta: 'par' },
          { type: 'finish', reason: 'content-filter' },
        ],
      ]),
    );
    const result = await runLoop(conversation, options);
    expect(result).toMatchObject({ reason: 'failed', error: { code: 'content_filter' } });
  });

  it('asks for the tool list every turn and awaits a flush of durable consumers before each model call and before tool calls run', async () => {
    const offered: string[][] = [];
    const order: string[] = [];
    let tools = [{ name: 'one', description: '', inputSchema: {} }];
    const model: Model = {
      provider: 'test',
      modelId: 'm',
      async *stream(request) {
        order.push('model');
        offered.push(request.tools.map((t) => t.name));
        tools = [...tools, { name: 'two', description: '', inputSchema: {} }];
        yield* offered.length === 1 ? [call('a')] : [{ type: 'text' as const, delta: 'ok' }];
      },
    };
    const { conversation, options } = setup(model, {
      executor: { specs: () => tools, run: async (c) => ({ content: `result of ${c.id}`, isError: false }) },
      flush: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push('flushed');
      },
    });
    await runLoop(conversation, options);
    expect(offered).toEqual([['one'], ['one', 'two']]);
    // Before the first call, before the tool call runs, before the second call.
    expect(order.slice(0, 5)).toEqual(['flushed', 'model', 'flushed', 'flushed', 'model']);
  });
});
