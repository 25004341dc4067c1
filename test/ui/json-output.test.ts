// JSON lines: C1 controls and bidi overrides are escaped on the wire, and parse back to the same text.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { createJsonOutput, jsonLine } from '../../src/ui/json-output.js';

describe('jsonLine', () => {
  it('escapes what a terminal would act on, keeping the value the same', () => {
    const value = { text: 'a\u202eb\u009bc\u0007\nd', ok: 'plain é' };
    const line = jsonLine(value);
    expect(line).toBe('{"text":"a\\u202eb\\u009bc\\u0007\\nd","ok":"plain é"}\n');
    expect(JSON.parse(line)).toEqual(value);
  });
});

describe('createJsonOutput', () => {
  it("lists the run's cited sources once each under the answer", () => {
    let written = '';
    const sink = createJsonOutput({ write: (text: string) => (written += text) } as never, {
      provider: 'p',
      model: 'm',
    });
    for (const event of [
      { type: 'citation', turn: 1, url: 'https://a.example/', title: 'A' },
      { type: 'citation', turn: 2, url: 'https://a.example/' },
      { type: 'citation', turn: 2, url: 'https://b.example/' },
      {
        type: 'run_end',
        answer: 'done',
        reason: 'done',
        turns: 2,
        usage: { inputTokens: 1, outputTokens: 1 },
      },
    ] as AgentEvent[])
      sink(event);
    expect(JSON.parse(written).citations).toEqual([
      { url: 'https://a.example/', title: 'A' },
      { url: 'https://b.example/' },
    ]);
  });
});
