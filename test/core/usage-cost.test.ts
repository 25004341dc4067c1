// Usage with cached input: the SDK's counts mapped to Keel's, sums that keep the cached parts, and cost at each
// model's cache prices.
import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { usageCost } from '../../src/core/cost.js';
import { usageCounts, usageEvent } from '../../src/core/events.js';
import { addUsage, type Usage } from '../../src/core/messages.js';
import type { Model } from '../../src/core/model.js';
import { toUsage } from '../../src/providers/ai-sdk.js';
import { lookupModel } from '../../src/providers/capabilities.js';

const sdk = (input: Partial<LanguageModelV3Usage['inputTokens']>, output = 10): LanguageModelV3Usage => ({
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
    ...input,
  },
  outputTokens: { total: output, text: undefined, reasoning: undefined },
});

describe('usage from the AI SDK', () => {
  it.each<[string, LanguageModelV3Usage, Usage]>([
    ['no cache reported', sdk({ total: 100 }), { inputTokens: 100, outputTokens: 10 }],
    [
      'Anthropic read and write',
      sdk({ total: 1000, noCache: 100, cacheRead: 800, cacheWrite: 100 }),
      { inputTokens: 1000, outputTokens: 10, cacheReadTokens: 800, cacheWriteTokens: 100 },
    ],
    [
      'OpenAI read, zero write',
      sdk({ total: 500, cacheRead: 400, cacheWrite: 0 }),
      { inputTokens: 500, outputTokens: 10, cacheReadTokens: 400 },
    ],
    [
      'only the parts, no total',
      sdk({ noCache: 50, cacheRead: 200 }),
      { inputTokens: 250, outputTokens: 10, cacheReadTokens: 200 },
    ],
  ])('%s', (_, usage, expected) => {
    expect(toUsage(usage)).toEqual(expected);
  });

  it('sums keep the cached parts, and events carry them only when there are some', () => {
    const sum = addUsage(
      { inputTokens: 10, outputTokens: 1 },
      { inputTokens: 90, outputTokens: 2, cacheReadTokens: 80 },
    );
    expect(sum).toEqual({ inputTokens: 100, outputTokens: 3, cacheReadTokens: 80 });
    expect(usageCounts(sum)).toEqual({ input_tokens: 100, output_tokens: 3, cache_read_tokens: 80 });
    expect(usageCounts({ inputTokens: 5, outputTokens: 1 })).toEqual({ input_tokens: 5, output_tokens: 1 });
  });
});

describe('cost with cached input', () => {
  const million = (read: number, write: number): Usage => ({
    inputTokens: 1_000_000,
    outputTokens: 0,
    cacheReadTokens: read,
    cacheWriteTokens: write,
  });
  it.each<[string, Usage, number]>([
    // Anthropic: write 1.25×, read 0.1× the $3 input price.
    ['claude-sonnet-4-5', million(0, 0), 3],
    ['claude-sonnet-4-5', million(1_000_000, 0), 0.3],
    ['claude-sonnet-4-5', million(0, 1_000_000), 3.75],
    ['anthropic/claude-haiku-4-5', million(500_000, 500_000), 0.05 + 0.625],
    // OpenAI: gpt-5 reads at 0.1×, gpt-4.1 at 0.25×, gpt-4o at 0.5×; writes cost the input price.
    ['gpt-5', million(1_000_000, 0), 0.125],
    ['gpt-4.1', million(1_000_000, 0), 0.5],
    ['gpt-4o', million(1_000_000, 0), 1.25],
    ['gpt-4o', million(0, 1_000_000), 2.5],
    // Gemini 2.5: reads at 0.25×.
    ['gemini-2.5-pro', million(1_000_000, 0), 0.3125],
    ['gemini-2.5-flash', million(400_000, 0), 0.6 * 0.3 + 0.4 * 0.075],
  ])('%s: %o costs $%d', (model, usage, usd) => {
    expect(usageCost(usage, lookupModel(model)?.price)).toBeCloseTo(usd, 9);
  });

  it('prices cached tokens at the input price when the model has no cache price, and nothing without a price', () => {
    expect(usageCost(million(1_000_000, 0), { inputPerMTok: 2, outputPerMTok: 4 })).toBe(2);
    expect(usageCost(million(1_000_000, 0), undefined)).toBeUndefined();
  });
});

describe('usage events', () => {
  const model = (provider: string, modelId: string): Model => ({
    provider,
    modelId,
    capabilities: {
      id: modelId,
      source: 'table',
      ...(lookupModel(modelId)?.price ? { price: lookupModel(modelId)!.price! } : {}),
    },
    stream: () => {
      throw new Error('not called');
    },
  });
  it.each<[string, Model, Usage, object]>([
    [
      'a priced model: its cost, cached tokens at its cache prices',
      model('anthropic', 'claude-sonnet-4-5'),
      { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 1_000_000 },
      {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        input_tokens: 1_000_000,
        cache_read_tokens: 1_000_000,
        cost_usd: 0.3,
      },
    ],
    [
      'another priced model: its own price',
      model('openai-compatible', 'gpt-4o-mini'),
      { inputTokens: 1_000_000, outputTokens: 1_000_000 },
      { provider: 'openai-compatible', model: 'gpt-4o-mini', cost_usd: 0.75 },
    ],
    [
      'an unpriced model: no cost',
      model('ollama', 'qwen3'),
      { inputTokens: 1_000, outputTokens: 10 },
      { provider: 'ollama', model: 'qwen3', input_tokens: 1_000, output_tokens: 10 },
    ],
  ])('%s', (_, served, usage, expected) => {
    const event = usageEvent(3, usage, served);
    expect(event).toMatchObject({ type: 'usage', turn: 3, ...expected });
    if (!('cost_usd' in expected)) expect(event).not.toHaveProperty('cost_usd');
  });
});
