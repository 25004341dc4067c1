// Asks the person at the terminal whether a tool call the policy flagged may run: shows why and what, then
// y (once), a (always this session, for what the request says "always" covers), A (always in this workspace,
// kept), e (edit in $EDITOR) or n (no, with feedback).
import type { ApprovalAnswer, ApprovalRequest, Approve } from '../core/approval.js';
import type { EditResult } from './editor.js';
import type { LineReader } from './line-reader.js';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';
import { wrapText } from './wrap.js';

export type { ApprovalAnswer, ApprovalRequest, Approve } from '../core/approval.js';

export interface ApprovalPromptOptions {
  reader: Pick<LineReader, 'ask'>;
  stderr: NodeJS.WritableStream;
  style: Style;
  /** Opens text in the user's editor (the terminal handed over); absent: no `e` answer. */
  edit?: (text: string, file: string) => Promise<EditResult>;
  /** The terminal's width: the question wraps at word boundaries to fit it (the lines written to `stderr` are its to wrap). */
  columns?: () => number;
}

type Choice = 'y' | 'a' | 'A' | 'e' | 'n';

/**
 * `y`/`yes`, `a`/`always` (this chat), `A` (kept for the workspace: the capital only, so a lower-case slip never
 * keeps anything), `e`/`edit`, empty or `n`/`no`, `n <feedback>`; undefined for anything else.
 */
function parseAnswer(line: string, choices: Choice[]): ApprovalAnswer | 'edit' | undefined {
  const answer = line.trim();
  if (/^(y|yes)$/i.test(answer)) return { decision: 'once' };
  // Where the answer cannot be kept, `A` asks again rather than quietly meaning less than the user said.
  if (answer === 'A') return choices.includes('A') ? { decision: 'keep' } : undefined;
  if (choices.includes('a') && /^(a|always)$/i.test(answer)) return { decision: 'always' };
  if (choices.includes('e') && /^(e|edit)$/i.test(answer)) return 'edit';
  if (answer === '' || /^(n|no)$/i.test(answer)) return { decision: 'deny' };
  const feedback = /^(?:no|n)[\s:,.;-]+(\S.*)$/is.exec(answer)?.[1];
  if (feedback) return { decision: 'deny', feedback };
  return undefined;
}

/**
 * Only an answer typed after the question approves; Ctrl-C (the signal) and end of input are no. An unknown
 * answer asks again. An edit that changes nothing asks again; an emptied command is no.
 */
export function createApprovalPrompt({
  reader,
  stderr,
  style,
  edit,
  columns,
}: ApprovalPromptOptions): Approve {
  return async (request, signal) => {
    stderr.write(
      `${style.yellow('?')} ${sanitize(request.tool)} needs approval: ${sanitize(request.reason)}\n`,
    );
    const details = formatPreview(request.preview ?? {}, style);
    if (details) stderr.write(details);
    const editable = edit && request.edit ? request.edit : undefined;
    const choices: Choice[] = [
      'y',
      ...(request.always ? ['a' as const] : []),
      ...(request.always && request.keep ? ['A' as const] : []),
      ...(editable ? ['e' as const] : []),
    ];
    const help = [
      'y: yes, once',
      ...(request.always ? [`a: always this session (${sanitize(request.always)})`] : []),
      ...(request.always && request.keep ? ['A: always in this workspace (/permissions lists them)'] : []),
      ...(editable ? [`e: edit the ${editable.kind} first`] : []),
      'n: no (n <why> tells the model)',
    ].join(' · ');
    stderr.write(`  ${style.dim(help)}\n`);
    const asked = `allow ${sanitize(request.tool)}: ${sanitize(request.summary)}? [${choices.join('/')}/N] `;
    const question = columns ? wrapText(asked, columns() - 1) : asked;
    for (;;) {
      const line = await reader.ask(question, signal);
      // No line ended the question: end it, so what follows starts on its own line.
      if (line === null) {
        stderr.write('\n');
        return { decision: 'deny' };
      }
      const answer = parseAnswer(line, [...choices, 'n']);
      if (answer === undefined) {
        stderr.write(`  answer ${choices.join(', ')} or n\n`);
        continue;
      }
      if (answer !== 'edit') return answer;
      if (!edit || !editable) continue;
      const result = await edit(editable.text, editable.file);
      if (signal.aborted) return { decision: 'deny' };
      if ('error' in result) {
        stderr.write(`  ${sanitize(result.error)}\n`);
        continue;
      }
      // Editors end the file with a newline; a command does not need one.
      const text = editable.kind === 'command' ? result.text.replace(/\s+$/, '') : result.text;
      if (editable.kind === 'command' && text.trim() === '') {
        stderr.write('  the edited command is empty: not run\n');
        return { decision: 'deny' };
      }
      if (text === editable.text) {
        stderr.write(`  the ${editable.kind} is unchanged\n`);
        continue;
      }
      return { decision: 'edit', edited: text };
    }
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
