// A tool call whose arguments are over agent.max_tool_argument_kb: refused before it runs, and its arguments
// replaced by a short stub at once, so neither the conversation, the session nor any later request carries them.
import type { ToolCall } from '../core/messages.js';
import { utf8Prefix } from '../core/text.js';

/** What of the arguments the stub keeps: enough for the model and the user to see which call it was. */
const STUB_BYTES = 400;

/** The call as it goes on: unchanged within the limit, else a stub with `refused` saying why and what to do. */
export function boundedCall(call: ToolCall, maxBytes: number): ToolCall {
  const size = Buffer.byteLength(call.input);
  if (size <= maxBytes) return call;
  const limit = `${Math.floor(maxBytes / 1024)} KB`;
  const stub = JSON.stringify({
    keel_note: `arguments of ${size} bytes cut to their start: over the ${limit} limit`,
    start: utf8Prefix(call.input, STUB_BYTES),
  });
  const refused =
    `the arguments of this ${call.name} call are ${size} bytes, over the limit of ${limit} ` +
    '(agent.max_tool_argument_kb, bounded by the context window); nothing was done. ' +
    'Write large content in parts: write_file with the first part, then append_file with each further part, ' +
    `every call under ${limit}.`;
  return { ...call, input: stub, refused };
}
