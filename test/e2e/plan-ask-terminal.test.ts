// End to end in a real terminal (tmux): the model's ask_user question with its options numbered, answered by
// number; then /plan: a plan-mode turn offers only what plans, the chat asks how to go on, and "a" executes the
// plan in auto mode (the plan's todo list carried over, the file written).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolMessages, useE2E } from '../support/e2e.js';
import { hasTmux, startTerminal } from '../support/tmux.js';

const { server, workspace, track } = useE2E();

const toolNames = (body: { tools?: { function?: { name: string }; name?: string }[] }) =>
  (body.tools ?? []).map((t) => t.function?.name ?? t.name);

describe.skipIf(!hasTmux())('ask_user and plan mode in the chat', () => {
  it('answers a question by its number, then plans in plan mode and executes the plan in auto mode', async () => {
    const s = await server([
      {
        toolCalls: [
          { name: 'ask_user', args: { question: 'Which greeting?', options: ['hello', 'hi there'] } },
        ],
      },
      { text: 'I will use hi there.' },
      {
        toolCalls: [
          {
            name: 'todo_write',
            args: { todos: [{ id: '1', content: 'write greeting.txt', status: 'pending' }] },
          },
        ],
      },
      { text: 'Plan: one step, write greeting.txt.' },
      { toolCalls: [{ name: 'write_file', args: { path: 'greeting.txt', content: 'hi there\n' } }] },
      { text: 'Done: greeting.txt written.' },
    ]);
    const ws = await workspace();
    const term = await startTerminal(
      ['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws],
      {
        cwd: ws,
      },
    );
    track(term.close);
    await term.waitFor('› ');
    await term.type('pick a greeting');
    await term.keys('Enter');
    await term.waitFor('answer (1-2 or your answer)');
    await term.type('2');
    await term.keys('Enter');
    await term.waitFor('I will use hi there.');
    expect(toolMessages(s.requests[1]!.body).at(-1)).toContain('hi there');

    await term.type('/plan');
    await term.keys('Enter');
    await term.waitFor('plan mode ·');
    await term.type('plan writing the greeting');
    await term.keys('Enter');
    await term.waitFor('k <feedback> to keep planning');
    // Plan mode offers only what plans: no writes, no commands.
    const planned = toolNames(s.requests[2]!.body);
    expect(planned).toContain('todo_write');
    expect(planned).toContain('read_file');
    expect(planned).not.toContain('write_file');
    expect(planned).not.toContain('execute_command');
    await term.type('a');
    await term.keys('Enter');
    const screen = await term.waitFor('Done: greeting.txt written.');
    if (process.env.SHOW_SCREEN) console.log(screen);
    expect(await readFile(join(ws, 'greeting.txt'), 'utf8')).toBe('hi there\n');
    // Executing in auto mode: the plan's list and the instruction to carry it out reach the model.
    expect(JSON.stringify(s.requests[4]!.body)).toContain('Carry out the plan on the todo list');
    expect(toolNames(s.requests[4]!.body)).toContain('write_file');
  });
});
