// In-process through runCommand (what the binary runs): todo_write's list as a `todo` event in stream-json and as a checklist on stderr, its validation errors
// read by the model, the list restored by `keel run --continue`, and plan files tracked as checklists: the
// instructions seeded before the first request, their statuses in --output json, the ones not done named on stderr.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolMessages, useE2E } from '../support/e2e.js';
import { ollamaRun } from '../support/run-in-process.js';

const { server, workspace } = useE2E();

type Status = 'pending' | 'in_progress' | 'done';
const todo = (id: string, content: string, status: Status) => ({ id, content, status });
const write = (...todos: ReturnType<typeof todo>[]) => ({
  toolCalls: [{ name: 'todo_write', args: { todos } }],
});

const eventsOf = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });

describe('todo_write', () => {
  it('emits the whole list as a todo event between the call and its result, in interactive mode too', async () => {
    const ws = await workspace();
    const list = [todo('1', 'Read the code', 'in_progress'), todo('2', 'Fix the bug', 'pending')];
    const s = await server([write(...list), { text: 'Planned.' }]);
    const r = await ollamaRun(s, ws, { mode: 'interactive', output: 'stream-json', prompt: 'x' });
    expect(r.code).toBe(0);
    const events = eventsOf(r.stdout);
    const types = events.map((e) => e.type);
    const at = types.indexOf('todo');
    expect(events[at]).toEqual({ type: 'todo', todos: list });
    expect(types.slice(at - 1, at + 2)).toEqual(['tool_call', 'todo', 'tool_result']);
    expect(events[at + 1]).toMatchObject({ name: 'todo_write', success: true });
    // Never asked about (a headless run would have refused the call).
    expect(types).not.toContain('approval_requested');
    expect(toolMessages(s.requests[1]!.body)).toEqual([
      'todo list saved: 0 done, 1 in progress, 1 pending\n[~] 1. Read the code\n[ ] 2. Fix the bug',
    ]);
  });

  it('shows the list on stderr in text mode: whole at first, then a line per change', async () => {
    const ws = await workspace();
    const s = await server([
      write(todo('1', 'Read the code', 'in_progress'), todo('2', 'Fix the bug', 'pending')),
      write(todo('1', 'Read the code', 'done'), todo('2', 'Fix the bug', 'in_progress')),
      { text: 'Done.' },
    ]);
    const r = await ollamaRun(s, ws, { prompt: 'x' }, { env: { TERM: 'xterm-256color' } });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('Done.');
    expect(r.stderr).toContain('todo list (0/2 done)\n  ◐ 1. Read the code\n  ☐ 2. Fix the bug\n');
    expect(r.stderr).toContain('  ☑ 1. Read the code\n  ◐ 2. Fix the bug\n');
    expect(r.stderr).toContain('✓ 1 done, 1 in progress, 0 pending');
  });

  it('uses ASCII marks on a dumb terminal, and still runs under --dry-run', async () => {
    const ws = await workspace();
    const s = await server([write(todo('a', 'Only step', 'done')), { text: 'Done.' }]);
    const r = await ollamaRun(s, ws, { dryRun: true, prompt: 'x' }, { env: { TERM: 'dumb' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('todo list (1/1 done)\n  [x] a. Only step\n');
    expect(toolMessages(s.requests[1]!.body)[0]).toMatch(/^todo list saved: 1 done/);
  });

  it('refuses duplicate ids and unknown statuses with errors the model reads, emitting no todo event', async () => {
    const ws = await workspace();
    const s = await server([
      write(todo('1', 'A', 'pending'), todo('1', 'B', 'pending')),
      {
        toolCalls: [{ name: 'todo_write', args: { todos: [{ id: '1', content: 'A', status: 'finished' }] } }],
      },
      { toolCalls: [{ name: 'todo_write', args: { items: [] } }] },
      { text: 'Giving up on the list.' },
    ]);
    const r = await ollamaRun(s, ws, { output: 'stream-json', prompt: 'x' });
    expect(r.code).toBe(0);
    expect(eventsOf(r.stdout).filter((e) => e.type === 'todo')).toEqual([]);
    const results = toolMessages(s.requests[3]!.body);
    expect(results[0]).toContain('todo list not saved: id "1" is used more than once');
    expect(results[1]).toMatch(/invalid arguments for todo_write: todos\.0\.status: /);
    expect(results[2]).toContain('missing required field todos');
  });

  it('restores the saved list on keel run --continue, shown before the first request', async () => {
    const ws = await workspace();
    const data = await workspace();
    const env = { XDG_DATA_HOME: data };
    const list = [todo('1', 'Read the code', 'done'), todo('2', 'Fix the bug', 'in_progress')];
    const first = await server([write(...list), { text: 'Stopping here.' }]);
    expect((await ollamaRun(first, ws, { prompt: 'start' }, { env })).code).toBe(0);

    const second = await server([
      write(todo('1', 'Read the code', 'done'), todo('2', 'Fix the bug', 'done')),
      { text: 'All done.' },
    ]);
    const r = await ollamaRun(
      second,
      ws,
      { continue: true, output: 'stream-json', prompt: 'go on' },
      { env },
    );
    expect(r.code).toBe(0);
    const todos = eventsOf(r.stdout).filter((e) => e.type === 'todo');
    expect(todos).toEqual([
      { type: 'todo', todos: list },
      { type: 'todo', todos: [list[0], todo('2', 'Fix the bug', 'done')] },
    ]);
    // The restored list came before the continued run's first model call, and after its run_start (the first event
    // of a run, for a consumer of the stream).
    const types = eventsOf(r.stdout).map((e) => e.type);
    expect(types.indexOf('todo')).toBeLessThan(types.indexOf('turn_start'));
    expect(types.indexOf('run_start')).toBeLessThan(types.indexOf('todo'));

    // And a text-mode continuation shows it as a checklist.
    const third = await server([{ text: 'Nothing left.' }]);
    const t = await ollamaRun(third, ws, { continue: true, prompt: 'status?' }, { env });
    expect(t.code).toBe(0);
    expect(t.stderr).toContain('todo list (2/2 done)');
  });
});

describe('plan files as tracked checklists', () => {
  const markdown =
    '# Task: Notes\n\n## Goal\n\nTidy the notes\n\n## Steps\n\n1. Read notes.txt\n2. Write summary.md\n3. Delete notes.txt\n';
  const yaml =
    'goal: Tidy the notes\ninstructions:\n  - Read notes.txt\n  - Write summary.md\n  - Delete notes.txt\n';
  const steps = ['Read notes.txt', 'Write summary.md', 'Delete notes.txt'];

  it('seeds the instructions as todos, asks to keep them current, and reports them after a turn limit (Markdown)', async () => {
    const ws = await workspace({ 'notes.txt': 'alpha\n', 'plan.md': markdown });
    const s = await server([
      write(
        todo('1', steps[0]!, 'in_progress'),
        todo('2', steps[1]!, 'pending'),
        todo('3', steps[2]!, 'pending'),
      ),
      { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
      write(
        todo('1', steps[0]!, 'done'),
        todo('2', steps[1]!, 'in_progress'),
        todo('3', steps[2]!, 'pending'),
      ),
    ]);
    const r = await ollamaRun(
      s,
      ws,
      { plan: join(ws, 'plan.md'), output: 'json', maxTurns: 3 },
      { env: { TERM: 'xterm-256color' } },
    );
    expect(r.code).not.toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.reason).toBe('turn-limit');
    expect(result.plan).toEqual([
      { id: '1', instruction: 'Read notes.txt', status: 'done' },
      { id: '2', instruction: 'Write summary.md', status: 'in_progress' },
      { id: '3', instruction: 'Delete notes.txt', status: 'pending' },
    ]);
    expect(r.stderr).toContain(
      'plan not finished: 1 of 3 instructions done; not done:\n  ◐ 2. Write summary.md\n  ☐ 3. Delete notes.txt\n',
    );
    const user = (s.requests[0]!.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'user',
    )!.content;
    expect(user).toContain(
      '3. Delete notes.txt\n\nEach instruction is on your todo list, its number as its id.',
    );
    expect(user).toContain('todo_write');
  });

  it('reports the steps left when the model answers early (YAML) and exits 4, and prints a line per status change in text mode', async () => {
    const ws = await workspace({ 'notes.txt': 'alpha\n', 'plan.yaml': yaml });
    const script = () => [
      write(todo('1', steps[0]!, 'done'), todo('2', steps[1]!, 'done'), todo('3', steps[2]!, 'pending')),
      { text: 'I stopped before deleting anything.' },
    ];
    const json = await ollamaRun(
      await server(script()),
      ws,
      { plan: join(ws, 'plan.yaml'), output: 'json' },
      { env: { TERM: 'dumb' } },
    );
    // The model's answer does not finish the plan: exit 4, as when the turns run out.
    expect(json.code).toBe(4);
    const result = JSON.parse(json.stdout);
    expect(result.reason).toBe('done');
    expect(result.plan.map((step: { status: string }) => step.status)).toEqual(['done', 'done', 'pending']);
    expect(json.stderr).toContain(
      'plan not finished: 2 of 3 instructions done; not done:\n  [ ] 3. Delete notes.txt\n',
    );

    const text = await ollamaRun(
      await server(script()),
      ws,
      { plan: join(ws, 'plan.yaml') },
      { env: { TERM: 'dumb' } },
    );
    expect(text.code).toBe(4);
    // The seeded list first, before the first request; then one line per instruction whose status changed.
    expect(text.stderr).toContain(
      'todo list (0/3 done)\n  [ ] 1. Read notes.txt\n  [ ] 2. Write summary.md\n  [ ] 3. Delete notes.txt\n',
    );
    expect(text.stderr).toContain('  [x] 1. Read notes.txt\n  [x] 2. Write summary.md\n  ✓ 2 done');
    expect(text.stderr).toContain('plan not finished: 2 of 3 instructions done');
  });

  it('ends the JSON with every instruction done and says nothing more when the plan is finished', async () => {
    const ws = await workspace({ 'plan.yaml': yaml });
    const s = await server([
      write(todo('1', steps[0]!, 'done'), todo('2', steps[1]!, 'done'), todo('3', steps[2]!, 'done')),
      { text: 'All three done.' },
    ]);
    const r = await ollamaRun(s, ws, { plan: join(ws, 'plan.yaml'), output: 'json' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).plan.every((step: { status: string }) => step.status === 'done')).toBe(true);
    expect(r.stderr).not.toContain('plan not finished');
  });
});
