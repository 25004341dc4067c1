// The one interface the agent loop sees. Providers implement it; record and replay wrap it.
// No wire format crosses it.
import type { Message, ToolCall, Usage } from '../core/messages.js';

/** A tool as offered to the model: name, description and JSON Schema of its input. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  messages: Message[];
  tools: ToolSpec[];
  signal: AbortSignal;
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'other';

export type ModelEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'tool-call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason };

export interface Model {
  /** Provider name as the user selects it (`ollama`, `openai-compatible`, `replay`). */
  readonly provider: string;
  readonly modelId: string;
  /** Streams one model response. Throws KeelError subclasses for failures the user must act on. */
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
}
