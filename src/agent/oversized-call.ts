// Tool calls refused before they run for their size: arguments over agent.max_tool_argument_kb (replaced by a short
// stub at once, so neither the conversation, the session nor any later request carries them), and a call the
// model's output limit cut off before its arguments were complete.
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

/**
 * A call of a response the output limit cut (finish reason `length`): unchanged when its arguments are whole JSON,
 * else refused saying so. Reported as invalid JSON, the model would be told to fix field names and write the same
 * call again, to be cut at the same place.
 */
export function cutCall(call: ToolCall): ToolCall {
  if (call.refused !== undefined || wholeJson(call.input)) return call;
  const refused =
    `this ${call.name} call was cut off by the model's output limit before its arguments were complete; ` +
    'nothing was done. Make each call smaller: write large content in parts (write_file with the first part, ' +
    'then append_file with each further part), and keep the text before a call short.';
  return { ...call, refused };
}

function wholeJson(input: string): boolean {
  try {
    JSON.parse(input);
    return true;
  } catch {
    return false;
  }
}
