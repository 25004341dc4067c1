// ask_user (headless and answered) and plan mode's pure parts: the tools it offers, what its policy refuses, the
// JSON plan a plan-mode run prints read back as a plan.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlanChoice } from '../../src/cli/chat-plan.js';
import { NO_USER_ANSWER } from '../../src/core/ask-user.js';
import { parsePlan } from '../../src/plan/parse.js';
import { createPolicy } from '../../src/safety/policy.js';
import { askUserTool } from '../../src/tools/ask-user.js';
import { defaultTools, offeredInPlanMode } from '../../src/tools/registry.js';
import { chosenAnswer } from '../../src/ui/question-prompt.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});
afterAll(() => ws.cleanup());

describe('ask_user', () => {
  it('headless, tells the model nobody can answer, and says the question as an event', async () => {
    const result = await askUserTool.execute(
      { question: 'Which database?', options: ['sqlite', 'postgres'] },
      ws.ctx,
    );
    expect(result.output).toBe(NO_USER_ANSWER);
    expect(ws.events.at(-1)).toMatchObject({
      type: 'user_question',
      question: 'Which database?',
      options: ['sqlite', 'postgres'],
    });
  });

  it("with someone to ask, returns the user's answer and records it as an event", async () => {
    const events: unknown[] = [];
    const ctx = {
      ...ws.ctx,
      emit: (e: unknown) => events.push(e),
      askUser: async (q: { options?: string[] }) => q.options![1]!,
    };
    const result = await askUserTool.execute({ question: 'Which?', options: ['a', 'b'] }, ctx);
    expect(result.output).toBe('The user answered: b');
    expect(events.at(-1)).toMatchObject({ type: 'user_answer', answer: 'b' });
  });

  it.each([
    ['2', ['x', 'y'], 'y'],
    [' 1 ', ['x', 'y'], 'x'],
    ['3', ['x', 'y'], '3'],
    ['use redis', ['x', 'y'], 'use redis'],
    ['1', [], '1'],
  ])('the chat reads %j with options %j as %j', (line, options, answer) => {
    expect(chosenAnswer(line, options)).toBe(answer);
  });
});

describe('plan mode', () => {
  it('offers the read-only tools, todo_write and ask_user, nothing that changes things', () => {
    const offered = defaultTools()
      .filter(offeredInPlanMode)
      .map((t) => t.name);
    expect(offered).toEqual(
      expect.arrayContaining(['read_file', 'grep', 'list_files', 'todo_write', 'ask_user']),
    );
    for (const name of ['write_file', 'edit_file', 'execute_command', 'delete_path', 'kill_command'])
      expect(offered).not.toContain(name);
    expect(offeredInPlanMode({ name: 'web_fetch', safety: 'caution' })).toBe(true);
  });

  it('the policy refuses a write even when called, and lets reads and read-only commands run', async () => {
    const policy = createPolicy({ mode: 'plan', workspace: ws.ctx.workspace });
    const write = await policy.decide({
      tool: 'write_file',
      safety: 'caution',
      args: { path: 'a.txt' },
      preview: { reads: [], writes: [path.join(ws.root, 'a.txt')], summary: '' },
    });
    expect(write.decision).toBe('deny');
    expect(write.hint).toContain('plan mode makes no changes');
    const command = (c: string) =>
      policy.decide({
        tool: 'execute_command',
        safety: 'dangerous',
        args: { command: c },
        preview: { reads: [], writes: [], summary: '' },
      });
    expect((await command('git status')).decision).toBe('allow');
    expect((await command('npm install')).decision).toBe('deny');
  });

  it("a plan-mode run's JSON output is a plan file: its steps the instructions, its answer the rationale", () => {
    const output = JSON.stringify({
      answer: 'Small steps keep the tests green.',
      goal: 'add a --json flag',
      plan: [
        { id: '1', instruction: 'Read the CLI parser', status: 'pending' },
        { id: '2', instruction: 'Add the flag and a test', status: 'pending' },
      ],
      reason: 'done',
    });
    expect(parsePlan(output, 'plan.json')).toEqual({
      goal: 'add a --json flag',
      context: [{ key: 'rationale', value: 'Small steps keep the tests green.' }],
      instructions: ['Read the CLI parser', 'Add the flag and a test'],
      file: 'plan.json',
    });
    expect(() => parsePlan(JSON.stringify({ answer: 'x', plan: [] }), 'p.json')).toThrow(/no plan in it/);
    // An answer that names itself (as the prompt asks for "a short rationale") is not prefixed twice.
    const named = JSON.stringify({
      ...JSON.parse(output),
      answer: '**Rationale:** Small steps keep the tests green.',
    });
    expect(parsePlan(named, 'plan.json').context).toEqual([
      { key: 'rationale', value: 'Small steps keep the tests green.' },
    ]);
  });

  it.each([
    ['a', { mode: 'auto' }],
    ['interactive', { mode: 'interactive' }],
    ['R', { mode: 'restricted' }],
    ['k use sqlite instead', { feedback: 'use sqlite instead' }],
    ['k', { feedback: 'Keep planning: refine the plan.' }],
    ['', { stop: true }],
    ['s', { stop: true }],
    ['full', undefined],
    ['maybe', undefined],
  ])('in the chat, %j after a plan means %j', (line, choice) => {
    expect(parsePlanChoice(line)).toEqual(choice);
  });
});
