// ask_user in the chat: the model's question, its options numbered to choose from (or any answer typed), on the
// chat's own input like the approval prompt. Ctrl-C or end of input is no answer.
import type { AskUser } from '../core/ask-user.js';
import type { LineReader } from './line-reader.js';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';

export interface QuestionPromptOptions {
  reader: Pick<LineReader, 'ask'>;
  stderr: NodeJS.WritableStream;
  style: Style;
}

/** The answer a typed line gives: an option's number picks that option, anything else is the answer as typed. */
export function chosenAnswer(line: string, options: readonly string[] = []): string {
  const typed = line.trim();
  const index = /^\d+$/.test(typed) ? Number(typed) - 1 : -1;
  return options[index] ?? typed;
}

export function createQuestionPrompt({ reader, stderr, style }: QuestionPromptOptions): AskUser {
  return async (question, signal) => {
    stderr.write(`${style.yellow('?')} ${sanitize(question.question)}\n`);
    const options = question.options ?? [];
    options.forEach((option, i) => {
      stderr.write(`  ${style.bold(`${i + 1})`)} ${sanitize(option)}\n`);
    });
    const hint = options.length > 0 ? `1-${options.length} or your answer` : 'your answer';
    const line = await reader.ask(`answer (${hint}): `, signal);
    if (line === null) {
      stderr.write('\n');
      return '';
    }
    return chosenAnswer(line, options);
  };
}
