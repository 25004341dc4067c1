// What tokens cost: USD from a usage count and a model's list price, when the price is known.
import type { Usage } from './messages.js';
import type { Price } from './model.js';

/**
 * USD for `usage` at `price`; undefined when the price is unknown. Cached input tokens (part of inputTokens) are
 * billed at the cache-read and cache-write prices, or at the input price where the model has none.
 */
export function usageCost(usage: Usage, price: Price | undefined): number | undefined {
  if (!price) return undefined;
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - read - write);
  const usd =
    (plain * price.inputPerMTok +
      read * (price.cacheReadPerMTok ?? price.inputPerMTok) +
      write * (price.cacheWritePerMTok ?? price.inputPerMTok) +
      usage.outputTokens * price.outputPerMTok) /
    1e6;
  // Whole nano-dollars: no floating-point tails like 0.00012000000000000002 in JSON.
  return Math.round(usd * 1e9) / 1e9;
}

/** `$1.23`, `$0.0042`, `$0`: two decimals, or two significant digits below a cent. */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  return `$${usd >= 0.01 ? usd.toFixed(2) : usd.toPrecision(2)}`;
}
