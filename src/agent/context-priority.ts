// What of the conversation is trimmed first when it nears the budget (CodeCraft's context manager): the system
// prompt, context files and todo list are never trimmed; the last turns and the files being edited matter more;
// long tool outputs of old turns matter least and are shortened to a head and a tail before any turn is pruned.
import type { Message } from '../core/messages.js';

/** Tools whose `path` argument names a file being edited: results about that file rank medium, not low. */
export const EDITING_TOOLS: readonly string[] = ['edit_file', 'write_file', 'append_file'];

/** What a trimmed old output keeps, in characters: enough of both ends to recall what it said. */
export const TRIM_HEAD = 600;
export const TRIM_TAIL = 300;
/** Only outputs at least this long are worth trimming. */
const TRIM_MIN = (TRIM_HEAD + TRIM_TAIL) * 2;

/** An old tool result's head and tail with a note where the middle was. */
export function trimmedOutput(content: string): string {
  const cut = content.length - TRIM_HEAD - TRIM_TAIL;
  return `${content.slice(0, TRIM_HEAD)}\n[Keel: ${cut} characters of this old result were cut to fit the context window; run the tool again if you need them.]\n${content.slice(-TRIM_TAIL)}`;
}

/** The `path` argument of a tool call, when its input is JSON with one. */
function pathOf(input: string): string | undefined {
  try {
    const args: unknown = JSON.parse(input);
    const path = (args as { path?: unknown } | null)?.path;
    return typeof path === 'string' ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Indexes of the tool results that may be trimmed, in the order to trim them: results of turns before the last
 * `recentTurns` turns that are long enough, those not about a file being edited (low) before those that are
 * (medium), each group largest first. Results already trimmed are too short to come back.
 */
export function trimCandidates(messages: readonly Message[], recentTurns: number): number[] {
  const assistants: number[] = [];
  const callPath = new Map<string, string | undefined>();
  const edited = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    assistants.push(i);
    for (const call of m.toolCalls ?? []) {
      const path = pathOf(call.input);
      callPath.set(call.id, path);
      if (path !== undefined && EDITING_TOOLS.includes(call.name)) edited.add(path);
    }
  });
  const recentFrom = assistants[assistants.length - recentTurns] ?? 0;
  const low: number[] = [];
  const medium: number[] = [];
  messages.forEach((m, i) => {
    if (i >= recentFrom || m.role !== 'tool' || m.content.length < TRIM_MIN) return;
    const path = callPath.get(m.toolCallId);
    (path !== undefined && edited.has(path) ? medium : low).push(i);
  });
  const largestFirst = (a: number, b: number) => messages[b]!.content.length - messages[a]!.content.length;
  return [...low.sort(largestFirst), ...medium.sort(largestFirst)];
}
