// The one interface the agent loop sees: messages and tool specs in, model events out. Providers implement it
// (src/providers/), record and replay wrap it. No wire format crosses it.
import type { Message, ToolCall, Usage } from './messages.js';

/** USD per million tokens; cached input at its own prices where the provider has them (else the input price). */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheReadPerMTok?: number;
  cacheWritePerMTok?: number;
}

export interface ModelCapabilities {
  /** The model id as the provider names it (`qwen3:latest`, `anthropic/claude-sonnet-4`). */
  id: string;
  /** Tokens of prompt plus answer the model accepts. */
  contextWindow?: number;
  /** Longest answer in tokens. */
  maxOutput?: number;
  tools?: boolean;
  streaming?: boolean;
  /** Reads images in messages and tool results (vision). */
  images?: boolean;
  /** USD per million tokens. */
  price?: Price;
  /** `server`: the provider said so (gaps may be filled from the table); `table`: Keel's table only; `unknown`: neither. */
  source: 'server' | 'table' | 'unknown';
}

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
  /** Sampling temperature (0: the most likely answer, as the LLM evals ask); absent: the provider's default. */
  temperature?: number;
  /**
   * Called on every chunk the provider receives, including ones that make no event (tool argument fragments,
   * keep-alives), so the retry wrapper's idle timer sees a stream that is slow but alive.
   */
  onActivity?: () => void;
  /** Search the web with the provider's own search tool in this request (Model.webSearch), up to this many results. */
  webSearch?: { maxResults: number };
}

export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'other';

/** What one response streams; cassettes hold exactly these. */
export type ResponseEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'tool-call'; call: ToolCall }
  /** A source the answer cites (web search results and annotations). */
  | { type: 'citation'; url: string; title?: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason };

export type ModelEvent =
  | ResponseEvent
  /**
   * The response failed and is asked again after delayMs (attempt of max). Everything this response streamed so
   * far is void: the consumer discards the partial turn. Only the retry wrapper yields it.
   */
  | { type: 'retry'; attempt: number; max: number; delayMs: number; reason: string }
  /** Something the user should know about this response, not part of it (a replay of another run's cassette). */
  | { type: 'warning'; message: string };

export interface Model {
  /** Provider name as the user selects it (`ollama`, `openai-compatible`, `replay`). */
  readonly provider: string;
  readonly modelId: string;
  /** Context window, output limit, tool support and price as far as known before the first request (no network). */
  readonly capabilities?: ModelCapabilities;
  /** The provider's own web search, asked with ModelRequest.webSearch; `url`: its API, which the policy judges. */
  readonly webSearch?: { url: string };
  /** Streams one model response. Throws KeelError subclasses for failures the user must act on. */
  stream(request: ModelRequest): AsyncIterable<ModelEvent>;
}
