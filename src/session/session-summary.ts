// What `keel sessions list` shows of a session (title, model turns, tokens with cached ones, cost, updated), kept
// as a running tally event by event: by the session store as it writes, or from a whole file read once.
import { usageCost } from '../core/cost.js';
import type { AgentEvent } from '../core/events.js';
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
  /** Dollars, when the price is known. */
  cost?: number;
}

/** Notes Keel adds in the user's role (pruning, "continue", an interrupted call): not turns of the user. */
export function isKeelNote(content: string): boolean {
  return content.startsWith('[Keel:');
}

/**
 * A user message on one line without what Keel appended to it (`…\n\n[Keel: …]` notes, the piped input after
 * `\n\nInput piped to keel on stdin` — see cli/piped-input.ts); empty for a note.
 */
export function titleOf(content: string): string {
  const own = content
    .split(/\n\nInput piped to keel on stdin\b/)[0]!
    .split(/\n\n(?=\[Keel:)/)
    .filter((part) => !isKeelNote(part))
    .join(' ');
  const line = own.replace(/\s+/g, ' ').trim();
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}

type Line = AgentEvent & { time: string };

const noTitle = '(no message)';

/** The running summary: add each event the session file holds, in order. */
export class SessionTally {
  private readonly summary: SessionSummary;

  constructor(meta: Omit<SessionMeta, 'type' | 'version'>, from?: SessionSummary) {
    this.summary = from
      ? { ...from, title: from.title === noTitle ? '' : from.title }
      : {
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
    this.price = meta.price;
  }

  private readonly price: SessionMeta['price'];

  add(event: Line): void {
    const s = this.summary;
    s.updated = event.time;
    // A sub-agent's tokens are the session's cost too; its turns, messages and model are not the session's.
    if (event.type === 'usage') {
      s.input_tokens += event.input_tokens;
      s.output_tokens += event.output_tokens;
      s.cache_read_tokens += event.cache_read_tokens ?? 0;
      s.cache_write_tokens += event.cache_write_tokens ?? 0;
    } else if (event.parent !== undefined) return;
    else if (event.type === 'message' && event.role === 'assistant') s.turns += 1;
    else if (event.type === 'message' && event.role === 'user' && s.title === '')
      s.title = titleOf(event.content);
    else if (event.type === 'run_start') {
      s.provider = event.provider;
      s.model = event.model;
    }
  }

  get current(): SessionSummary {
    const s = this.summary;
    const cost = usageCost(
      {
        inputTokens: s.input_tokens,
        outputTokens: s.output_tokens,
        cacheReadTokens: s.cache_read_tokens,
        cacheWriteTokens: s.cache_write_tokens,
      },
      this.price,
    );
    return { ...s, title: s.title || noTitle, ...(cost === undefined ? {} : { cost }) };
  }
}

/** A whole session file's summary. */
export function summarize(record: SessionRecord): SessionSummary {
  const tally = new SessionTally(record.meta);
  for (const event of record.events) tally.add(event);
  return tally.current;
}
