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

/**
 * `$1.23`, `$0.0042`, `$0`: two decimals, or two significant digits below a cent; `$1.23+` when `partial`: the
 * known part of a total that leaves out requests to models whose price is unknown.
 */
export function formatCost(usd: number, partial = false): string {
  const text = usd === 0 ? '$0' : `$${usd >= 0.01 ? usd.toFixed(2) : usd.toPrecision(2)}`;
  return partial ? `${text}+` : text;
}
