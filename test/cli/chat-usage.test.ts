// The chat's status line and /cost show the cached part of the input, and each call at the price of the model that
// served it (its usage event's cost).
import { describe, expect, it } from 'vitest';
import { ChatUsage, contextPercent, statusLine } from '../../src/cli/chat-usage.js';
import { usageEvent } from '../../src/core/events.js';
import type { Model, Price } from '../../src/core/model.js';

const sonnetPrice = { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 };
const model = (provider: string, modelId: string, price?: Price): Model => ({
  provider,
  modelId,
  capabilities: { id: modelId, source: 'table', ...(price ? { price } : {}) },
  stream: () => {
    throw new Error('not called');
  },
});
const sonnet = model('anthropic', 'claude-sonnet-4-5', sonnetPrice);

describe('chat usage', () => {
  it('adds cached tokens per turn and prices them at the cache rates', () => {
    const usage = new ChatUsage();
    usage.begin('fix the tests', 'anthropic/claude-sonnet-4-5');
    usage.add(usageEvent(1, { inputTokens: 10_000, outputTokens: 100, cacheWriteTokens: 9_000 }, sonnet));
    usage.add(
      usageEvent(
        2,
        { inputTokens: 11_000, outputTokens: 100, cacheReadTokens: 9_000, cacheWriteTokens: 1_000 },
        sonnet,
      ),
    );
    expect(usage.total).toMatchObject({ input: 21_000, output: 200, cached: 9_000, written: 10_000 });
    // 1,000 + 1,000 plain at $3, 9,000 read at $0.30, 10,000 written at $3.75, 200 out at $15.
    expect(usage.total.cost).toBeCloseTo((2_000 * 3 + 9_000 * 0.3 + 10_000 * 3.75 + 200 * 15) / 1e6, 9);
    expect(statusLine('anthropic/claude-sonnet-4-5', { tokens: 20_000, budget: 100_000 }, usage.total)).toBe(
      'anthropic/claude-sonnet-4-5 · context 20% of 100.0k · 21.0k in (9.0k cached, 10.0k to cache) / 200 out · $0.05',
    );
    expect(usage.report()).toMatch(
      /^ {3}1\. {2}21\.0k in {2}9\.0k cached {2}10\.0k to cache {2}200 out {2}\$0\.05 {2}anthropic/m,
    );
  });

  it("prices a sub-agent's call at its own model's price, and an unpriced model's at nothing", () => {
    const usage = new ChatUsage();
    usage.begin('delegate', 'anthropic/claude-sonnet-4-5');
    usage.add(usageEvent(1, { inputTokens: 1_000_000, outputTokens: 0 }, sonnet));
    usage.add(
      usageEvent(
        1,
        { inputTokens: 1_000_000, outputTokens: 0 },
        model('openai', 'gpt-4o-mini', { inputPerMTok: 0.15, outputPerMTok: 0.6 }),
      ),
    );
    usage.add(usageEvent(1, { inputTokens: 1_000_000, outputTokens: 0 }, model('ollama', 'qwen3')));
    expect(usage.total).toMatchObject({ input: 3_000_000, cost: 3.15, partial: true });
    // The known part, marked: some calls had no known price.
    expect(statusLine('anthropic/claude-sonnet-4-5', { tokens: 0, budget: 100_000 }, usage.total)).toMatch(
      / · \$3\.15\+$/,
    );
    expect(usage.report()).toMatch(/^total .* \$3\.15\+$/m);
  });

  it('says nothing of caching when the provider reported none', () => {
    const usage = new ChatUsage();
    usage.begin('hi', 'ollama/qwen3');
    usage.add(usageEvent(1, { inputTokens: 1_200, outputTokens: 300 }, model('ollama', 'qwen3')));
    expect(statusLine('ollama/qwen3', { tokens: 1_500, budget: 32_000 }, usage.total)).toBe(
      'ollama/qwen3 · context 5% of 32.0k · 1.2k in / 300 out',
    );
  });

  it('counts a new session from none: /cost and the status line leave out the one before /clear', () => {
    const usage = new ChatUsage();
    usage.begin('before', 'ollama/qwen3');
    usage.add(usageEvent(1, { inputTokens: 1_200, outputTokens: 300 }, model('ollama', 'qwen3')));
    usage.clear();
    expect(usage.report()).toBe('no turns yet in this session\n');
    usage.add(usageEvent(1, { inputTokens: 5, outputTokens: 5 }, model('ollama', 'qwen3')));
    usage.begin('after', 'ollama/qwen3');
    usage.add(usageEvent(1, { inputTokens: 100, outputTokens: 20 }, model('ollama', 'qwen3')));
    expect(usage.total).toMatchObject({ input: 100, output: 20 });
    expect(usage.report()).toMatch(/^ {3}1\. {2}100 in .* ollama\/qwen3 {2}after$/m);
  });
});

describe('contextPercent', () => {
  it.each([
    [0, 100_000, '0%'],
    [300, 100_000, '<1%'],
    [2_500, 100_000, '3%'],
    [50_000, 100_000, '50%'],
  ])('%d of %d tokens is %s', (tokens, budget, shown) => {
    expect(contextPercent(tokens, budget)).toBe(shown);
  });
});
