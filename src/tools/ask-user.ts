// ask_user: the model asks the user a question, free text or one of its options, when a task is ambiguous. The
// entry point answers through ctx.askUser (the chat's prompt); without one (headless) the model is told to choose.
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { NO_USER_ANSWER } from '../core/ask-user.js';
import { defineTool, ok } from './tool.js';

const schema = z.strictObject({
  question: z.string().trim().min(1),
  options: z.array(z.string().trim().min(1)).max(9).optional(),
});

export const askUserTool = defineTool({
  name: 'ask_user',
  description: 'Ask the user a question when the task is ambiguous; options to choose from are optional.',
  schema,
  safety: 'safe',
  async preview(args) {
    return { reads: [], writes: [], summary: `ask the user: ${args.question}` };
  },
  async execute(args, ctx) {
    const id = `q-${randomUUID().slice(0, 8)}`;
    const options = args.options?.length ? { options: args.options } : {};
    ctx.emit({ type: 'user_question', id, question: args.question, ...options });
    if (!ctx.askUser) return ok(NO_USER_ANSWER, { answered: false }, 'no user to ask');
    const answer = (await ctx.askUser({ id, question: args.question, ...options }, ctx.signal)).trim();
    ctx.emit({ type: 'user_answer', id, answer });
    return ok(
      answer ? `The user answered: ${answer}` : 'The user gave no answer.',
      { answered: true },
      `answer: ${answer}`,
    );
  },
});
