// The plan prompt keeps XZatoma's exact shape, omitting empty sections.
import { describe, expect, test } from 'vitest';
import { parsePlan } from '../../src/plan/parse.js';
import { planToPrompt } from '../../src/plan/prompt.js';

const closing =
  'Use the available tools to accomplish this goal. You may adapt your approach as needed, but try to follow the instructions provided.';

describe('planToPrompt', () => {
  test('renders the xzatoma example exactly', () => {
    const plan = parsePlan(
      'goal: "Generate API documentation"\ncontext:\n  directory: "src/api/"\ninstructions:\n  - List all API endpoint files\n  - Extract function signatures\n  - Create OpenAPI spec\n',
      'plan.yaml',
    );
    expect(planToPrompt(plan)).toBe(
      [
        'You are assisting with the following task:',
        '',
        'GOAL: Generate API documentation',
        '',
        'CONTEXT:',
        '- Directory: src/api/',
        '',
        'INSTRUCTIONS (follow as guidance):',
        '1. List all API endpoint files',
        '2. Extract function signatures',
        '3. Create OpenAPI spec',
        '',
        closing,
      ].join('\n'),
    );
  });

  test('omits empty context and instructions', () => {
    const prompt = planToPrompt({ goal: 'Tidy up', context: [], instructions: [], file: 'p.md' });
    expect(prompt).toBe(`You are assisting with the following task:\n\nGOAL: Tidy up\n\n${closing}`);
  });

  test('free-text context has no key; multi-line steps stay under their number', () => {
    const prompt = planToPrompt({
      goal: 'g',
      context: [{ value: 'Be careful' }],
      instructions: ['first\nmore'],
      file: 'p.md',
    });
    expect(prompt).toContain('CONTEXT:\n- Be careful\n\n');
    expect(prompt).toContain('1. first\n   more\n\n');
  });

  test('a tracked plan asks the model to keep its instructions current with todo_write', () => {
    const plan = { goal: 'g', context: [], instructions: ['a', 'b'], file: 'p.md' };
    expect(planToPrompt(plan, { tracked: true })).toContain(
      '2. b\n\nEach instruction is on your todo list, its number as its id. Keep the list current with todo_write',
    );
    expect(planToPrompt({ ...plan, instructions: [] }, { tracked: true })).not.toContain('todo_write');
  });
});
