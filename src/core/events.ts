// The one typed event stream: everything the agent does is an event; renderers, JSON output,
// session store and audit subscribe. Each event serialises to one JSON line (field names in snake_case,
// as `--output stream-json` prints them).
export type RunEndReason = 'done' | 'turn-limit' | 'interrupted' | 'failed';

export type AgentEvent =
  | { type: 'run_start'; provider: string; model: string; workspace: string }
  | { type: 'turn_start'; turn: number }
  | { type: 'text_delta'; turn: number; delta: string }
  | { type: 'reasoning_delta'; turn: number; delta: string }
  | { type: 'tool_call'; turn: number; id: string; name: string; args: unknown }
  | { type: 'citation'; turn: number; url: string; title?: string }
  | { type: 'approval_requested'; id: string; name: string; reason: string }
  | { type: 'approval_answered'; id: string; approved: boolean }
  | {
      type: 'tool_result';
      turn: number;
      id: string;
      name: string;
      success: boolean;
      /** What the user sees (a short summary, a diff); the model reads the full output. */
      display: string;
      error?: string;
      truncated: boolean;
      metadata: Record<string, string | number | boolean>;
    }
  | { type: 'usage'; turn: number; input_tokens: number; output_tokens: number }
  /** The model call failed and is sent again after delay_ms; the turn's partial text so far is void. */
  | { type: 'retry'; turn: number; attempt: number; max: number; delay_ms: number; reason: string }
  | { type: 'warning'; message: string }
  | { type: 'error'; code: string; message: string; hint?: string }
  | { type: 'turn_end'; turn: number; tool_calls: number }
  | {
      type: 'run_end';
      reason: RunEndReason;
      answer: string;
      turns: number;
      tool_calls: number;
      usage: { input_tokens: number; output_tokens: number };
    };

export type EventSink = (event: AgentEvent) => void;

/** Fans one event out to several consumers. */
export function fanOut(...sinks: EventSink[]): EventSink {
  return (event) => {
    for (const sink of sinks) sink(event);
  };
}
