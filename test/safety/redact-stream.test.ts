// The redacting event sink: a secret split across streamed deltas is redacted whole, and nothing is lost or reordered.
import { expect, test } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { redactingSink } from '../../src/safety/redact-stream.js';

const SECRET = 'sk-live-0123456789abcdef';
const redact = (text: string) => text.replaceAll(SECRET, '[REDACTED]');

function collect(deltas: string[]): { events: AgentEvent[]; text: string } {
  const events: AgentEvent[] = [];
  const sink = redactingSink((e) => void events.push(e), redact);
  for (const delta of deltas) sink({ type: 'text_delta', turn: 1, delta });
  sink({ type: 'turn_end', turn: 1 } as AgentEvent);
  const text = events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join('');
  return { events, text };
}

test.each([
  [['the key is sk-live-0123', '456789abcdef, keep it']],
  [['the key is s', 'k-live-0123456789abcde', 'f\n']],
  [[`${SECRET}`]],
  [['a', ' ', SECRET.slice(0, 5), SECRET.slice(5), ' b']],
])('a secret split across deltas %j never appears, and the rest of the text is kept', (deltas) => {
  const { events, text } = collect(deltas);
  const joined = deltas.join('');
  expect(text).toBe(redact(joined));
  expect(JSON.stringify(events)).not.toContain('0123456789abcdef');
  // Held text is released before the next event.
  expect(events.at(-1)?.type).toBe('turn_end');
});

test('text streams on at each word end instead of waiting for the turn', () => {
  const events: AgentEvent[] = [];
  const sink = redactingSink((e) => void events.push(e), redact);
  sink({ type: 'text_delta', turn: 1, delta: 'hello wor' });
  expect(events).toEqual([{ type: 'text_delta', turn: 1, delta: 'hello ' }]);
});

test("a sub-agent's deltas keep their parent, and two sub-agents' words are never joined", () => {
  const events: AgentEvent[] = [];
  const sink = redactingSink((e) => void events.push(e), redact);
  sink({ type: 'text_delta', turn: 1, delta: 'first sk-live', parent: 't1' });
  sink({ type: 'text_delta', turn: 1, delta: 'second word', parent: 't2' });
  sink({ type: 'text_delta', turn: 1, delta: '-0123456789abcdef done', parent: 't1' });
  sink({ type: 'reasoning_delta', turn: 1, delta: 'thinking ', parent: 't2' });
  sink({ type: 'turn_end', turn: 1 } as AgentEvent);
  const by = (parent: string) =>
    events
      .filter((e) => e.type === 'text_delta' && e.parent === parent)
      .map((e) => (e.type === 'text_delta' ? e.delta : ''))
      .join('');
  expect(by('t1')).toBe('first [REDACTED] done');
  expect(by('t2')).toBe('second word');
  expect(events).toContainEqual({ type: 'reasoning_delta', turn: 1, delta: 'thinking ', parent: 't2' });
  expect(events.every((e) => e.type === 'turn_end' || e.parent !== undefined)).toBe(true);
});
