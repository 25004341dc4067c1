// The todo board and todo_write: the whole list replaced and reported as a `todo` event, duplicates refused, a
// plan's steps followed through rewritten lists, and todo_write never asked about or skipped in any mode.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { TodoBoard, todoCounts, todoProblems } from '../../src/core/todo-board.js';
import type { TodoItem } from '../../src/core/todos.js';
import { planTodos, trackPlan } from '../../src/plan/progress.js';
import { MODES } from '../../src/safety/modes.js';
import { createPolicy } from '../../src/safety/policy.js';
import { executeToolCall } from '../../src/tools/executor.js';
import { createRegistry } from '../../src/tools/registry.js';
import { todoWriteTool } from '../../src/tools/todo-write.js';
import { createStyle } from '../../src/ui/style.js';
import { renderTodoUpdate } from '../../src/ui/todo-list.js';
import { makeWorkspace, type TestWorkspace } from '../tools/helpers.js';

const list: TodoItem[] = [
  { id: '1', content: 'Read the code', status: 'done' },
  { id: '2', content: 'Write the tests', status: 'in_progress' },
  { id: '3', content: 'Update the README', status: 'pending' },
];

function board() {
  const events: AgentEvent[] = [];
  return { events, board: new TodoBoard((event) => events.push(event)) };
}

describe('TodoBoard', () => {
  test('set replaces the whole list and emits it as one todo event', () => {
    const { events, board: b } = board();
    b.set(list);
    b.set([{ id: 'a', content: 'Other', status: 'pending' }]);
    expect(b.items()).toEqual([{ id: 'a', content: 'Other', status: 'pending' }]);
    expect(events).toEqual([
      { type: 'todo', todos: list },
      { type: 'todo', todos: [{ id: 'a', content: 'Other', status: 'pending' }] },
    ]);
  });

  test('items is a copy: changing it leaves the board as it was', () => {
    const { board: b } = board();
    b.set(list);
    const items = b.items();
    items[0]!.status = 'pending';
    items.pop();
    expect(b.items()).toEqual(list);
  });

  test('restore is silent; announce reports the list, and nothing when it is empty', () => {
    const { events, board: b } = board();
    b.announce();
    expect(events).toEqual([]);
    b.restore(list);
    expect(events).toEqual([]);
    expect(b.items()).toEqual(list);
    b.announce();
    expect(events).toEqual([{ type: 'todo', todos: list }]);
  });

  test('todoProblems names each duplicate id once; a list of unique ids has none', () => {
    expect(todoProblems(list)).toEqual([]);
    const doubled = [...list, { ...list[0]! }, { ...list[0]! }];
    expect(todoProblems(doubled)).toEqual(['id "1" is used more than once; give each todo its own id']);
  });

  test('todoCounts counts each status', () => {
    expect(todoCounts(list)).toEqual({ done: 1, in_progress: 1, pending: 1 });
    expect(todoCounts([])).toEqual({ done: 0, in_progress: 0, pending: 0 });
  });
});

describe('plan progress', () => {
  test('planTodos numbers the instructions from 1, all pending', () => {
    expect(planTodos(['a', 'b'])).toEqual([
      { id: '1', content: 'a', status: 'pending' },
      { id: '2', content: 'b', status: 'pending' },
    ]);
  });

  test('an instruction left off a later list keeps its last status; other ids are ignored', () => {
    const tracker = trackPlan(['a', 'b', 'c']);
    tracker.update([
      { id: '1', content: 'a', status: 'done' },
      { id: '2', content: 'b', status: 'in_progress' },
    ]);
    tracker.update([
      { id: '2', content: 'b, reworded', status: 'done' },
      { id: 'x', content: 'extra', status: 'done' },
    ]);
    expect(tracker.steps()).toEqual([
      { id: '1', instruction: 'a', status: 'done' },
      { id: '2', instruction: 'b', status: 'done' },
      { id: '3', instruction: 'c', status: 'pending' },
    ]);
  });
});

describe('renderTodoUpdate', () => {
  const style = createStyle(false);

  test('the first list is shown whole with a count, in glyphs or ASCII', () => {
    expect(renderTodoUpdate(undefined, list, style, false)).toBe(
      'todo list (1/3 done)\n  ☑ 1. Read the code\n  ◐ 2. Write the tests\n  ☐ 3. Update the README\n',
    );
    expect(renderTodoUpdate(undefined, list, style, true)).toBe(
      'todo list (1/3 done)\n  [x] 1. Read the code\n  [~] 2. Write the tests\n  [ ] 3. Update the README\n',
    );
  });

  test('a later list shows only the items added or changed; an unchanged list prints nothing', () => {
    const next: TodoItem[] = [
      list[0]!,
      { ...list[1]!, status: 'done' },
      { ...list[2]!, status: 'in_progress' },
      { id: '4', content: 'Release', status: 'pending' },
    ];
    expect(renderTodoUpdate(list, next, style, true)).toBe(
      '  [x] 2. Write the tests\n  [~] 3. Update the README\n  [ ] 4. Release\n',
    );
    expect(renderTodoUpdate(list, list, style, true)).toBe('');
  });

  test('a different list altogether is shown whole; clearing the list says so', () => {
    const other: TodoItem[] = [{ id: 'a', content: 'New task', status: 'pending' }];
    expect(renderTodoUpdate(list, other, style, true)).toBe('todo list (0/1 done)\n  [ ] a. New task\n');
    expect(renderTodoUpdate(list, [], style, true)).toBe('todo list cleared\n');
  });

  test('control characters in todo text are escaped and the text stays on one line', () => {
    const out = renderTodoUpdate(
      undefined,
      [{ id: '1', content: 'evil\x1b[2J\nsecond line', status: 'pending' }],
      style,
      true,
    );
    expect(out).toBe('todo list (0/1 done)\n  [ ] 1. evil\\x1b[2J second line\n');
  });
});

describe('todo_write through the executor', () => {
  let ws: TestWorkspace;
  beforeEach(async () => {
    ws = await makeWorkspace();
  });
  afterEach(() => ws.cleanup());

  const registry = createRegistry([todoWriteTool as never]);
  const call = (args: unknown) => ({ id: 'call-1', name: 'todo_write', input: JSON.stringify(args) });

  test.each(MODES)('runs without asking in %s mode, and under --dry-run', async (mode) => {
    for (const dryRun of [false, true]) {
      const events: AgentEvent[] = [];
      const todos = new TodoBoard((event) => events.push(event));
      const held = {
        registry,
        policy: createPolicy({ mode, workspace: ws.ctx.workspace }),
        dryRun,
        approve: () => {
          throw new Error('todo_write must never be asked about');
        },
      };
      const result = await executeToolCall(call({ todos: list }), 1, held, { ...ws.ctx, todos });
      expect(result.success, result.error).toBe(true);
      expect(todos.items()).toEqual(list);
      expect(events).toEqual([{ type: 'todo', todos: list }]);
    }
  });

  test('the model reads the counts and the list; numeric ids are taken as text', async () => {
    const todos = new TodoBoard(() => {});
    const result = await executeToolCall(
      call({ todos: [{ id: 1, content: 'Read', status: 'done' }] }),
      1,
      { registry, ...ws.held },
      { ...ws.ctx, todos },
    );
    expect(result.output).toBe('todo list saved: 1 done, 0 in progress, 0 pending\n[x] 1. Read');
    expect(todos.items()).toEqual([{ id: '1', content: 'Read', status: 'done' }]);
  });

  test('two items in progress are kept, with a note', async () => {
    const todos = new TodoBoard(() => {});
    const both = list.map((todo) => ({ ...todo, status: 'in_progress' as const }));
    const result = await executeToolCall(
      call({ todos: both }),
      1,
      { registry, ...ws.held },
      { ...ws.ctx, todos },
    );
    expect(result.success).toBe(true);
    expect(result.output).toContain('note: 3 todos are in_progress; finish one before starting the next');
    expect(todos.items()).toEqual(both);
  });

  test('duplicate ids and bad statuses are errors the model reads; the board is left as it was', async () => {
    const events: AgentEvent[] = [];
    const todos = new TodoBoard((event) => events.push(event));
    todos.restore(list);
    const duplicate = await executeToolCall(
      call({ todos: [list[0], { ...list[1], id: '1' }] }),
      1,
      { registry, ...ws.held },
      { ...ws.ctx, todos },
    );
    expect(duplicate.success).toBe(false);
    expect(duplicate.error).toBe(
      'todo list not saved: id "1" is used more than once; give each todo its own id',
    );
    const badStatus = await executeToolCall(
      call({ todos: [{ id: '1', content: 'x', status: 'finished' }] }),
      1,
      { registry, ...ws.held },
      { ...ws.ctx, todos },
    );
    expect(badStatus.success).toBe(false);
    expect(badStatus.error).toMatch(/^invalid arguments for todo_write: todos\.0\.status: /);
    expect(todos.items()).toEqual(list);
    expect(events.filter((e) => e.type === 'todo')).toEqual([]);
  });

  test('without a board (a context that has none) it says it is unavailable', async () => {
    const result = await executeToolCall(call({ todos: list }), 1, { registry, ...ws.held }, ws.ctx);
    expect(result.error).toBe('todo_write is not available in this session');
  });
});
