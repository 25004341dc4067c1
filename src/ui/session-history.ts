// A resumed session's past turns, shortly, for stderr: the user's messages, the answers' first lines and one
// line per tool call, so the user sees where the conversation stands before typing.
import { typedText } from '../agent/rewind.js';
import { describeImage, type Message } from '../core/messages.js';
import { clipLine } from '../core/text.js';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';

/** At most this many messages are shown: the latest ones. */
const SHOWN = 40;

/** `subruns`: each task call's sub-agent tool calls, one line each (session/export.ts subagentRuns), shown under it. */
export function renderHistory(
  messages: readonly Message[],
  style: Style,
  subruns?: ReadonlyMap<string, readonly string[]>,
): string {
  const visible = messages.filter((m) => m.role !== 'system');
  const skipped = Math.max(0, visible.length - SHOWN);
  const lines: string[] = skipped > 0 ? [style.dim(`… ${skipped} earlier messages`)] : [];
  for (const m of visible.slice(skipped)) {
    const text = (s: string) => clipLine(sanitize(s.replace(/\s+/g, ' ').trim()), 160);
    // As the user typed it: Keel's notes and attached files left out.
    if (m.role === 'user') lines.push(`${style.bold('›')} ${text(typedText(m.content))}`);
    if ((m.role === 'user' || m.role === 'tool') && m.images)
      for (const image of m.images)
        lines.push(
          style.dim(
            `    ▣ ${text(describeImage(image))}${image.data === undefined ? ' — gone (the session kept no copy)' : ''}`,
          ),
        );
    if (m.role === 'user') continue;
    if (m.role === 'assistant') {
      if (m.content.trim()) lines.push(`  ${text(m.content)}`);
      for (const call of m.toolCalls ?? []) {
        lines.push(style.dim(`  · ${call.name} ${text(call.input)}`));
        for (const line of subruns?.get(call.id) ?? []) lines.push(style.dim(`      ${text(line)}`));
      }
    } else if (m.role === 'tool' && m.isError) lines.push(style.dim(`    ✗ ${text(m.content)}`));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
