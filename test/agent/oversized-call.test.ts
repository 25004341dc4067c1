// A tool call whose arguments are over the size limit: refused with a message telling the model to write in parts,
// and only a short stub of its arguments kept in the conversation. A call the output limit cut off: refused saying so.
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation.js';
import { runLoop } from '../../src/agent/loop.js';
import { boundedCall, cutCall } from '../../src/agent/oversized-call.js';
import type { Model } from '../../src/core/model.js';

const big = JSON.stringify({ path: 'big.txt', content: 'x'.repeat(3 * 1024 * 1024) });

describe('boundedCall', () => {
  it('passes a call within the limit unchanged', () => {
    const call = { id: '1', name: 'write_file', input: '{"path":"a","content":"b"}' };
    expect(boundedCall(call, 1024)).toBe(call);
  });

  it('replaces arguments over the limit by a stub that parses and says what to do', () => {
    const bounded = boundedCall({ id: '1', name: 'write_file', input: big }, 1024 * 1024);
    expect(bounded.input.length).toBeLessThan(1000);
    expect(JSON.parse(bounded.input)).toMatchObject({ start: expect.stringContaining('"path":"big.txt"') });
    expect(bounded.refused).toMatch(/over the limit of 1024 KB/);
    expect(bounded.refused).toMatch(/append_file/);
  });
});

describe('runLoop with maxToolArgumentBytes', () => {
  it('keeps only the stub in the conversation and in every later request', async () => {
    const requests: string[] = [];
    let turn = 0;
    const model: Model = {
      provider: 'test',
      modelId: 'scripted',
      async *stream(request) {
        requests.push(JSON.stringify(request.messages));
        if (turn++ === 0) yield { type: 'tool-call', call: { id: 'c1', name: 'write_file', input: big } };
        else yield { type: 'text', delta: 'done' };
      },
    };
    const conversation = new Conversation('system', {
      maxTokens: 100_000,
      minRetainTurns: 5,
      pruneThreshold: 0.8,
    });
    conversation.push({ role: 'user', content: 'goal' });
    const results: string[] = [];
    await runLoop(conversation, {
      model,
      executor: {
        specs: () => [],
        run: async (call) => {
          results.push(call.refused ?? 'ran');
          return { content: call.refused ?? 'ran', isError: call.refused !== undefined };
        },
      },
      emit: () => {},
      workspace: '/ws',
      maxTurns: 3,
      signal: new AbortController().signal,
      maxToolArgumentBytes: 1024 * 1024,
    });
    expect(results).toEqual([expect.stringMatching(/write large content in parts/i)]);
    expect(requests[1]!.length).toBeLessThan(10_000);
    expect(JSON.stringify(conversation.messages).length).toBeLessThan(10_000);
  });
});

describe('cutCall', () => {
  it('passes a call whose arguments are whole, and refuses one cut mid-arguments saying why and what to do', () => {
    const whole = { id: '1', name: 'read_file', input: '{"path":"a"}' };
    expect(cutCall(whole)).toBe(whole);
    const cut = cutCall({ id: '2', name: 'write_file', input: '{"path":"BIG.txt","content":"aaaa' });
    expect(cut.refused).toMatch(/^this write_file call was cut off by the model's output limit/);
    expect(cut.refused).toMatch(/append_file/);
    expect(cut.refused).not.toMatch(/field names/);
  });

  it('refuses, in the loop, only the calls of a response that ended at the output limit', async () => {
    const cut = { id: 'c1', name: 'write_file', input: '{"path":"BIG.txt","content":"aaaa' };
    const ran: string[] = [];
    let turn = 0;
    const model: Model = {
      provider: 'test',
      modelId: 'scripted',
      async *stream() {
        turn++;
        if (turn === 1) {
          yield { type: 'tool-call', call: { id: 'c0', name: 'read_file', input: '{"path":"a"}' } };
          yield { type: 'tool-call', call: cut };
          yield { type: 'finish', reason: 'length' };
        } else if (turn === 2) {
          // Not at the limit: a broken call is the executor's to report (invalid JSON).
          yield { type: 'tool-call', call: { ...cut, id: 'c2' } };
          yield { type: 'finish', reason: 'tool-calls' };
        } else yield { type: 'text', delta: 'done' };
      },
    };
    const conversation = new Conversation('system', {
      maxTokens: 100_000,
      minRetainTurns: 5,
      pruneThreshold: 0.8,
    });
    conversation.push({ role: 'user', content: 'goal' });
    await runLoop(conversation, {
      model,
      executor: {
        specs: () => [],
        run: async (call) => {
          ran.push(`${call.id}: ${call.refused ?? 'ran'}`);
          return { content: call.refused ?? 'ran', isError: call.refused !== undefined };
        },
      },
      emit: () => {},
      workspace: '/ws',
      maxTurns: 4,
      signal: new AbortController().signal,
    });
    expect(ran).toEqual([
      'c0: ran',
      expect.stringMatching(/^c1: this write_file call was cut off by the model's output limit/),
      'c2: ran',
    ]);
  });
});
