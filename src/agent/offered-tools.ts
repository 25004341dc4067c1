// Which tools the model has been offered in this conversation, so a tool that joins later (an MCP server ready
// after the first request) is pointed out once in the next request: the tool list alone changes without a word.
import type { ToolSpec } from '../core/model.js';

/** Names listed in a note at most; the rest are counted. */
const maxNamed = 12;

export class OfferedTools {
  private readonly known = new Set<string>();
  private requested = false;

  /** Records the tools of a request. */
  sent(specs: readonly ToolSpec[]): void {
    this.requested = true;
    for (const spec of specs) this.known.add(spec.name);
  }

  /** A note naming the tools offered now that no earlier request had; none before the first request, once each. */
  note(specs: readonly ToolSpec[]): string | undefined {
    if (!this.requested) return undefined;
    const fresh = specs.map((spec) => spec.name).filter((name) => !this.known.has(name));
    if (fresh.length === 0) return undefined;
    for (const name of fresh) this.known.add(name);
    const named = fresh.slice(0, maxNamed).join(', ');
    const more = fresh.length > maxNamed ? ` and ${fresh.length - maxNamed} more` : '';
    return `[Keel: new tools are available: ${named}${more}]`;
  }
}
