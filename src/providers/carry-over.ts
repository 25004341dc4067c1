// A conversation carried over to another provider (/model <provider>/<model>, --provider with --continue). Keel's
// messages are provider-neutral but for two things: tool call ids, whose format each provider has its own rules
// for (OpenAI at most 40 characters, Anthropic [A-Za-z0-9_-], Mistral exactly 9 letters or digits, Gemini none),
// and provider metadata on tool calls (Gemini thought signatures, OpenRouter reasoning details), which only the
// provider that signed it accepts. Images travel as they are: each adapter sends them in its own wire format.
import type { Message, ToolCall } from '../core/messages.js';

export interface CarriedOver {
  messages: Message[];
  /** Tool call ids rewritten to a form every provider accepts. */
  ids: number;
  /** Tool calls whose provider metadata (signatures, reasoning details) was dropped. */
  signatures: number;
}

/** Nine letters or digits: within every provider's rules (Mistral's being the narrowest). */
const PORTABLE_ID = /^[A-Za-z0-9]{9}$/;

const portableId = (n: number) => `k${n.toString(36).padStart(8, '0')}`;

/** The messages with portable tool call ids (results follow their calls) and no provider metadata. */
export function carryOver(messages: readonly Message[]): CarriedOver {
  const renamed = new Map<string, string>();
  // Ids already portable (an earlier carry-over's) stay, and no new one may take theirs.
  const taken = new Set<string>();
  for (const m of messages)
    if (m.role === 'tool' && PORTABLE_ID.test(m.toolCallId)) taken.add(m.toolCallId);
    else if (m.role === 'assistant')
      for (const c of m.toolCalls ?? []) if (PORTABLE_ID.test(c.id)) taken.add(c.id);
  let counter = 0;
  let signatures = 0;
  const rename = (id: string) => {
    if (PORTABLE_ID.test(id)) return id;
    let next = renamed.get(id);
    if (next === undefined) {
      do next = portableId(++counter);
      while (taken.has(next));
      renamed.set(id, next);
    }
    return next;
  };
  const carried = messages.map((m): Message => {
    if (m.role === 'tool') return { ...m, toolCallId: rename(m.toolCallId) };
    if (m.role !== 'assistant' || !m.toolCalls) return m;
    const toolCalls = m.toolCalls.map((call): ToolCall => {
      const { providerMetadata, ...rest } = call;
      if (providerMetadata !== undefined) signatures += 1;
      return { ...rest, id: rename(call.id) };
    });
    return { ...m, toolCalls };
  });
  return { messages: carried, ids: renamed.size, signatures };
}

/** The note the user reads, or undefined when nothing needed converting. */
export function carryOverNote(from: string, to: string, carried: CarriedOver): string | undefined {
  const parts: string[] = [];
  if (carried.ids > 0)
    parts.push(`${carried.ids} tool call id${carried.ids === 1 ? '' : 's'} rewritten for ${to}`);
  if (carried.signatures > 0)
    parts.push(
      `${from}'s signatures on ${carried.signatures} tool call${carried.signatures === 1 ? '' : 's'} dropped (only ${from} reads them)`,
    );
  return parts.length === 0
    ? undefined
    : `conversation carried over from ${from} to ${to}: ${parts.join('; ')}`;
}
