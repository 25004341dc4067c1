// Turns a plan into the first user prompt of a run, in the shape XZatoma used: goal, context, instructions.
import type { Plan } from './plan.js';

const closing =
  'Use the available tools to accomplish this goal. You may adapt your approach as needed, but try to follow the instructions provided.';

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Continuation lines of a multi-line item line up under its first line. */
function indentContinuation(text: string, indent: string): string {
  return text.replace(/\n/g, `\n${indent}`);
}

/** What a tracked plan run adds: the instructions are todos the model keeps current. */
const tracking =
  'Each instruction is on your todo list, its number as its id. Keep the list current with todo_write: mark an instruction in_progress when you start it and done when it is finished.';

const preamble = 'You are assisting with the following task:';

/** Keel's own sentences in a plan's prompt, not the plan's words (the intent classifier leaves them out). */
export const PLAN_PROMPT_SENTENCES: readonly string[] = [preamble, tracking, closing];

/** `tracked`: the instructions were seeded as todos (keel run), and the prompt says to keep them current. */
export function planToPrompt(plan: Plan, options: { tracked?: boolean } = {}): string {
  const sections = [preamble, `GOAL: ${plan.goal}`];
  if (plan.context.length > 0) {
    const lines = plan.context.map((entry) => {
      const text = entry.key === undefined ? entry.value : `${capitalise(entry.key)}: ${entry.value}`;
      return `- ${indentContinuation(text, '  ')}`;
    });
    sections.push(['CONTEXT:', ...lines].join('\n'));
  }
  if (plan.instructions.length > 0) {
    const lines = plan.instructions.map((step, index) => {
      const number = `${index + 1}. `;
      return number + indentContinuation(step, ' '.repeat(number.length));
    });
    sections.push(['INSTRUCTIONS (follow as guidance):', ...lines].join('\n'));
    if (options.tracked) sections.push(tracking);
  }
  sections.push(closing);
  return sections.join('\n\n');
}
