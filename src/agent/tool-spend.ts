// What a run's tools spent on model requests of their own (a sub-agent's run, web_fetch condensing a page): taken
// into the run's totals when it ends (its run_end, the summary line, --output json, the library's result), each
// part priced at its own model's list price.
import { addUsage, type Usage } from '../core/messages.js';

export interface Spent {
  usage: Usage;
  /** Undefined when any part's price is unknown. */
  costUsd?: number;
}

export class ToolSpend {
  #usage: Usage | undefined;
  #cost = 0;
  #priced = true;

  /** A request's usage and its cost (undefined: the price is unknown). */
  add(usage: Usage, costUsd: number | undefined): void {
    this.#usage = this.#usage ? addUsage(this.#usage, usage) : usage;
    if (costUsd === undefined) this.#priced = false;
    else this.#cost += costUsd;
  }

  /** What was spent since the last take, or undefined for nothing; the tally starts again. */
  take(): Spent | undefined {
    const usage = this.#usage;
    if (!usage) return undefined;
    const spent: Spent = { usage, ...(this.#priced ? { costUsd: this.#cost } : {}) };
    this.#usage = undefined;
    this.#cost = 0;
    this.#priced = true;
    return spent;
  }
}

/** A run's own usage and cost with what its tools spent since the last take; the cost unknown if either part's is. */
export function withToolSpend(own: Spent, spend: ToolSpend | undefined): Spent {
  const spent = spend?.take();
  if (!spent) return own;
  const usage = addUsage(own.usage, spent.usage);
  return own.costUsd === undefined || spent.costUsd === undefined
    ? { usage }
    : { usage, costUsd: own.costUsd + spent.costUsd };
}
