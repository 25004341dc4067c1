// Tokens and cost of a chat, per turn (one message of the user and all the model calls it took) and in total,
// priced at the model of the moment (`/model` may change it between turns): for the status line and /cost.
import { formatCost, usageCost } from '../core/cost.js';
import type { ModelCapabilities } from '../core/model.js';

export interface TurnUsage {
  /** The user's message, shortened. */
  label: string;
  model: string;
  input: number;
  output: number;
  /** USD, when the model's price is known. */
  cost?: number;
}

/** `950`, `12.3k`, `1.2M`. */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** `ollama/qwen3 · context 12% of 32k · 1.2k in / 300 out · $0.0012`: the status line after each turn. */
export function statusLine(
  model: string,
  context: { tokens: number; budget: number },
  total: { input: number; output: number; cost?: number },
): string {
  const used = Math.round((100 * context.tokens) / context.budget);
  return [
    model,
    `context ${used}% of ${formatTokens(context.budget)}`,
    `${formatTokens(total.input)} in / ${formatTokens(total.output)} out`,
    ...(total.cost === undefined ? [] : [formatCost(total.cost)]),
  ].join(' · ');
}

export class ChatUsage {
  readonly turns: TurnUsage[] = [];
  private current: TurnUsage | undefined;

  /** A new turn begins with the user's message. */
  begin(label: string, model: string): void {
    this.current = { label: label.replace(/\s+/g, ' ').slice(0, 40), model, input: 0, output: 0 };
    this.turns.push(this.current);
  }

  /** One model call's usage, priced at `price`. */
  add(input: number, output: number, price: ModelCapabilities['price']): void {
    const turn = this.current;
    if (!turn) return;
    turn.input += input;
    turn.output += output;
    const cost = usageCost({ inputTokens: input, outputTokens: output }, price);
    if (cost !== undefined) turn.cost = (turn.cost ?? 0) + cost;
  }

  get total(): { input: number; output: number; cost?: number } {
    let input = 0;
    let output = 0;
    let cost: number | undefined;
    for (const t of this.turns) {
      input += t.input;
      output += t.output;
      if (t.cost !== undefined) cost = (cost ?? 0) + t.cost;
    }
    return cost === undefined ? { input, output } : { input, output, cost };
  }

  /** /cost: one row per turn, then the session's total. */
  report(): string {
    if (this.turns.length === 0) return 'no turns yet in this chat\n';
    const rows = this.turns.map((t, i) => [
      `${i + 1}.`,
      `${formatTokens(t.input)} in`,
      `${formatTokens(t.output)} out`,
      t.cost === undefined ? '-' : formatCost(t.cost),
      `${t.model}  ${t.label}`,
    ]);
    const total = this.total;
    rows.push([
      'total',
      `${formatTokens(total.input)} in`,
      `${formatTokens(total.output)} out`,
      total.cost === undefined ? 'price unknown' : formatCost(total.cost),
      '',
    ]);
    const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
    return `${rows
      .map((r) =>
        r
          .map((cell, i) => (i < 4 ? cell.padStart(widths[i] ?? 0) : cell))
          .join('  ')
          .trimEnd(),
      )
      .join('\n')}\n`;
  }
}
