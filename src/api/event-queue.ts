// Events pushed by the run, pulled by the caller's `for await`: an unbounded queue the run never waits on (the
// loop emits synchronously), ended once the run has settled.
import type { AgentEvent } from '../core/events.js';

export class EventQueue {
  private readonly items: AgentEvent[] = [];
  private wake: (() => void) | undefined;
  private ended = false;

  push = (event: AgentEvent): void => {
    if (this.ended) return;
    this.items.push(event);
    this.notify();
  };

  end(): void {
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *drain(): AsyncGenerator<AgentEvent, void, undefined> {
    for (;;) {
      const next = this.items.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}
