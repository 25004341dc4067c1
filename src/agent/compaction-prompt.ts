// The compaction request: the conversation as a plain transcript in one user message, with the instructions for
// a structured summary. A transcript rather than the messages themselves, since the call offers no tools and some
// providers refuse tool calls in a history without them; it is also cut to fit where the messages might not.
import type { Message } from '../core/messages.js';

/** The sections the summary must have, in order. */
export const SUMMARY_SECTIONS = [
  'Goal',
  'Instructions',
  'Discoveries',
  'Done',
  'Open',
  'Files touched',
] as const;

const SYSTEM = `You summarise a coding agent's session so that the agent can continue the work from your summary alone: the conversation will be replaced by it. Be specific (paths, names, commands, numbers, errors); leave out chatter. Answer with the summary only.`;

const INSTRUCTIONS = `Write the summary of the session above in Markdown, with exactly these sections:
## Goal
What the user wants, in their terms.
## Instructions
The user's standing instructions and constraints (style, what not to touch, how to test), verbatim where short.
## Discoveries
What was learnt about the code and the environment that the rest of the work needs.
## Done
What has been completed, with the files changed.
## Open
What is left to do, the next step first; problems not yet solved.
## Files touched
Each file read, created or changed, one a line, with a few words on its role.`;

/** A tool result in the transcript keeps its head and tail only. */
const RESULT_HEAD = 1500;
const RESULT_TAIL = 500;

function clipped(text: string): string {
  if (text.length <= RESULT_HEAD + RESULT_TAIL) return text;
  const cut = text.length - RESULT_HEAD - RESULT_TAIL;
  return `${text.slice(0, RESULT_HEAD)}\n[… ${cut} characters left out …]\n${text.slice(-RESULT_TAIL)}`;
}

/** One message as a transcript entry (the system prompt is left out: it is sent again after compaction). */
function entry(m: Message): string | undefined {
  switch (m.role) {
    case 'system':
      return undefined;
    case 'user':
      return `### User\n${m.content}`;
    case 'assistant': {
      const calls = (m.toolCalls ?? []).map((c) => `→ ${c.name} ${clipped(c.input)}`);
      return ['### Assistant', m.content.trim(), ...calls].filter((line) => line !== '').join('\n');
    }
    case 'tool':
      return `### Result of ${m.toolName}${m.isError ? ' (error)' : ''}\n${clipped(m.content)}`;
  }
}

/**
 * The transcript, at most `maxChars`: when longer, the first entry (the task) stays and the oldest after it go,
 * replaced by a line saying how many.
 */
export function transcript(messages: readonly Message[], maxChars: number): string {
  const entries = messages.map(entry).filter((e): e is string => e !== undefined);
  let total = entries.reduce((n, e) => n + e.length + 2, 0);
  let dropped = 0;
  while (total > maxChars && entries.length - dropped > 2) {
    dropped += 1;
    total -= entries[dropped]!.length + 2;
  }
  if (dropped === 0) return entries.join('\n\n');
  return [entries[0]!, `[… ${dropped} earlier entries left out …]`, ...entries.slice(dropped + 1)].join(
    '\n\n',
  );
}

/** The messages of the summary call: what it is for, then the transcript, the sections and the user's focus. */
export function compactionRequest(
  messages: readonly Message[],
  options: { focus?: string; maxTokens: number },
): Message[] {
  // A conversation at the compaction threshold (85% of the budget at four characters a token) fits whole; the
  // answer's tokens are not part of the budget (it is the window less the output limit).
  const history = transcript(messages, Math.max(4000, options.maxTokens * 3.5 - INSTRUCTIONS.length));
  const focus = options.focus?.trim()
    ? `\n\nThe user asks the summary to focus on: ${options.focus.trim()}`
    : '';
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `<transcript>\n${history}\n</transcript>\n\n${INSTRUCTIONS}${focus}`,
    },
  ];
}
