// What `keel sessions list` shows of a session (title, model turns, tokens with cached ones, cost, updated), kept
// as a running tally event by event: by the session store as it writes, or from a whole file read once. The cost
// adds up each model request's own (its usage event's cost_usd, at the price of the model that served it), so a
// session resumed on another provider or model costs what its runs' summaries said.
import { usageCost } from '../core/cost.js';
import type { AgentEvent } from '../core/events.js';
import type { Price } from '../core/model.js';
import type { SessionMeta, SessionRecord } from './session-file.js';

export interface SessionSummary {
  id: string;
  title: string;
  workspace: string;
  provider: string;
  model: string;
  started: string;
  updated: string;
  /** Model turns: one per answer the model gave (a chat message of the user may take many). */
  turns: number;
  /** Input tokens, cached ones included. */
  input_tokens: number;
  output_tokens: number;
  /** Of input_tokens: read from the provider's prompt cache. */
  cache_read_tokens: number;
  /** Of input_tokens: written to the provider's prompt cache. */
  cache_write_tokens: number;
  /** Dollars of the requests whose model's price is known; absent when none's is. */
  cost?: number;
  /** Present (true) when `cost` leaves out requests to models whose price is unknown. */
  cost_partial?: boolean;
}

/** Notes Keel adds in the user's role (pruning, "continue", an interrupted call): not turns of the user. */
export function isKeelNote(content: string): boolean {
  return content.startsWith('[Keel:');
}

/**
 * A user message on one line without what Keel appended to it (`…\n\n[Keel: …]` notes, the piped input after
 * `\n\nInput piped to keel on stdin` — see cli/piped-input.ts — and the chat's `@file` attachments, cli/chat-attach.ts);
 * empty for a note.
 */
export function titleOf(content: string): string {
  // A plan run's first message (plan/prompt.ts) is titled by the plan's goal, not its preamble.
  const goal = /^You are assisting with the following task:\n\nGOAL: (.*)/.exec(content)?.[1];
  if (goal !== undefined) return oneLine(goal);
  const own = content
    .split(/\n\nInput piped to keel on stdin\b/)[0]!
    .split(/\n\n<file path="/)[0]!
    .split(/\n\n(?=\[Keel:)/)
    .filter((part) => !isKeelNote(part))
    .join(' ');
  return oneLine(own);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}

type Line = AgentEvent & { time: string };
/** A usage line as read back: one written before requests were priced one by one has no provider or model. */
type StoredUsage = Omit<Extract<AgentEvent, { type: 'usage' }>, 'provider' | 'model'> & {
  provider?: string;
  model?: string;
};

const noTitle = '(no message)';

/**
 * What one request cost: its cost_usd, or undefined when its model's price is unknown. A usage line without its
 * model was written before requests were priced one by one: priced as then, at the price in the session's
 * metadata (that of the model the session started with).
 */
function requestCost(usage: StoredUsage, legacyPrice: Price | undefined): number | undefined {
  if (usage.model !== undefined) return usage.cost_usd;
  return usageCost(
    {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      cacheReadTokens: usage.cache_read_tokens ?? 0,
      cacheWriteTokens: usage.cache_write_tokens ?? 0,
    },
    legacyPrice,
  );
}

/** The running summary: add each event the session file holds, in order. */
export class SessionTally {
  private readonly summary: Omit<SessionSummary, 'cost' | 'cost_partial'>;
  /** Dollars of the priced requests so far. */
  private cost = 0;
  /** Whether any request was priced, and whether any with tokens was not. */
  private priced = false;
  private unpriced = false;
  private readonly legacyPrice: Price | undefined;

  constructor(meta: Omit<SessionMeta, 'type' | 'version'>, from?: SessionSummary) {
    if (from) {
      const { cost, cost_partial, ...rest } = from;
      this.summary = { ...rest, title: from.title === noTitle ? '' : from.title };
      this.priced = cost !== undefined;
      this.cost = cost ?? 0;
      this.unpriced =
        cost_partial === true || (cost === undefined && rest.input_tokens + rest.output_tokens > 0);
    } else {
      this.summary = {
        id: meta.id,
        title: '',
        workspace: meta.workspace,
        provider: meta.provider,
        model: meta.model,
        started: meta.started,
        updated: meta.started,
        turns: 0,
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
      };
    }
    this.legacyPrice = meta.price;
  }

  add(event: Line): void {
    const s = this.summary;
    s.updated = event.time;
    // A sub-agent's tokens are the session's cost too; its turns, messages and model are not the session's.
    if (event.type === 'usage') {
      s.input_tokens += event.input_tokens;
      s.output_tokens += event.output_tokens;
      s.cache_read_tokens += event.cache_read_tokens ?? 0;
      s.cache_write_tokens += event.cache_write_tokens ?? 0;
      this.addCost(requestCost(event, this.legacyPrice), event.input_tokens + event.output_tokens);
    } else if (event.parent !== undefined) return;
    else if (event.type === 'message' && event.role === 'assistant') s.turns += 1;
    else if (event.type === 'message' && event.role === 'user' && s.title === '')
      s.title = titleOf(event.content);
    else if (event.type === 'run_start') {
      s.provider = event.provider;
      s.model = event.model;
    }
  }

  private addCost(cost: number | undefined, tokens: number): void {
    if (cost === undefined) {
      if (tokens > 0) this.unpriced = true;
      return;
    }
    this.priced = true;
    // Whole nano-dollars, as usageCost's: no floating-point tails from adding many small costs.
    this.cost = Math.round((this.cost + cost) * 1e9) / 1e9;
  }

  get current(): SessionSummary {
    const s = this.summary;
    return {
      ...s,
      title: s.title || noTitle,
      ...(this.priced ? { cost: this.cost } : {}),
      ...(this.priced && this.unpriced ? { cost_partial: true } : {}),
    };
  }
}

/** A whole session file's summary. */
export function summarize(record: SessionRecord): SessionSummary {
  const tally = new SessionTally(record.meta);
  for (const event of record.events) tally.add(event);
  return tally.current;
}
