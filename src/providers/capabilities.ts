// What a model can do (context window, output limit, tools, streaming, images, price), from its server or the built-in table.
import type { ModelCapabilities } from '../core/model.js';
import { type ModelTableEntry, modelTable } from './model-table.js';

export type { ModelCapabilities };

/** What a server reported about a model; any field may be missing. */
export type ServerCapabilities = Omit<ModelCapabilities, 'source'>;

/** Characters that separate a model family from its variant: `llama3.1:8b`, `gpt-4.1-2025-04-14`, `qwen3-coder`. */
const boundary = /[-.:/_@]/;

/**
 * The table's entry for a model id: exact, then without an Ollama tag or OpenRouter suffix (`qwen3:8b`, `x:free`),
 * then without a vendor prefix (`anthropic/claude-sonnet-4`), then the longest family the id starts with
 * (`llama3.1-instruct` → `llama3.1`, else `llama3`).
 */
export function lookupModel(id: string): ModelTableEntry | undefined {
  const lower = id.toLowerCase();
  const candidates = [lower, lower.replace(/:[^/]*$/, '')];
  for (const candidate of [...candidates]) {
    const slash = candidate.lastIndexOf('/');
    if (slash !== -1) candidates.push(candidate.slice(slash + 1));
  }
  for (const candidate of candidates) {
    const exact = modelTable.find((entry) => entry.id === candidate);
    if (exact) return exact;
  }
  let best: ModelTableEntry | undefined;
  for (const candidate of candidates) {
    for (const entry of modelTable) {
      const next = candidate.charAt(entry.id.length);
      if (!candidate.startsWith(entry.id) || !boundary.test(next)) continue;
      if (!best || entry.id.length > best.id.length) best = entry;
    }
  }
  return best;
}

/** A model's capabilities: what the server said, with gaps filled from the table. */
export function capabilitiesOf(id: string, server?: ServerCapabilities): ModelCapabilities {
  const entry = lookupModel(id);
  const merged: ModelCapabilities = { id, source: server ? 'server' : entry ? 'table' : 'unknown' };
  const fields = ['contextWindow', 'maxOutput', 'tools', 'streaming', 'images', 'price'] as const;
  for (const field of fields) {
    const value = server?.[field] ?? entry?.[field];
    if (value !== undefined) Object.assign(merged, { [field]: value });
  }
  return merged;
}

/** Room kept for the answer: the model's output limit, at most 16k tokens and a quarter of the window. */
const defaultOutputRoom = 8192;
const maxOutputRoom = 16_384;

/**
 * Tokens of the window the conversation may use, leaving room for the answer; undefined when the window is unknown.
 * The conversation's own budget (agent.conversation.max_tokens) is the min of this and the configured one.
 */
export function promptBudget(capabilities: ModelCapabilities | undefined): number | undefined {
  const window = capabilities?.contextWindow;
  if (window === undefined || window <= 0) return undefined;
  const room = Math.min(capabilities?.maxOutput ?? defaultOutputRoom, maxOutputRoom, Math.floor(window / 4));
  return window - room;
}
