// Loading eval files a user wrote: a mistake is one error naming the file, the line and the fix, before any model call.
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvalFileError } from '../../src/evals/eval-files.js';
import { loadLlmCases } from '../../src/evals/llm-cases.js';
import { loadToolCases } from '../../src/evals/tool-evals.js';
import { makeWorkspace } from '../support/cli.js';

let dir: string | undefined;
afterEach(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

/** An evals directory holding `file` as llm/a.json (or tools/a.json) and a fixture `mini`. */
async function evalsWith(kind: 'llm' | 'tools', file: string): Promise<string> {
  dir = await makeWorkspace({ [`${kind}/a.json`]: file, 'fixtures/mini/a.txt': 'hello\n' });
  return dir;
}

async function loadError(kind: 'llm' | 'tools', file: string): Promise<EvalFileError> {
  const evals = await evalsWith(kind, file);
  const load = kind === 'llm' ? loadLlmCases(evals) : loadToolCases(evals);
  const error = (await load.then(
    () => undefined,
    (e: unknown) => e,
  )) as EvalFileError | undefined;
  if (!error) throw new Error(`expected ${kind}/a.json to be refused`);
  expect(error.code).toBe('eval_file');
  return { ...error, message: error.message.replace(`${evals}/`, '') } as EvalFileError;
}

const llmCase = (fields: string) =>
  `{"cases": [\n  {\n    "id": "x",\n    "intent": "explain",\n    "prompt": "p",\n${fields}\n  }\n]}\n`;

describe('LLM eval files', () => {
  it('takes a case with the fields the issue names and no reference call', async () => {
    const evals = await evalsWith('llm', llmCase('    "expected_tool": "read_file",\n    "fixture": "mini"'));
    expect((await loadLlmCases(evals)).map((c) => c.id)).toEqual(['x']);
  });

  it.each([
    [
      'a misspelt expected tool',
      '    "expected_tool": "read_files"',
      'llm/a.json line 6: x: `read_files` is not a tool Keel offers; did you mean `read_file`?',
      'tools: list_files, read_file',
    ],
    [
      'a misspelt forbidden tool',
      '    "expected_tool": "read_file",\n    "forbidden_tools": ["write_file", "edit_fil"]',
      'llm/a.json line 7: x: `edit_fil` is not a tool Keel offers; did you mean `edit_file`?',
      'edit_file',
    ],
    [
      'a fixture that does not exist',
      '    "expected_tool": "read_file",\n    "fixture": "nope"',
      'llm/a.json line 7: fixture `nope` not found in',
      'fixtures there: mini',
    ],
    [
      'a missing expected tool',
      '    "fixture": "mini"',
      'llm/a.json line 2: `cases[0].expected_tool` is missing',
      'a case: id, intent, prompt, expected_tool',
    ],
    [
      'an unknown key',
      '    "expected_tool": "read_file",\n    "expected": "grep"',
      'llm/a.json line 7: unknown key `cases[0].expected`',
      'a case: id, intent, prompt, expected_tool',
    ],
  ])('%s is refused at its line with a hint', async (_, fields, message, hint) => {
    const error = await loadError('llm', llmCase(fields));
    expect(error.message).toContain(message);
    expect(error.hint).toContain(hint);
  });

  it('invalid JSON names the line and column, without echoing the file', async () => {
    const error = await loadError('llm', '{"cases": [\n  {"id": "x",\n   "intent": tru}\n]}\n');
    expect(error.message).toBe("llm/a.json line 3, column 17: not valid JSON: Unexpected token '}'");
    expect(error.hint).toContain('comma, quote or bracket');
  });
});

describe('tool eval files', () => {
  it('a case on a fixture that does not exist is refused at load, naming its line', async () => {
    const file = `{\n  "tool": "read_file",\n  "cases": [\n    {\n      "name": "reads",\n      "fixture": "nope",\n      "args": {"path": "a.txt"},\n      "expect": {"output": {"contains": ["hello"]}}\n    }\n  ]\n}\n`;
    const error = await loadError('tools', file);
    expect(error.message).toMatch(/^tools\/a\.json line 6: fixture `nope` not found in /);
    expect(error.hint).toContain('fixtures there: mini');
  });

  it('an unknown expectation key names the path and line', async () => {
    const file = `{"tool": "read_file", "cases": [\n  {"name": "x", "args": {"path": "a.txt"},\n   "expect": {"output": {"contain": ["x"]}}}\n]}\n`;
    const error = await loadError('tools', file);
    expect(error.message).toBe('tools/a.json line 3: unknown key `cases[0].expect.output.contain`');
    expect(error.hint).toContain('a case: name, args, expect');
  });
});
