// The todo list as people see it: a compact checklist, whole the first time, then only the items that changed.
// Shared by the text renderer and the chat; todo text came from the model, so it goes through sanitize().
import { clipLine } from '../core/text.js';
import type { TodoItem, TodoStatus } from '../core/todos.js';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';

const glyphs: Record<TodoStatus, string> = { pending: '☐', in_progress: '◐', done: '☑' };
const asciiMarks: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', done: '[x]' };

/** Box glyphs, except on terminals that cannot be trusted with them (TERM=dumb). */
export function asciiTerminal(env: NodeJS.ProcessEnv): boolean {
  return env.TERM === 'dumb';
}

/** One checklist line: `  ◐ 2. Write the tests`. */
export function todoLine(todo: TodoItem, style: Style, ascii: boolean): string {
  const mark = (ascii ? asciiMarks : glyphs)[todo.status];
  const text = `${sanitize(todo.id)}. ${sanitize(clipLine(todo.content, 100))}`;
  if (todo.status === 'done') return `  ${style.green(mark)} ${style.dim(text)}`;
  if (todo.status === 'in_progress') return `  ${style.cyan(mark)} ${style.bold(text)}`;
  return `  ${mark} ${text}`;
}

/**
 * What to print for a new list given the one shown before: the whole list (with a count) when nothing was shown or
 * it is a different list altogether, else a line for each item added or changed. Empty when nothing changed.
 */
export function renderTodoUpdate(
  before: readonly TodoItem[] | undefined,
  after: readonly TodoItem[],
  style: Style,
  ascii: boolean,
): string {
  const previous = new Map((before ?? []).map((todo) => [todo.id, todo]));
  const related = after.some((todo) => previous.has(todo.id));
  if (!related) {
    if (after.length === 0) return before?.length ? `${style.dim('todo list cleared')}\n` : '';
    const done = after.filter((todo) => todo.status === 'done').length;
    const lines = after.map((todo) => todoLine(todo, style, ascii));
    return `${style.dim(`todo list (${done}/${after.length} done)`)}\n${lines.join('\n')}\n`;
  }
  const changed = after.filter((todo) => {
    const old = previous.get(todo.id);
    return !old || old.status !== todo.status || old.content !== todo.content;
  });
  return changed.map((todo) => `${todoLine(todo, style, ascii)}\n`).join('');
}
