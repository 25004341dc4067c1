// The event stream: synchronous and durable consumers, flush, and the message events round trip.
import { describe, expect, it } from 'vitest';
import { createEventStream, messageEvent, messageFromEvent } from '../../src/core/events.js';
import type { Message } from '../../src/core/messages.js';

describe('createEventStream', () => {
  it('flush waits for every write of a durable consumer, and reports its failure once', async () => {
    const written: string[] = [];
    const durable = async (event: { type: string }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (event.type === 'warning') throw new Error('disk full');
      written.push(event.type);
    };
    const seen: string[] = [];
    const stream = createEventStream((e) => void seen.push(e.type), durable);
    stream.emit({ type: 'turn_start', turn: 1 });
    expect(seen).toEqual(['turn_start']);
    expect(written).toEqual([]);
    await stream.flush();
    expect(written).toEqual(['turn_start']);
    stream.emit({ type: 'warning', message: 'x' });
    await expect(stream.flush()).rejects.toThrow('disk full');
    await expect(stream.flush()).resolves.toBeUndefined();
  });
});

describe('message events', () => {
  it('round-trip every kind of message, provider metadata included', () => {
    const messages: Message[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
      {
        role: 'assistant',
        content: '',
        reasoning: 'r',
        toolCalls: [
          { id: '1', name: 'read_file', input: '{"path":"a"}', providerMetadata: { google: { sig: 'x' } } },
        ],
      },
      { role: 'tool', toolCallId: '1', toolName: 'read_file', content: 'Error: no', isError: true },
    ];
    expect(messages.map((m) => messageFromEvent(messageEvent(m)))).toEqual(messages);
    expect(messageEvent(messages[2]!)).toMatchObject({
      tool_calls: [{ provider_metadata: { google: { sig: 'x' } } }],
    });
  });
});
