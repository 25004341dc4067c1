// The run's summary line and cost: wording, counts of distinct changed files, cost only when the price is known.
import { describe, expect, it } from 'vitest';
import { formatCost, usageCost } from '../../src/core/cost.js';
import type { AgentEvent } from '../../src/core/events.js';
import { createRunSummary, formatDuration } from '../../src/ui/run-summary.js';
import { createStyle } from '../../src/ui/style.js';

const runEnd = (cost?: number): AgentEvent => ({
  type: 'run_end',
  reason: 'done',
  answer: 'ok',
  turns: 2,
  tool_calls: 1,
  usage: { input_tokens: 12345, output_tokens: 678, ...(cost === undefined ? {} : { cost_usd: cost }) },
});

const result = (changed?: string[]): AgentEvent => ({
  type: 'tool_result',
  turn: 1,
  id: 'c',
  name: 'write_file',
  success: true,
  display: '',
  truncated: false,
  metadata: {},
  duration_ms: 1,
  ...(changed ? { changed } : {}),
});

function summarise(events: AgentEvent[], elapsedMs = 4200): string {
  let written = '';
  let clock = 1000;
  const sink = createRunSummary({
    stderr: { write: (text: string) => (written += text) } as unknown as NodeJS.WritableStream,
    style: createStyle(false),
    now: () => clock,
  });
  sink({ type: 'run_start', provider: 'p', model: 'm', workspace: '/w' });
  for (const event of events) {
    if (event.type === 'run_end') clock += elapsedMs;
    sink(event);
  }
  return written;
}

describe('the run summary line', () => {
  it('says when every tool call was refused', () => {
    const refused = { ...result(), success: false, metadata: { policy: 'deny' } } as AgentEvent;
    expect(summarise([refused, runEnd()])).toContain('· 1 tool call (refused) ·');
    const declined = { ...result(), success: false, metadata: { policy: 'declined' } } as AgentEvent;
    const two = { ...runEnd(), tool_calls: 2 } as AgentEvent;
    expect(summarise([refused, declined, two])).toContain('· 2 tool calls (all refused) ·');
    expect(summarise([refused, result(), two])).toContain('· 2 tool calls ·');
  });

  it('prints nothing for a run that failed before the model answered, only its error', () => {
    const failed = { ...runEnd(), reason: 'failed', turns: 1, tool_calls: 0 } as AgentEvent;
    expect(summarise([{ type: 'turn_start', turn: 1 }, failed])).toBe('');
    const usage = { type: 'usage', turn: 1, provider: 'p', model: 'm', input_tokens: 5, output_tokens: 1 };
    expect(summarise([usage as AgentEvent, failed])).toMatch(/^1 turn · 0 tool calls/);
  });

  it('counts turns, tool calls, tokens, cost, time and the distinct files file tools changed', () => {
    const line = summarise([result(['/w/a']), result(['/w/a', '/w/b']), result(), runEnd(0.0123)]);
    expect(line).toBe(
      '2 turns · 1 tool call · 12,345 tokens in, 678 out · $0.01 · 4.2 s · 2 files changed by file tools\n',
    );
  });

  it('says how much of the input the prompt cache served', () => {
    const cached = {
      ...runEnd(),
      usage: { input_tokens: 12345, output_tokens: 678, cache_read_tokens: 9000 },
    };
    expect(summarise([cached as AgentEvent])).toContain('· 12,345 tokens in (9,000 cached), 678 out ·');
  });

  it('leaves the cost out when the price is unknown', () => {
    expect(summarise([runEnd()], 75_000)).toBe(
      '2 turns · 1 tool call · 12,345 tokens in, 678 out · 1 min 15 s · 0 files changed by file tools\n',
    );
  });

  it('formats durations and costs briefly', () => {
    expect([formatDuration(800), formatDuration(12_400), formatDuration(125_000)]).toEqual([
      '0.8 s',
      '12 s',
      '2 min 5 s',
    ]);
    expect([formatCost(0), formatCost(0.0042), formatCost(1.234)]).toEqual(['$0', '$0.0042', '$1.23']);
    // The known part of a total that leaves out requests to unpriced models.
    expect([formatCost(0.0042, true), formatCost(1.234, true)]).toEqual(['$0.0042+', '$1.23+']);
  });
});

describe('usageCost', () => {
  it('prices input and output tokens per million, or says nothing without a price', () => {
    const usage = { inputTokens: 2_000_000, outputTokens: 100_000 };
    expect(usageCost(usage, { inputPerMTok: 3, outputPerMTok: 15 })).toBe(7.5);
    expect(
      usageCost({ inputTokens: 1200, outputTokens: 300 }, { inputPerMTok: 0.15, outputPerMTok: 0.6 }),
    ).toBe(0.00036);
    expect(usageCost(usage, undefined)).toBeUndefined();
  });
});
