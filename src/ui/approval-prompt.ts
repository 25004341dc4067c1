// Asks the person at the terminal whether a tool call the policy flagged may run: shows why and what, then y/N.
import type { ApprovalRequest, Approve } from '../core/approval.js';
import type { LineReader } from './line-reader.js';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';

export type { ApprovalRequest, Approve } from '../core/approval.js';

export interface ApprovalPromptOptions {
  reader: Pick<LineReader, 'ask'>;
  stderr: NodeJS.WritableStream;
  style: Style;
}

/** Yes only on `y` or `yes`; anything else, Ctrl-C (the signal) and end of input are no. */
export function createApprovalPrompt({ reader, stderr, style }: ApprovalPromptOptions): Approve {
  return async (request, signal) => {
    stderr.write(
      `${style.yellow('?')} ${sanitize(request.tool)} needs approval: ${sanitize(request.reason)}\n`,
    );
    const details = formatPreview(request.preview ?? {}, style);
    if (details) stderr.write(details);
    const question = `allow ${sanitize(request.tool)}: ${sanitize(request.summary)}? [y/N] `;
    const answer = await reader.ask(question, signal);
    // No line ended the question: end it, so what follows starts on its own line.
    if (answer === null) stderr.write('\n');
    return answer !== null && /^y(es)?$/i.test(answer.trim());
  };
}

/** The command, the diff (coloured by line) and the paths, indented under the question's first line. */
function formatPreview(preview: NonNullable<ApprovalRequest['preview']>, style: Style): string {
  const lines: string[] = [];
  const split = (text: string) => sanitize(text).replace(/\n$/, '').split('\n');
  if (preview.command) lines.push(...split(preview.command).map((l, i) => (i ? `  ${l}` : `$ ${l}`)));
  if (preview.diff) lines.push(...split(preview.diff).map((l) => colourDiffLine(l, style)));
  if (preview.reads?.length) lines.push(`reads: ${preview.reads.map(sanitize).join(', ')}`);
  if (preview.writes?.length) lines.push(`writes: ${preview.writes.map(sanitize).join(', ')}`);
  return lines.map((line) => `  ${line}\n`).join('');
}

function colourDiffLine(line: string, style: Style): string {
  if (line.startsWith('@@')) return style.cyan(line);
  if (line.startsWith('+')) return style.green(line);
  if (line.startsWith('-')) return style.red(line);
  return line;
}
