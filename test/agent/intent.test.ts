// The intent classifier: a table of messages and what they ask for, the entities they name, and its speed.
import { describe, expect, it } from 'vitest';
import { classifyIntent, extractEntities, type Intent, type Scope } from '../../src/agent/intent.js';
import { steeringNote } from '../../src/agent/steering.js';

const table: [string, Intent, Scope][] = [
  ['Fix the crash in src/parser.ts when the input is empty', 'debug', 'single_file'],
  ['The login test fails with a TypeError, fix it', 'debug', 'single_file'],
  ['npm run build crashes with a stack trace', 'debug', 'single_file'],
  ['Add a --verbose flag to the CLI', 'implement', 'single_file'],
  ['Implement a REST API with users and sessions', 'implement', 'multi_file'],
  ['Create src/server.ts and src/routes.ts for the new endpoint', 'implement', 'multi_file'],
  ['Explain how `runLoop` works', 'explain', 'single_file'],
  ['What does src/agent/loop.ts do?', 'explain', 'single_file'],
  ['Write unit tests for src/agent/intent.ts', 'test', 'single_file'],
  ['run the tests', 'test', 'single_file'],
  ['Add a test for parseConfig', 'test', 'single_file'],
  ['Rename parseConfig to loadConfig across the codebase', 'refactor', 'whole_project'],
  ['refactor src/a.ts and src/b.ts to share code', 'refactor', 'multi_file'],
  ['Simplify the retry logic in retry.ts', 'refactor', 'single_file'],
  ['Review the architecture of the whole project', 'analyze', 'whole_project'],
  ['Find all places where we read environment variables', 'analyze', 'single_file'],
  ['Summarize the dependencies of every file in src/', 'analyze', 'whole_project'],
];

describe('classifyIntent', () => {
  it.each(table)('%s → %s, %s', (message, intent, scope) => {
    const c = classifyIntent(message);
    expect({ intent: c.intent, scope: c.scope }).toEqual({ intent, scope });
    expect(c.confidence).toBeGreaterThanOrEqual(0.5);
    expect(c.confidence).toBeLessThanOrEqual(1);
  });

  it('gives a message without keywords a low confidence and no steering note', () => {
    for (const message of ['go on', 'more', 'hello there']) {
      const c = classifyIntent(message);
      expect(c.confidence, message).toBeLessThan(0.5);
      expect(steeringNote(c, true), message).toBeUndefined();
    }
    expect(classifyIntent('is this right?').intent).toBe('explain');
  });

  it('names the paths and symbols of the message, paths first', () => {
    expect(
      extractEntities('Move `parseArgs` from src/cli/main.ts to lib/args.ts and call loadConfig()'),
    ).toEqual(['src/cli/main.ts', 'lib/args.ts', 'parseArgs', 'loadConfig']);
    expect(extractEntities('use snake_case names, e.g. user_id, and/or camelCase; see README.md.')).toEqual([
      'README.md',
      'camelCase',
      'snake_case',
      'user_id',
    ]);
    expect(extractEntities('see https://example.com/x and version 1.2.3')).toEqual([]);
  });
});

describe('steeringNote', () => {
  it('tells a debug task to reproduce first, then fix, then verify', () => {
    const note = steeringNote(classifyIntent('Fix the crash in src/parser.ts'), true);
    expect(note).toBe('[Keel: debug. Reproduce it, fix the cause, verify.]');
    expect(note).not.toContain('todo_write');
  });

  it('asks a task across files to plan with todo_write when the tool is offered, and plainly when not', () => {
    const c = classifyIntent('Implement a REST API with users and sessions');
    expect(Buffer.byteLength(steeringNote(c, true)!)).toBeLessThan(100);
    expect(steeringNote(c, true)).toContain('Plan first with todo_write.');
    expect(steeringNote(c, false)).toContain('List the steps first.');
  });

  it('tells explain and analyze tasks not to change files', () => {
    expect(steeringNote(classifyIntent('Explain how `runLoop` works'), false)).toContain('change nothing');
    expect(steeringNote(classifyIntent('Review the architecture'), false)).toContain('change nothing');
  });
});
