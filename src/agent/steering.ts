// The short note a classified user message carries to the model: how to go about this kind of task, and for
// work across files, to plan first. It is appended to the user's message rather than the system prompt, so
// the system prompt stays byte-identical across turns (provider prompt caching) and the note replays exactly
// from the message events.
import type { Classification, Intent } from './intent.js';

/** A few words per intent: the note stays under 100 bytes (it rides on every classified user message). */
export const INTENT_GUIDANCE: Readonly<Record<Intent, string>> = {
  explain: 'Answer from the code; change nothing.',
  analyze: 'Report what you find; change nothing.',
  debug: 'Reproduce it, fix the cause, verify.',
  test: 'Run the tests; report or fix failures.',
  refactor: 'Keep behaviour; test before and after.',
  implement: 'Follow local conventions; verify.',
  document: 'Write the docs from the code; keep behaviour.',
};

/** Below this confidence the classifier is guessing: the message goes to the model as the user wrote it. */
export const MIN_STEERING_CONFIDENCE = 0.5;

/**
 * `[Keel: debug. Reproduce it, …]`, or undefined when the classification is too unsure to steer. Work across files
 * adds the advice to plan first.
 * `planTool`: whether the todo_write tool is offered, so the planning advice names it only when it exists.
 */
export function steeringNote(c: Classification, planTool: boolean): string | undefined {
  if (c.confidence < MIN_STEERING_CONFIDENCE) return undefined;
  const parts = [`${c.intent}.`, INTENT_GUIDANCE[c.intent]];
  if (c.scope !== 'single_file')
    parts.push(planTool ? 'Plan first with todo_write.' : 'List the steps first.');
  return `[Keel: ${parts.join(' ')}]`;
}
