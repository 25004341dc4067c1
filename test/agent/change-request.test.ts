// Whether a message asks for files to be written or changed: a table of real-looking prompts, both ways.
import { describe, expect, it } from 'vitest';
import { asksForChanges } from '../../src/agent/change-request.js';

const asksForWrites: string[] = [
  // The README's own example, and the audit's.
  'Find all TODO comments and write tasks.md',
  'summarise README.md into SUMMARY.md',
  'Scan the repository and generate a README',
  'Generate docs/api.md',
  'generate a README',
  // Find or analyze, then write: the verb opens a later clause.
  'find all the deprecated calls and put them in deprecated.md',
  'document the API in docs/api.md',
  'list the deps into deps.txt',
  'list all TODOs > todos.txt',
  'review and fix',
  'analyze then refactor',
  'Review src/auth.ts and fix any security issues you find',
  'Analyze the dependencies and update the outdated ones',
  'Investigate why the build is slow, then optimize it',
  'Summarize the architecture and save it to ARCHITECTURE.md',
  'Explain the parser and write the explanation to docs/parser.md',
  'Audit the codebase for secrets; report findings to audit.md',
  'Review the PR and leave the summary in a new file',
  'Find all places where we read env vars and create a table in docs/env.md',
  'Compare the two implementations and merge them into one file',
  'Review the code. Add comments where it is unclear.',
  'Please review the README and improve the wording',
  'Summarize the repo, then create a CONTRIBUTING.md',
  'I want you to analyze the logs and write a report to report.md',
  'Can you list all the endpoints into endpoints.md?',
  'Check which dependencies are outdated and bump them',
  'Explain the error handling, and please add a test for the timeout',
  'Overview of the modules:\n- write docs/modules.md with one section each',
  'GOAL: Generate API documentation',
];

const readOnly: string[] = [
  'Explain how `runLoop` works',
  'Review the architecture of the whole project',
  'Find all places where we read environment variables',
  'Summarize the dependencies of every file in src/',
  'Summarize README.md',
  'What does src/agent/loop.ts do?',
  'How do I add a new provider?',
  'Why does the build fail and how should I fix it?',
  'Where do we write the session file?',
  'Find all places where we create users',
  'List all functions that write to disk',
  'Explain the read and write paths in src/db.ts',
  'Explain how read and write work',
  'Review the create, update and delete handlers',
  'Walk me through how we save files to disk',
  'Describe how data flows from the CLI into the agent loop',
  'Look into why the tests hang',
  'Review src/auth.ts for security issues; do not change anything',
  'Explain the code, change nothing',
  'Review the error handling in src/api/ and suggest improvements',
  'Compare src/a.ts to src/b.ts',
  'Review the changes to config.ts',
  'Explain this error: cannot write to file',
  'Find all TODO comments in src/parser.ts',
  'Which files import lodash?',
];

describe('asksForChanges', () => {
  it.each(asksForWrites)('%j asks for a change', (message) => {
    expect(asksForChanges(message)).toBe(true);
  });

  it.each(readOnly)('%j asks for none', (message) => {
    expect(asksForChanges(message)).toBe(false);
  });
});
