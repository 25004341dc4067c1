// The todo board: the one current todo list of a session (todo_write's, or a plan file's steps). Every change is a
// `todo` event carrying the whole list, so a renderer, the JSON output and the session store each see it as it is.
import type { AgentEvent } from './events.js';
import type { TodoItem, TodoStatus } from './todos.js';

/** What a `todo_write` list gets wrong; an empty list of problems means it can be kept. */
export function todoProblems(todos: readonly TodoItem[]): string[] {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const todo of todos) {
    if (seen.has(todo.id)) duplicates.add(todo.id);
    seen.add(todo.id);
  }
  return [...duplicates].map((id) => `id "${id}" is used more than once; give each todo its own id`);
}

/** Counts per status, in the order they are reported. */
export function todoCounts(todos: readonly TodoItem[]): Record<TodoStatus, number> {
  const counts = { done: 0, in_progress: 0, pending: 0 };
  for (const todo of todos) counts[todo.status] += 1;
  return counts;
}

export class TodoBoard {
  private list: TodoItem[] = [];

  constructor(private readonly emit: (event: AgentEvent) => void) {}

  /** The list as it stands (a copy: callers cannot change the board behind its back). */
  items(): TodoItem[] {
    return this.list.map((todo) => ({ ...todo }));
  }

  /** Replaces the whole list and reports it; the caller has checked it with todoProblems. */
  set(todos: readonly TodoItem[]): void {
    this.list = todos.map((todo) => ({ id: todo.id, content: todo.content, status: todo.status }));
    this.announce();
  }

  /** Takes a list back without reporting it (a resumed session's, or a plan's before its run starts). */
  restore(todos: readonly TodoItem[]): void {
    this.list = todos.map((todo) => ({ id: todo.id, content: todo.content, status: todo.status }));
  }

  /** Reports the list as it stands, if there is one: what a run shows first of a restored or seeded board. */
  announce(): void {
    if (this.list.length > 0) this.emit({ type: 'todo', todos: this.items() });
  }
}
