// Plan files: the three formats parse to the same plan, and each kind of problem names the file and line.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { PlanError } from '../../src/core/errors.js';
import { loadPlan, type Plan, parsePlan } from '../../src/plan/parse.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'keel-plan-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const yamlPlan = `title: Generate Project Documentation
goal: Create comprehensive documentation for the project
context:
  Repository: /path/to/project
  Focus on: Architecture and API reference
instructions:
  - Scan repository structure
  - Read main source files
  - Generate docs/architecture.md
`;

const jsonPlan = `{
  "name": "Generate Project Documentation",
  "goal": "Create comprehensive documentation for the project",
  "context": [{ "Repository": "/path/to/project" }, { "Focus on": "Architecture and API reference" }],
  "steps": ["Scan repository structure", "Read main source files", "Generate docs/architecture.md"]
}
`;

const markdownPlan = `# Task: Generate Project Documentation

## Goal

Create comprehensive documentation for the project

## Context

- Repository: /path/to/project
- Focus on: Architecture and API reference

## Steps

1. Scan repository structure
2. Read main source files
3. Generate docs/architecture.md
`;

const expected: Omit<Plan, 'file'> = {
  title: 'Generate Project Documentation',
  goal: 'Create comprehensive documentation for the project',
  context: [
    { key: 'Repository', value: '/path/to/project' },
    { key: 'Focus on', value: 'Architecture and API reference' },
  ],
  instructions: ['Scan repository structure', 'Read main source files', 'Generate docs/architecture.md'],
};

function planError(text: string, file: string): PlanError {
  try {
    parsePlan(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(PlanError);
    return error as PlanError;
  }
  throw new Error(`expected ${file} to be rejected`);
}

describe('equivalent plans in every format', () => {
  test.each([
    ['plan.yaml', yamlPlan],
    ['plan.yml', yamlPlan],
    ['plan.json', jsonPlan],
    ['plan.md', markdownPlan],
    ['plan.markdown', markdownPlan],
  ])('%s parses to the same plan', async (name, text) => {
    const file = join(root, name);
    await writeFile(file, text);
    expect(await loadPlan(file)).toEqual({ ...expected, file });
  });

  test('CRLF line endings and a byte-order mark are accepted', () => {
    const text = `\uFEFF${markdownPlan.replace(/\n/g, '\r\n')}`;
    expect(parsePlan(text, 'p.md')).toEqual({ ...expected, file: 'p.md' });
  });
});

describe('markdown specifics', () => {
  test('without a Goal section the H1 title is the goal; other sections become keyed context', () => {
    const plan = parsePlan(
      '# Fix the login bug\n\nIt crashes on empty passwords.\n\n## Constraints\n\n- no new dependencies\n\n## Tasks\n\n- [ ] Reproduce it\n- [ ] Fix it\n',
      'p.md',
    );
    expect(plan).toEqual({
      title: 'Fix the login bug',
      goal: 'Fix the login bug',
      context: [
        { value: 'It crashes on empty passwords.' },
        { key: 'Constraints', value: 'no new dependencies' },
      ],
      instructions: ['Reproduce it', 'Fix it'],
      file: 'p.md',
    });
  });

  test('context paragraphs and URLs are not split into key and value', () => {
    const plan = parsePlan('## Goal\n\nShip it\n\n## Context\n\nSee https://example.com/spec\n', 'p.md');
    expect(plan.context).toEqual([{ value: 'See https://example.com/spec' }]);
    expect(plan.title).toBeUndefined();
  });

  test('a ticked task item is done: context for the steps left, not a step', () => {
    const plan = parsePlan(
      '## Goal\n\nShip it\n\n## Steps\n\n- [x] Set up CI\n- [ ] Write docs\n- Tag a release\n',
      'p.md',
    );
    expect(plan.instructions).toEqual(['Write docs', 'Tag a release']);
    expect(plan.context).toEqual([{ key: 'Already done', value: 'Set up CI' }]);
  });

  test('no goal and no title is an error', () => {
    const error = planError('## Steps\n\n1. Do it\n', '/w/p.md');
    expect(error.message).toBe('/w/p.md: no goal: add a `## Goal` section');
    expect(error.exitCode).toBe(2);
  });

  test('an empty Goal section names its line', () => {
    const error = planError('# Title\n\nIntro\n\n## Goal\n\n## Steps\n\n1. x\n', '/w/p.md');
    expect(error.message).toBe('/w/p.md line 5: the `## Goal` section is empty');
  });
});

describe('errors name the file and line', () => {
  test('JSON syntax error gives line and column', () => {
    const error = planError('{\n  "goal": "x",\n  "steps": ["a",]\n}\n', '/w/p.json');
    expect(error.message).toBe("/w/p.json line 3, column 17: invalid JSON: Unexpected token ']'");
  });

  test('a bad token early in a long file is located', () => {
    const text = `{\n  "goal": "x",\n  "context": {"a": tru},\n  "steps": ["${'a'.repeat(200)}"]\n}`;
    expect(planError(text, '/w/p.json').message).toMatch(
      /^\/w\/p\.json line 3, column 23: invalid JSON: Unexpected token '}'$/,
    );
  });

  test('truncated JSON points at the end', () => {
    const error = planError('{\n  "goal": "x"', '/w/p.json');
    expect(error.message).toMatch(/^\/w\/p\.json line 2, column 14: invalid JSON: /);
  });

  test('YAML syntax error', () => {
    const error = planError('goal: x\ninstructions:\n  - "unterminated\n', '/w/p.yaml');
    expect(error.message).toMatch(
      /^\/w\/p\.yaml line \d, column \d+: YAML syntax error: Missing closing "quote/,
    );
  });

  test('missing goal', () => {
    expect(planError('instructions:\n  - a\n', '/w/p.yaml').message).toBe(
      '/w/p.yaml: no goal: add a `goal:` key',
    );
    expect(planError('', '/w/p.yaml').message).toBe('/w/p.yaml: no goal: add a `goal:` key');
    expect(planError('{}', '/w/p.json').message).toBe('/w/p.json: no goal: add a `goal:` key');
  });

  test('instructions that are not a list of strings', () => {
    const error = planError('goal: x\n\ninstructions: do everything\n', '/w/p.yaml');
    expect(error.message).toBe('/w/p.yaml line 3: `instructions` must be a list of strings');
  });

  test('an unquoted "Key: value" step points at that item', () => {
    const error = planError('goal: x\nsteps:\n  - Build\n  - Run: npm test\n', '/w/p.yaml');
    expect(error.message).toBe('/w/p.yaml line 4: `steps` must be a list of strings');
    expect(error.hint).toContain('quote');
  });

  test('wrong type in JSON names the line', () => {
    const error = planError('{\n  "goal": "x",\n  "instructions": [\n    "a",\n    42\n  ]\n}', '/w/p.json');
    expect(error.message).toBe('/w/p.json line 5: `instructions` must be a list of strings');
  });

  test('empty goal', () => {
    expect(planError('title: t\ngoal: "  "\n', '/w/p.yaml').message).toBe(
      '/w/p.yaml line 2: `goal` must be a non-empty string',
    );
  });

  test('unknown key', () => {
    const error = planError('goal: x\n\n\nmilestones: []\n', '/w/p.yaml');
    expect(error.message).toBe('/w/p.yaml line 4: unknown key `milestones`');
    expect(error.hint).toContain('instructions (or steps)');
  });

  test('a misspelt goal key is reported as that unknown key, not as a missing goal', () => {
    const yaml = planError('# plan\ngoall: Add a flag\nsteps: [a]\n', '/w/p.yaml');
    expect(yaml.message).toBe('/w/p.yaml line 2: unknown key `goall`');
    expect(yaml.hint).toContain('did you mean `goal`?');
    const json = planError('{\n  "Goal": "x"\n}', '/w/p.json');
    expect(json.message).toBe('/w/p.json line 2: unknown key `Goal`');
    expect(planError('goal: x\nmilestones: []\n', '/w/p.yaml').hint).not.toContain('did you mean');
  });

  test('both instructions and steps', () => {
    const error = planError('goal: x\ninstructions: [a]\nsteps: [b]\n', '/w/p.yaml');
    expect(error.message).toBe('/w/p.yaml line 3: use either `instructions` or `steps`, not both');
  });

  test('a top level that is not a mapping', () => {
    expect(planError('- a\n- b\n', '/w/p.yaml').message).toBe(
      '/w/p.yaml line 1: a plan must be a mapping with a `goal` key',
    );
    expect(planError('["a"]', '/w/p.json').message).toBe(
      '/w/p.json line 1: a plan must be a mapping with a `goal` key',
    );
  });

  test('unknown extension', () => {
    const error = planError('goal: x', '/w/plan.txt');
    expect(error.message).toBe('/w/plan.txt: unknown plan format (`.txt`): use .json, .yaml, .yml or .md');
  });

  test('a missing file', async () => {
    const file = join(root, 'missing.yaml');
    const error = await loadPlan(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlanError);
    expect((error as PlanError).message).toBe(`plan file not found: ${file}`);
  });

  test('a directory', async () => {
    const dir = join(root, 'dir.yaml');
    await mkdir(dir);
    await expect(loadPlan(dir)).rejects.toThrow(`plan file is a directory: ${dir}`);
  });
});
