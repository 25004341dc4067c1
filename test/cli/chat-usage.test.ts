// The chat's status line and /cost show the cached part of the input and price it at the model's cache rates.
import { describe, expect, it } from 'vitest';
import { ChatUsage, contextPercent, statusLine } from '../../src/cli/chat-usage.js';

const sonnet = { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 };

describe('chat usage', () => {
  it('adds cached tokens per turn and prices them at the cache rates', () => {
    const usage = new ChatUsage();
    usage.begin('fix the tests', 'anthropic/claude-sonnet-4-5');
    usage.add({ input_tokens: 10_000, output_tokens: 100, cache_write_tokens: 9_000 }, sonnet);
    usage.add(
      { input_tokens: 11_000, output_tokens: 100, cache_read_tokens: 9_000, cache_write_tokens: 1_000 },
      sonnet,
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

  it('says nothing of caching when the provider reported none', () => {
    const usage = new ChatUsage();
    usage.begin('hi', 'ollama/qwen3');
    usage.add({ input_tokens: 1_200, output_tokens: 300 }, undefined);
    expect(statusLine('ollama/qwen3', { tokens: 1_500, budget: 32_000 }, usage.total)).toBe(
      'ollama/qwen3 · context 5% of 32.0k · 1.2k in / 300 out',
    );
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
