// A plan file's instructions as a tracked checklist: one todo per instruction (ids 1, 2, …), and each instruction's
// status followed through the run's `todo` events, whatever else the model puts on its list.
import type { TodoItem, TodoStatus } from '../core/todos.js';

export interface PlanStep {
  id: string;
  instruction: string;
  status: TodoStatus;
}

/** The todos a plan run starts with: every instruction pending, numbered from 1 as the prompt numbers them. */
export function planTodos(instructions: readonly string[]): TodoItem[] {
  return instructions.map((instruction, index) => ({
    id: String(index + 1),
    content: instruction,
    status: 'pending',
  }));
}

export interface PlanTracker {
  /** Takes in a `todo` event's list. */
  update(todos: readonly TodoItem[]): void;
  steps(): PlanStep[];
}

/**
 * Follows the instructions' statuses. An instruction the model leaves off a later list keeps the status it last had:
 * rewriting the list is no reason to forget that a step was done.
 */
export function trackPlan(instructions: readonly string[]): PlanTracker {
  const steps = planTodos(instructions).map(
    (todo): PlanStep => ({ id: todo.id, instruction: todo.content, status: todo.status }),
  );
  return {
    update(todos) {
      for (const step of steps) {
        const todo = todos.find((t) => t.id === step.id);
        if (todo) step.status = todo.status;
      }
    },
    steps: () => steps.map((step) => ({ ...step })),
  };
}

/** Whether any of the plan's instructions is not done in this todo list. */
export function planUnfinished(instructions: readonly string[], todos: readonly TodoItem[]): boolean {
  const tracker = trackPlan(instructions);
  tracker.update(todos);
  return tracker.steps().some((step) => step.status !== 'done');
}
