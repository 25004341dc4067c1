// Plan mode's answer: the plan (the run's last todo list) above the model's rationale, as `keel run --mode plan`
// prints it (text-renderer.ts); JSON output keeps the two apart (`answer` and a `plan` array: see json-output.ts).
import type { TodoItem } from '../core/todos.js';

/** "1. Read the parser\n2. …": the plan as numbered steps. */
export function planText(todos: readonly TodoItem[]): string {
  return todos.map((todo, i) => `${i + 1}. ${todo.content}`).join('\n');
}
