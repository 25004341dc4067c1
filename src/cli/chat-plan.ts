// After a plan-mode turn in the chat the plan stands on the todo list, and the user chooses: execute it in a chosen
// mode (the run works through that list), keep planning with feedback, or stop.
import type { ExecutionMode } from '../safety/modes.js';

export type PlanChoice = { mode: ExecutionMode } | { feedback: string } | { stop: true };

const MODES: Readonly<Record<string, ExecutionMode>> = {
  a: 'auto',
  auto: 'auto',
  i: 'interactive',
  interactive: 'interactive',
  r: 'restricted',
  restricted: 'restricted',
};

/** `a`/`i`/`r` (or the mode's name) executes, `k <feedback>` keeps planning, empty or `s` stops; else undefined. */
export function parsePlanChoice(line: string): PlanChoice | undefined {
  const answer = line.trim();
  if (answer === '' || /^(s|stop)$/i.test(answer)) return { stop: true };
  const mode = MODES[answer.toLowerCase()];
  if (mode) return { mode };
  const feedback = /^(?:k|keep)(?:[\s:,-]+(\S[\s\S]*))?$/i.exec(answer);
  if (feedback) return { feedback: feedback[1]?.trim() || 'Keep planning: refine the plan.' };
  return undefined;
}

export const EXECUTE_PLAN = 'Carry out the plan on the todo list, step by step, marking each step as you go.';

export interface PlanFollowUp {
  ask: (question: string) => Promise<string | null>;
  note: (text: string) => void;
  restart: (change: { mode: ExecutionMode }) => Promise<void>;
  send: (text: string) => Promise<void>;
}

export async function afterPlan(chat: PlanFollowUp): Promise<void> {
  chat.note('the plan is on the todo list above\n');
  for (;;) {
    const line = await chat.ask(
      'execute it in a(uto) / i(nteractive) / r(estricted) mode, k <feedback> to keep planning, s to stop: ',
    );
    const choice = line === null ? { stop: true as const } : parsePlanChoice(line);
    if (!choice) continue;
    if ('stop' in choice) return;
    if ('feedback' in choice) return chat.send(choice.feedback);
    await chat.restart({ mode: choice.mode });
    return chat.send(EXECUTE_PLAN);
  }
}
