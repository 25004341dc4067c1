// The intent classifier: a table of messages and what they ask for, the entities they name, and its speed.
import { describe, expect, it } from 'vitest';
import { extractEntities } from '../../src/agent/entities.js';
import { classifyIntent, type Intent, keywordHits, type Scope } from '../../src/agent/intent.js';
import { INTENT_KEYWORDS, PROBLEM_NOUNS, SCOPE_KEYWORDS } from '../../src/agent/intent-keywords.js';
import { INTENT_GUIDANCE, steeringNote } from '../../src/agent/steering.js';
import { planToPrompt } from '../../src/plan/prompt.js';

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
  // Documentation named after a reading verb is what is read, not docs to write.
  ['Summarize the changelog', 'analyze', 'single_file'],
  ['Document the errors module', 'document', 'single_file'],
];

describe('classifyIntent', () => {
  it.each(table)('%s → %s, %s', (message, intent, scope) => {
    const c = classifyIntent(message);
    expect({ intent: c.intent, scope: c.scope }).toEqual({ intent, scope });
    expect(c.confidence).toBeGreaterThanOrEqual(0.5);
    expect(c.confidence).toBeLessThanOrEqual(1);
  });

  it('gives a message without keywords a low confidence and no steering note', () => {
    // Documentation read is not documentation to write: "read readme" gets no "write the docs" note.
    for (const message of ['go on', 'more', 'hello there', 'read readme', 'look at the docs']) {
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

  it('keeps every note under 100 bytes, whatever the intent and scope', () => {
    for (const intent of Object.keys(INTENT_GUIDANCE) as Intent[]) {
      for (const scope of ['single_file', 'multi_file', 'whole_project'] as Scope[]) {
        const note = steeringNote({ intent, scope, entities: [], confidence: 0.9 }, true)!;
        expect(Buffer.byteLength(note), note).toBeLessThan(100);
      }
    }
  });
});

/** Goals as a plan file gives them: the prompt is the plan's, boilerplate included. */
const plan = (goal: string, instructions: string[]) =>
  planToPrompt({ goal, context: [], instructions, file: 'plan.yaml' }, { tracked: true });

/** Tasks that write a file or change code, whatever they read first: never told to change nothing. */
const writes: string[] = [
  'Find all TODO comments and write tasks.md',
  'summarise README.md into SUMMARY.md',
  'Scan the repository and generate a README',
  'find all the deprecated calls and put them in deprecated.md',
  'list the deps into deps.txt',
  'review and fix',
  'analyze then refactor',
  'Analyze the dependencies and update the outdated ones',
  'Summarize the architecture and save it to ARCHITECTURE.md',
  'Explain the parser and write the explanation to docs/parser.md',
  'Audit the codebase for secrets; report findings to audit.md',
  'Please review the README and improve the wording',
  'I want you to analyze the logs and write a report to report.md',
  plan('Generate docs/api.md', ['List all API endpoint files', 'Extract function signatures']),
  plan('Scan the repository and generate a README', [
    'List all source files',
    'Identify the main components',
  ]),
];

/** Questions and analyses: still told to change nothing. */
const questions: string[] = [
  'Explain how `runLoop` works',
  'Review the architecture of the whole project',
  'Find all places where we read environment variables',
  'Summarize README.md',
  'How do I add a new provider?',
  'Find all places where we create users',
  'List all functions that write to disk',
  'Explain the read and write paths in src/db.ts',
  'Review src/auth.ts for security issues; do not change anything',
  'Review the error handling in src/api/ and suggest improvements',
  plan('Audit the authentication module', ['List the endpoints', 'Check how each one validates its input']),
];

describe('the read-only note', () => {
  it.each(writes)('is not on a task that writes: %j', (message) => {
    const c = classifyIntent(message);
    expect(['explain', 'analyze']).not.toContain(c.intent);
    expect(steeringNote(c, true) ?? '').not.toContain('change nothing');
  });

  it.each(questions)('is on a question or an analysis: %j', (message) => {
    expect(steeringNote(classifyIntent(message), true)).toContain('change nothing');
  });

  it('reads a write with no other work word as implement, confidently enough to steer', () => {
    const c = classifyIntent('summarise README.md into SUMMARY.md');
    expect(c).toMatchObject({ intent: 'implement', confidence: 0.5 });
    expect(steeringNote(c, false)).toBe(
      '[Keel: implement. Follow local conventions; verify. List the steps first.]',
    );
    expect(classifyIntent('review and fix').intent).toBe('debug');
    expect(classifyIntent('analyze then refactor').intent).toBe('refactor');
  });
});

describe('keyword hits', () => {
  // The regular expressions keywordHits stands for: the classifier's definition of a hit.
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = (words: readonly string[]) =>
    new RegExp(`(?:^|[^\\w'])(${words.map(literal).join('|')})(?=$|[^\\w'])`, 'g');

  it('counts exactly as the alternation of the keywords, on 3,000 messages made of keywords and edges', () => {
    const lists = [...INTENT_KEYWORDS.map(([, words]) => words), ...SCOPE_KEYWORDS.map(([, words]) => words)];
    const pieces = [...new Set(lists.flat())];
    const glue = [' ', "'", '-', '.', ', ', '_', 'x', '\n', 'é', 's', '9', '', '  '];
    let seed = 7;
    const pick = <T>(items: readonly T[]): T => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return items[seed % items.length]!;
    };
    for (let i = 0; i < 3000; i++) {
      const parts: string[] = [];
      for (let k = 0; k < 1 + (i % 9); k++)
        parts.push(pick(glue), pick(pieces).slice(0, i % 5 === 0 ? 3 : undefined));
      const text = parts.join('').toLowerCase();
      for (const words of lists) {
        expect(keywordHits(text, words), text).toBe([...text.matchAll(pattern(words))].length);
        expect(keywordHits(text, words, true) > 0, text).toBe(pattern(words).test(text));
      }
    }
  });
});

describe('classifyIntent on a message with attached content', () => {
  const packageJson = '{\n  "scripts": { "test": "vitest run --fix failing tests" }\n}';
  it.each([
    [
      'an @file block (chat, custom commands)',
      `what is in @package.json?\n\n<file path="package.json">\n${packageJson}\n</file>`,
    ],
    [
      'piped stdin',
      `what does this do?\n\nInput piped to keel on stdin:\n(the piped input was capped: …)\n<stdin>\n${packageJson}\n</stdin>`,
    ],
    [
      'an editor resource',
      `what does this do?\n<context ref="file:///w/package.json">\n${packageJson}\n</context>\n`,
    ],
  ])('classifies the words the user wrote, not %s', (_, message) => {
    const c = classifyIntent(message);
    expect(c.intent).toBe('explain');
    expect(c.entities).not.toContain('vitest');
  });
});

describe('classifyIntent on a message naming paths', () => {
  it.each([
    ['summarize test/helpers/create-http-test-server.ts', 'analyze'],
    ['Add retries to src/fix-headers.ts', 'implement'],
    ['Explain source/errors/HTTPError.ts', 'explain'],
    ['Fix the crash in test/parser.test.ts', 'debug'],
  ])('%s → %s: the words of a path are not keywords', (message, intent) => {
    expect(classifyIntent(message).intent).toBe(intent);
  });
});

describe("classifyIntent on a plan's prompt", () => {
  it("names the plan's entities, not those of Keel's sentences around it (todo_write, in_progress)", () => {
    const c = classifyIntent(
      planToPrompt(
        {
          goal: 'Collect the TODOs into TODO.md',
          context: [],
          instructions: ['Read src/a.ts'],
          file: 'p.yaml',
        },
        { tracked: true },
      ),
    );
    expect(c.entities).toEqual(['TODO.md', 'src/a.ts']);
  });
});

describe('classifyIntent on a problem word as the object of another verb', () => {
  // "errors", "bug", "crash" name what a request is about; only a message that is about fixing them is debug.
  it.each([
    ['Document the errors module', 'document'],
    ['document the bug tracker integration', 'document'],
    ['Write docs for the errors module', 'document'],
    ['Write documentation for the crash reporter', 'document'],
    ['Please document how errors are reported', 'document'],
    ['Can you add docstrings to the exception classes?', 'document'],
    ['Add JSDoc comments to src/errors.ts', 'document'],
    ['Update the README with the new error codes', 'document'],
    ['Generate API docs for the crash module', 'document'],
    ['Document every error code and the bugs they point to', 'document'],
    ['Write a README section on common errors', 'document'],
    ['Explain the errors module', 'explain'],
    ['What does the error handler do?', 'explain'],
    ['Could you explain the bugs and crashes in the parser?', 'explain'],
    ['Describe the exception hierarchy', 'explain'],
    ['Add error handling to the parser', 'implement'],
    ['Write tests for the error paths', 'test'],
    ['Refactor the error handling in the client', 'refactor'],
  ])('%s → %s', (message, intent) => {
    const c = classifyIntent(message);
    expect(c.intent).toBe(intent);
    expect(c.confidence, 'confident enough to steer').toBeGreaterThanOrEqual(0.5);
  });

  it.each([
    'Fix the errors in the module',
    'fix the errors in the errors module',
    'Please fix the errors in the documentation',
    'Fix the bug in the docs generator',
    'Fix the broken links in the docs',
    'Debug the crash in the documentation build',
    'The README generator crashes on empty input',
    'There is a bug in the docs generator',
    'Getting errors when I build the docs',
    'The docs site fails to build',
    'Errors everywhere after the upgrade, please fix',
    'Explain the crash in the parser and fix it',
    'Why does the doc build fail?',
  ])('%s → debug', (message) => {
    expect(classifyIntent(message).intent).toBe('debug');
  });

  it('takes the problem nouns from the debug keywords', () => {
    const debug = INTENT_KEYWORDS.find(([intent]) => intent === 'debug')![1];
    expect([...PROBLEM_NOUNS].filter((w) => !debug.includes(w))).toEqual([]);
  });

  it('tells a documentation task to write from the code and keep behaviour, in under 100 bytes', () => {
    const note = steeringNote(classifyIntent('Document the errors module across the codebase'), true)!;
    expect(note).toBe(
      '[Keel: document. Write the docs from the code; keep behaviour. Plan first with todo_write.]',
    );
    expect(Buffer.byteLength(note)).toBeLessThan(100);
  });
});
