// The conversation as a model without native tool calling reads it (text protocol): the tools described in the
// system prompt, the assistant's calls written back as `<tool_call>` blocks, results as user-role `<tool_result>`s.
// The conversation itself keeps normal tool calls and results; only what is sent is rewritten, the same way every
// time, so sessions, resumes and replays see one history.
import type { ImagePart, Message, ToolCall } from '../core/messages.js';
import type { ToolSpec } from '../core/model.js';

/** Where a text-protocol call keeps what the model wrote when it was broken (in ToolCall.providerMetadata). */
export const textCallMetadataKey = 'keel-text-protocol';

export interface BrokenCallNote {
  problem: string;
  raw: string;
}

const syntax =
  '<tool_call>\n{"name": "<tool name>", "arguments": {<arguments as a JSON object>}}\n</tool_call>';

/** The system prompt's tools section: the exact syntax, then each tool's name, description and argument schema. */
export function toolsPrompt(tools: ToolSpec[]): string {
  const lines = [
    '# Tools',
    'Call a tool by writing this block in your reply, exactly (one block per call; several calls may follow each other):',
    syntax,
    'Keel runs the calls and sends their results back as <tool_result> blocks. After your calls, stop and wait for ' +
      'the results; never write results yourself. When the task is done, answer without any tool call.',
    '',
    'Tools (name: description; then the JSON Schema of its arguments):',
  ];
  for (const tool of tools) {
    lines.push(`- ${tool.name}: ${tool.description}`, `  ${JSON.stringify(tool.inputSchema)}`);
  }
  return lines.join('\n');
}

/** What a broken call gets besides the executor's error: what was wrong and the exact syntax. */
export function correction(problem: string): string {
  return `[Keel: that tool call could not be used: ${problem}. Write each call exactly like this:\n${syntax}]`;
}

export function brokenNote(call: ToolCall): BrokenCallNote | undefined {
  const note = call.providerMetadata?.[textCallMetadataKey];
  return note && typeof note.problem === 'string' && typeof note.raw === 'string'
    ? { problem: note.problem, raw: note.raw }
    : undefined;
}

/** The messages to send: no tool calls or tool roles left, consecutive user-role messages joined. */
export function toTextMessages(messages: readonly Message[], tools: ToolSpec[]): Message[] {
  const out: Message[] = [];
  const calls = new Map<string, ToolCall>();
  const pushUser = (content: string, images?: ImagePart[]) => {
    const last = out.at(-1);
    if (last?.role === 'user') {
      last.content = `${last.content}\n\n${content}`;
      if (images?.length) last.images = [...(last.images ?? []), ...images];
    } else out.push({ role: 'user', content, ...(images?.length ? { images } : {}) });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: `${message.content}\n\n${toolsPrompt(tools)}` });
        break;
      case 'user':
        pushUser(message.content, message.images);
        break;
      case 'assistant': {
        for (const call of message.toolCalls ?? []) calls.set(call.id, call);
        const parts = [message.content, ...(message.toolCalls ?? []).map(writtenCall)];
        out.push({
          role: 'assistant',
          content: parts.filter((part) => part.trim() !== '').join('\n\n'),
          ...(message.reasoning ? { reasoning: message.reasoning } : {}),
        });
        break;
      }
      case 'tool': {
        const call = calls.get(message.toolCallId);
        const note = call && brokenNote(call);
        const error = message.isError ? ' error="true"' : '';
        const result = `<tool_result name="${message.toolName}"${error}>\n${message.content}\n</tool_result>`;
        pushUser(note ? `${result}\n${correction(note.problem)}` : result, message.images);
        break;
      }
    }
  }
  if (out[0]?.role !== 'system') out.unshift({ role: 'system', content: toolsPrompt(tools) });
  return out;
}

/** A call as the model would have written it; a broken one exactly as it did (the model sees its own mistake). */
function writtenCall(call: ToolCall): string {
  const note = brokenNote(call);
  if (note) return note.raw;
  let args: unknown;
  try {
    args = JSON.parse(call.input);
  } catch {
    args = call.input;
  }
  return `<tool_call>\n${JSON.stringify({ name: call.name, arguments: args })}\n</tool_call>`;
}
