// The commit message Keel writes: one model request without tools, given the staged diff and the repository's
// recent messages so it follows their style; the reply cleaned of what models wrap messages in; the trailer.
import type { Message } from '../core/messages.js';
import type { Model } from '../core/model.js';
import type { CommitChanges } from './commit.js';

/** The most of the patch one request carries; the stat names every file anyway. */
const MAX_DIFF_CHARS = 40_000;

const SYSTEM = `You write git commit messages. Reply with the commit message only: a subject line of at most 72 characters, then, only if the change needs it, a blank line and a short body wrapped at 72 columns saying what changed and why. Follow the style of the repository's recent messages: prefixes such as "feat:" or "fix(scope):" only if they use them, their capitalisation, tense and length. No code fences, no quotes, no commentary.`;

/** The request: the style examples, the files, and the patch (cut to fit). */
export function commitMessageRequest(changes: CommitChanges, recent: string): Message[] {
  const diff =
    changes.diff.length > MAX_DIFF_CHARS
      ? `${changes.diff.slice(0, MAX_DIFF_CHARS)}\n[… ${changes.diff.length - MAX_DIFF_CHARS} more characters of the diff left out]`
      : changes.diff;
  const style = recent
    ? `Recent commit messages of this repository (newest first):\n<log>\n${recent}\n</log>`
    : 'This repository has no commits yet: write a plain, imperative message.';
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `${style}\n\nThe change to describe:\n<stat>\n${changes.stat.trimEnd()}\n</stat>\n<diff>\n${diff}\n</diff>`,
    },
  ];
}

/** A reply as a commit message: reasoning tags, code fences, a "Commit message:" label and wrapping quotes dropped. */
export function cleanMessage(reply: string): string {
  let text = reply.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  if (fenced) text = fenced[1] ?? '';
  text = text.replace(/^(?:commit message|message)\s*:\s*\n?/i, '').trim();
  const quoted = /^(["'`])([\s\S]*)\1$/.exec(text);
  if (quoted) text = (quoted[2] ?? '').trim();
  // Lines git would strip as comments, and trailing spaces, would make the shown message differ from the commit.
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `Assisted-by: Keel (provider/model)`: git's trailer form, after a blank line, once. */
export function withAttribution(message: string, model: string | undefined): string {
  if (model === undefined) return message;
  const trailer = `Assisted-by: Keel (${model})`;
  if (message.includes(trailer)) return message;
  // A trailer block already ending the message (Signed-off-by:) takes it as one more line.
  const paragraphs = message.split('\n\n');
  const last = paragraphs.length > 1 ? (paragraphs.at(-1) ?? '') : '';
  const trailers = last !== '' && last.split('\n').every((line) => /^[\w-]+: \S/.test(line));
  return trailers ? `${message}\n${trailer}` : `${message}\n\n${trailer}`;
}

/** Asks the model once, without tools, and returns the cleaned message; an empty reply is an error. */
export async function draftCommitMessage(
  model: Model,
  changes: CommitChanges,
  recent: string,
  signal: AbortSignal,
): Promise<string> {
  let text = '';
  for await (const event of model.stream({
    messages: commitMessageRequest(changes, recent),
    tools: [],
    signal,
  })) {
    if (event.type === 'text') text += event.delta;
    // A retried response starts over.
    else if (event.type === 'retry') text = '';
  }
  const message = cleanMessage(text);
  if (!message) throw new Error('the model wrote no commit message');
  return message;
}
