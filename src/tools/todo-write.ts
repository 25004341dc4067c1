// todo_write: the model's plan for multi-step work, kept as a list it rewrites whole with each change. It changes no
// files (safety 'safe': the policy never asks, --dry-run still runs it); the board emits the list as a `todo` event.
import * as z from 'zod';
import { todoCounts, todoProblems } from '../core/todo-board.js';
import type { TodoItem } from '../core/todos.js';
import { defineTool, fail, ok } from './tool.js';

const schema = z.strictObject({
  todos: z.array(
    z.strictObject({
      // Models often number their steps; a number is taken as its text.
      id: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().trim().min(1)),
      content: z.string().trim().min(1),
      status: z.enum(['pending', 'in_progress', 'done']),
    }),
  ),
});

const marks: Record<TodoItem['status'], string> = { done: '[x]', in_progress: '[~]', pending: '[ ]' };

/** `1 done, 1 in progress, 2 pending`. */
export function countsText(todos: readonly TodoItem[]): string {
  const counts = todoCounts(todos);
  return `${counts.done} done, ${counts.in_progress} in progress, ${counts.pending} pending`;
}

export const todoWriteTool = defineTool({
  name: 'todo_write',
  description: 'Your plan for multi-step work: the whole list each time, one step in_progress.',
  schema,
  safety: 'safe',
  async preview(args) {
    return { reads: [], writes: [], summary: `update the todo list (${args.todos.length} items)` };
  },
  async execute(args, ctx) {
    if (!ctx.todos) return fail('todo_write is not available in this session');
    const problems = todoProblems(args.todos);
    if (problems.length > 0) return fail(`todo list not saved: ${problems.join('; ')}`);
    ctx.todos.set(args.todos);
    const lines = args.todos.map((todo) => `${marks[todo.status]} ${todo.id}. ${todo.content}`);
    const working = todoCounts(args.todos).in_progress;
    // Several steps in progress at once is allowed but usually a slip: a note, not an error.
    const note =
      working > 1 ? [`note: ${working} todos are in_progress; finish one before starting the next`] : [];
    const counts = countsText(args.todos);
    return ok([`todo list saved: ${counts}`, ...lines, ...note].join('\n'), {}, counts);
  },
});
