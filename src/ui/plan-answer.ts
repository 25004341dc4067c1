// Plan mode's answer: the plan (the run's last todo list) above the model's rationale, as `keel run --mode plan`
// prints it; JSON output keeps the two apart (`answer` and a `plan` array: see json-output.ts).
import type { AgentEvent, EventSink } from '../core/events.js';
import type { TodoItem } from '../core/todos.js';

/** "1. Read the parser\n2. …": the plan as numbered steps. */
export function planText(todos: readonly TodoItem[]): string {
  return todos.map((todo, i) => `${i + 1}. ${todo.content}`).join('\n');
}

/** The sink with each run's answer preceded by the plan the model wrote with todo_write. */
export function withPlanAnswer(sink: EventSink): EventSink {
  let todos: readonly TodoItem[] = [];
  return (event: AgentEvent) => {
    if (event.type === 'todo') todos = event.todos;
    if (event.type !== 'run_end' || todos.length === 0) return sink(event);
    const answer = [`Plan:\n${planText(todos)}`, event.answer.trim()].filter(Boolean).join('\n\n');
    return sink({ ...event, answer });
  };
}
