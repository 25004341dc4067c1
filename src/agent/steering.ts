// The short note a classified user message carries to the model: how to go about this kind of task, and for
// work across files, to plan first. It is appended to the user's message rather than the system prompt, so
// the system prompt stays byte-identical across turns (provider prompt caching) and the note replays exactly
// from the message events.
import type { Classification, Intent, Scope } from './intent.js';

/** One or two sentences per intent. */
export const INTENT_GUIDANCE: Readonly<Record<Intent, string>> = {
  explain: 'Read the relevant code and answer from it; do not change files.',
  analyze: 'Read and search as needed and report what you find; do not change files.',
  debug:
    'Reproduce the problem first (run the failing command or test), then fix its cause, then verify the fix by running it again.',
  test: "Run the tests (find the project's test command first) and report or fix what fails.",
  refactor: 'Keep the behaviour unchanged: run the tests before and after the change.',
  implement:
    "Follow the surrounding code's conventions, and verify the change (build, tests or a run) before you finish.",
};

const SCOPE_WORDS: Readonly<Record<Scope, string>> = {
  single_file: 'single file',
  multi_file: 'several files',
  whole_project: 'whole project',
};

/** Below this confidence the classifier is guessing: the message goes to the model as the user wrote it. */
export const MIN_STEERING_CONFIDENCE = 0.5;

/**
 * `[Keel: debug task, single file. Reproduce … ]`, or undefined when the classification is too unsure to steer.
 * `planTool`: whether the todo_write tool is offered, so the planning advice names it only when it exists.
 */
export function steeringNote(c: Classification, planTool: boolean): string | undefined {
  if (c.confidence < MIN_STEERING_CONFIDENCE) return undefined;
  const parts = [`${c.intent} task, ${SCOPE_WORDS[c.scope]}.`, INTENT_GUIDANCE[c.intent]];
  if (c.scope !== 'single_file') {
    parts.push(
      planTool
        ? 'Plan first: write the steps with todo_write, then keep the status of each step current as you work.'
        : 'Plan first: list the steps, then work through them one by one.',
    );
  }
  return `[Keel: ${parts.join(' ')}]`;
}
