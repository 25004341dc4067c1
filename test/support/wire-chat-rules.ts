// The message-order rules of the OpenAI chat and Ollama /api/chat formats, checked on every scripted request so a
// malformed history fails a test the way the real server would refuse it (HTTP 400), not silently pass.

interface ChatMessage {
  role?: unknown;
  tool_calls?: { id?: unknown }[];
  tool_call_id?: unknown;
}

/** Why a real server would refuse these messages, or undefined when they are well formed. */
export function chatMessagesProblem(messages: unknown): string | undefined {
  if (messages === undefined) return undefined;
  if (!Array.isArray(messages)) return "'messages' must be an array";
  let open: string[] = []; // tool_call ids of the last assistant message still waiting for their results
  let answering = false; // only tool messages since that assistant message
  let seenOther = false;
  for (const [i, m] of (messages as ChatMessage[]).entries()) {
    const role = m?.role;
    if (role !== 'tool' && open.length > 0) {
      return `messages[${i}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`;
    }
    switch (role) {
      case 'system':
      case 'developer':
        // OpenAI accepts this; Keel never means it (Gemini and Anthropic refuse it), so it is a Keel bug.
        if (seenOther)
          return `messages[${i}]: a system message after the conversation started (Keel sends one, first)`;
        break;
      case 'user':
        seenOther = true;
        answering = false;
        break;
      case 'assistant':
        seenOther = true;
        open = (m.tool_calls ?? []).map((c) => String(c.id));
        answering = open.length > 0;
        break;
      case 'tool': {
        seenOther = true;
        const id = String(m.tool_call_id);
        if (!answering || !open.includes(id)) {
          return `messages[${i}]: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (no open call ${id})`;
        }
        open = open.filter((o) => o !== id);
        break;
      }
      default:
        return `messages[${i}]: invalid role ${JSON.stringify(role)}`;
    }
  }
  return undefined;
}

/** OpenAI's invalid_request_error body. */
export const openaiRejection = (message: string) => ({
  error: { message, type: 'invalid_request_error', param: 'messages', code: null },
});

/** Ollama's error body. */
export const ollamaRejection = (message: string) => ({ error: message });
