// A conversation carried over to another provider: tool call ids every provider accepts (results follow their
// calls), the old provider's signatures dropped, and the note the user reads.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { carryOver, carryOverNote } from '../../src/providers/carry-over.js';

const call = (id: string, meta?: Record<string, Record<string, unknown>>): Message => ({
  role: 'assistant',
  content: '',
  reasoning: 'thought',
  toolCalls: [{ id, name: 'read_file', input: '{}', ...(meta ? { providerMetadata: meta } : {}) }],
});
const result = (id: string): Message => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'read_file',
  content: 'x',
});

describe('carryOver', () => {
  it.each([
    ['an AI SDK id of 41 characters (over OpenAI’s 40)', `call_${'0'.repeat(36)}`, true],
    ['an Anthropic toolu_ id (not Mistral’s 9 characters)', 'toolu_01A09q90qw90lq917835lq9', true],
    ['a Keel text-protocol id', 'text_call_6f1c2d', true],
    ['an empty id (Gemini sends none)', '', true],
    ['a Mistral id, already portable', 'D681PevKs', false],
  ])('%s gets an id every provider accepts, its result following', (_, id, rewritten) => {
    const out = carryOver([{ role: 'user', content: 'go' }, call(id), result(id)]);
    const newId = (out.messages[1] as Extract<Message, { role: 'assistant' }>).toolCalls![0]!.id;
    expect(newId).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(newId === id).toBe(!rewritten);
    expect((out.messages[2] as Extract<Message, { role: 'tool' }>).toolCallId).toBe(newId);
    expect(out.ids).toBe(rewritten ? 1 : 0);
  });

  it('drops provider signatures, keeps the reasoning text, and never reuses an id already in the conversation', () => {
    const out = carryOver([
      call('k00000001'),
      result('k00000001'),
      call('toolu_x', { google: { thoughtSignature: 'sig' } }),
      result('toolu_x'),
    ]);
    const second = out.messages[2] as Extract<Message, { role: 'assistant' }>;
    expect(second.toolCalls![0]).toEqual({ id: 'k00000002', name: 'read_file', input: '{}' });
    expect(second.reasoning).toBe('thought');
    expect(out.signatures).toBe(1);
    expect(carryOverNote('gemini', 'anthropic', out)).toBe(
      "conversation carried over from gemini to anthropic: 1 tool call id rewritten for anthropic; gemini's signatures on 1 tool call dropped (only gemini reads them)",
    );
  });

  it('says nothing when nothing needed converting', () => {
    expect(carryOverNote('ollama', 'openai', carryOver([{ role: 'user', content: 'hi' }]))).toBeUndefined();
  });
});
