// Tokens and cost of a chat, per turn (one message of the user and all the model calls it took) and in total,
// each call at the price of the model that served it (`/model` may change it between turns): for the status line
// and /cost.
import { formatCost } from '../core/cost.js';
import type { UsageCounts } from '../core/events.js';
import type { Run } from '../runtime/assemble.js';
import { conversationBudget } from '../runtime/conversation.js';

export interface TurnUsage {
  /** The user's message, shortened. */
  label: string;
  model: string;
  /** Input tokens, cached ones included. */
  input: number;
  output: number;
  /** Of input: read from the provider's prompt cache. */
  cached: number;
  /** Of input: written to the provider's prompt cache (Anthropic's breakpoints; priced above plain input). */
  written: number;
  /** USD of the calls whose model's price is known. */
  cost?: number;
  /** Some call went to a model whose price is unknown: `cost` is the known part. */
  partial?: boolean;
}

export interface UsageTotal {
  input: number;
  output: number;
  cached: number;
  written: number;
  cost?: number;
  partial?: boolean;
}

/** `950`, `12.3k`, `1.2M`. */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** `1.2k in (900 cached, 200 to cache)`: the input, the part the provider's prompt cache served and the part written to it. */
export function formatInput(input: number, cached: number, written = 0): string {
  const parts = [
    ...(cached > 0 ? [`${formatTokens(cached)} cached`] : []),
    ...(written > 0 ? [`${formatTokens(written)} to cache`] : []),
  ];
  return `${formatTokens(input)} in${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

/** `12%`; a conversation that is there but under half a percent is `<1%`, never `0%`. */
export function contextPercent(tokens: number, budget: number): string {
  const used = Math.round((100 * tokens) / budget);
  return used === 0 && tokens > 0 ? '<1%' : `${used}%`;
}

/** `ollama/qwen3 · context 12% of 32k · 1.2k in (900 cached) / 300 out · $0.0012`: the status line after each turn. */
export function statusLine(
  model: string,
  context: { tokens: number; budget: number },
  total: UsageTotal,
): string {
  return [
    model,
    `context ${contextPercent(context.tokens, context.budget)} of ${formatTokens(context.budget)}`,
    `${formatInput(total.input, total.cached, total.written)} / ${formatTokens(total.output)} out`,
    ...(total.cost === undefined ? [] : [formatCost(total.cost, total.partial)]),
  ].join(' · ');
}

export class ChatUsage {
  readonly turns: TurnUsage[] = [];
  private current: TurnUsage | undefined;

  /** Another session began (/clear, /resume): its turns are counted from none. */
  clear(): void {
    this.turns.length = 0;
    this.current = undefined;
  }

  /** A new turn begins with the user's message. */
  begin(label: string, model: string): void {
    this.current = {
      label: label.replace(/\s+/g, ' ').slice(0, 40),
      model,
      input: 0,
      output: 0,
      cached: 0,
      written: 0,
    };
    this.turns.push(this.current);
  }

  /** One model call's usage event, with its cost at the price of the model that served it (a sub-agent's own). */
  add(usage: UsageCounts & { cost_usd?: number }): void {
    const turn = this.current;
    if (!turn) return;
    turn.input += usage.input_tokens;
    turn.output += usage.output_tokens;
    turn.cached += usage.cache_read_tokens ?? 0;
    turn.written += usage.cache_write_tokens ?? 0;
    if (usage.cost_usd !== undefined) turn.cost = (turn.cost ?? 0) + usage.cost_usd;
    else if (usage.input_tokens + usage.output_tokens > 0) turn.partial = true;
  }

  get total(): UsageTotal {
    const total: UsageTotal = { input: 0, output: 0, cached: 0, written: 0 };
    let unpriced = false;
    for (const t of this.turns) {
      total.input += t.input;
      total.output += t.output;
      total.cached += t.cached;
      total.written += t.written;
      if (t.cost !== undefined) total.cost = (total.cost ?? 0) + t.cost;
      // A turn with no known price at all leaves out its calls as much as a partly priced one.
      if (t.partial || (t.cost === undefined && t.input + t.output > 0)) unpriced = true;
    }
    if (unpriced && total.cost !== undefined) total.partial = true;
    return total;
  }

  /** /cost: one row per turn, then the session's total. */
  report(): string {
    if (this.turns.length === 0) return 'no turns yet in this session\n';
    const rows = this.turns.map((t, i) => [
      `${i + 1}.`,
      `${formatTokens(t.input)} in`,
      `${formatTokens(t.cached)} cached`,
      `${formatTokens(t.written)} to cache`,
      `${formatTokens(t.output)} out`,
      t.cost === undefined ? '-' : formatCost(t.cost, t.partial),
      `${t.model}  ${t.label}`,
    ]);
    const total = this.total;
    rows.push([
      'total',
      `${formatTokens(total.input)} in`,
      `${formatTokens(total.cached)} cached`,
      `${formatTokens(total.written)} to cache`,
      `${formatTokens(total.output)} out`,
      total.cost === undefined ? 'price unknown' : formatCost(total.cost, total.partial),
      '',
    ]);
    const columns = [0, 1, 2, 3, 4, 5];
    const widths = columns.map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
    return `${rows
      .map((r) =>
        r
          .map((cell, i) => (i < columns.length ? cell.padStart(widths[i] ?? 0) : cell))
          .join('  ')
          .trimEnd(),
      )
      .join('\n')}\n`;
  }
}

/** How full the context is: the last request as the provider counted it (tools too) plus what came since. */
export function contextUse(agent: Run): { tokens: number; budget: number } {
  const budget = conversationBudget(agent.loaded.config, agent.model.capabilities);
  return { tokens: agent.conversation.estimate, budget };
}

export const modelName = (agent: Run) => `${agent.model.provider}/${agent.model.modelId}`;
