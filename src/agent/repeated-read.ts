// The third read of an unchanged file gets a short note instead of the content again. "Unchanged" is judged
// against the conversation as the model will read it: two earlier results of the same call (same path and
// range) with the same content still in it. After pruning or compaction removed them, the content is sent again.
import type { Message, ToolCall } from '../core/messages.js';
import { callKey } from './repetition.js';

/** The tools whose results are a file's content. */
export const FILE_READ_TOOLS: ReadonlySet<string> = new Set(['read_file']);

/** How many identical earlier results the model already has before a read is answered with the note. */
const ALREADY_READ = 2;

/** A result with notes appended by the loop still holds the same content. */
const sameContent = (earlier: string, content: string) =>
  earlier === content || earlier.startsWith(`${content}\n\n[Keel: `);

/** The note replacing the content, or undefined when the model should get the content. */
export function repeatedReadNote(
  call: ToolCall,
  content: string,
  isError: boolean,
  messages: readonly Message[],
): string | undefined {
  if (isError || !FILE_READ_TOOLS.has(call.name)) return undefined;
  const key = callKey(call);
  const sameCall = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const c of m.toolCalls ?? []) if (c.id !== call.id && callKey(c) === key) sameCall.add(c.id);
  }
  let copies = 0;
  for (const m of messages) {
    if (m.role === 'tool' && sameCall.has(m.toolCallId) && sameContent(m.content, content)) copies++;
  }
  if (copies < ALREADY_READ) return undefined;
  let path = '';
  try {
    path = String((JSON.parse(call.input) as { path?: unknown }).path ?? '');
  } catch {}
  return `[Keel: ${path || 'this file'} is unchanged since you read it ${copies} times with the same range; the content is in your earlier ${call.name} results. Use it instead of reading it again.]`;
}
