// The conversation as Keel sees it: provider-neutral messages and tool calls.

export interface ToolCall {
  id: string;
  name: string;
  /** Arguments as the model sent them: a JSON text (possibly invalid; the executor judges). */
  input: string;
  /** Opaque provider data to send back with this call (Gemini thought signatures, OpenRouter reasoning details). */
  providerMetadata?: Record<string, Record<string, unknown>>;
  /** Set by the loop for a call refused before it runs (arguments over the size limit): the error it gets. */
  refused?: string;
}

export interface Usage {
  /** Every input token of the request, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens: read from the provider's prompt cache (billed at its cache-read price). */
  cacheReadTokens?: number;
  /** Of inputTokens: written to the provider's prompt cache (Anthropic bills these above the input price). */
  cacheWriteTokens?: number;
}

export type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; reasoning?: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string; isError?: boolean };

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  const read = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  const write = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  if (read > 0) sum.cacheReadTokens = read;
  if (write > 0) sum.cacheWriteTokens = write;
  return sum;
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0 });
