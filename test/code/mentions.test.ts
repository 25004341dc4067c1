// The map's mentions: the words of a request ("describe this project", "explain how this code works") favour no
// file, and a test's, a doc's or a config file's symbol a word matches never lifts it above the project's code;
// a specific word ("retry") and a file named by its path still lead.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CodeIndex, loadCodeIndex } from '../../src/code/code-index.js';
import { isConfigFile, isSupportFile } from '../../src/code/file-roles.js';
import { mentionedNames } from '../../src/code/mentions.js';
import { rankFiles } from '../../src/code/rank.js';
import { renderMap } from '../../src/code/repo-map.js';
import type { Definition } from '../../src/code/tags.js';
import { tsLibrary } from './rank-fixtures.js';

describe('mentionedNames', () => {
  test.each([
    ['describe this project', []],
    ['Explain how this code works', []],
    ['Give me a high-level overview of the architecture', []],
    ['how does retry work', ['retry']],
    ['fix parseArgs in the tests', ['parseArgs']],
    ['what does `describe` do', ['describe']],
    ['see project_name', ['project_name']],
  ])('%j → %j', (text, expected) => {
    expect([...mentionedNames(text)].sort()).toEqual(expected);
  });
});

describe('config files', () => {
  test.each([
    ['vite.config.ts', true],
    ['packages/docs/next.config.mjs', true],
    ['eslint.config.js', true],
    ['setup.py', true],
    ['noxfile.py', true],
    ['packages/vite/src/node/config.ts', false],
    ['src/app/settings.py', false],
  ])('%s → %s', (file, expected) => {
    expect(isConfigFile(file)).toBe(expected);
  });
});

// The TypeScript library with what made ky's and flask's maps lead with a test or a doc: a test defining a `code`
// member, Sphinx's `project`, a config file's `plugins`, and a test file named like the feature asked about.
const files: Record<string, string> = {
  ...tsLibrary,
  'source/errors/ForceRetryError.ts':
    'export class ForceRetryError extends Error {\n  code = "FORCE_RETRY";\n  works = true;\n}\n',
  'test/hooks.ts':
    "import client from '../source/index.js';\n\nclass FakeResponse {\n  code = 200;\n  describe() {\n    return 'project';\n  }\n}\n\nexport async function testHooks() {\n  await client.get(new FakeResponse().describe());\n}\n",
  'docs/conf.py': 'project = "fetchy"\ncopyright = "2024"\nextensions = []\n',
  'vite.config.ts': 'export const plugins = [];\nexport default { plugins };\n',
};

let dir: string;
let index: CodeIndex;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keel-mentions-'));
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.join(dir, path.dirname(file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  index = await loadCodeIndex(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ranked = (mentions: string) => rankFiles(index, { mentions }).map((r) => r.path);
const own = (p: string) => p.startsWith('source/');

describe('ranking with what the conversation says', () => {
  test.each([
    'describe this project',
    'explain how this code works',
    'Describe this project. Explain how the code works.',
    'which plugins does it use?',
  ])('%j: the entry point first, every test, doc and config file after the source files', (mentions) => {
    const order = ranked(mentions);
    expect(order[0]).toBe('source/index.ts');
    const lastOwn = Math.max(...order.map((p, i) => (own(p) ? i : -1)));
    const firstOther = order.findIndex((p) => !own(p));
    expect(firstOther, `${order[firstOther]} above ${order[lastOwn]}`).toBeGreaterThan(lastOwn);
  });

  test('a specific word brings up the source file defining it, not the test named like it', () => {
    const order = ranked('how does retry work');
    expect(order[0]).toBe('source/core/Client.ts');
    expect(order.indexOf('test/retry.ts')).toBeGreaterThan(order.indexOf('source/utils/normalize.ts'));
  });

  test('a support file whose symbol a word matches rises among the support files, below the source files', () => {
    const support = (mentions: string) => ranked(mentions).filter((p) => !own(p));
    expect(isSupportFile('vite.config.ts')).toBe(false);
    expect(support('').at(-1)).toBe('vite.config.ts');
    expect(support('which plugins does it use?').slice(0, 2)).toContain('vite.config.ts');
  });

  test('a test or doc named by its path or file name still comes first', () => {
    expect(ranked('look at test/hooks.ts')[0]).toBe('test/hooks.ts');
    expect(ranked('what is in conf.py?')[0]).toBe('docs/conf.py');
  });
});

test("a test, doc or example takes none of the room a project file's block did not fit in", () => {
  const def = (name: string): Definition => ({
    name,
    kind: 'function',
    line: 1,
    endLine: 1,
    signature: `export function ${name}()`,
    exported: true,
  });
  const definitions: Record<string, Definition[]> = {
    'src/index.ts': [def('main')],
    'src/app.ts': Array.from({ length: 8 }, (_, i) => def(`handlerNumber${i}`)),
    'tests/conftest.ts': [def('fixture')],
  };
  const ranked = [
    { path: 'src/index.ts', score: 3, tier: 1 },
    { path: 'src/app.ts', score: 2, tier: 2 },
    { path: 'tests/conftest.ts', score: 1, tier: 3 },
  ];
  const map = renderMap(
    ranked,
    (p) => definitions[p]!.length,
    (p) => definitions[p]!,
    60,
  );
  expect(map.text.split('\n')[0]).toBe('src/index.ts:');
  expect(map.text).not.toContain('tests/conftest.ts');
  expect(map.text).toContain('(2 more files with definitions not shown');
});

test("a mentioned file too large to show whole shows its most public definitions first, in half the room left (click's core.py as the focus)", () => {
  const def = (name: string, exported = true): Definition => ({
    name,
    kind: 'function',
    line: 1,
    endLine: 1,
    signature: `${exported ? 'export ' : ''}function ${name}()`,
    exported,
  });
  const definitions: Record<string, Definition[]> = {
    'src/core.ts': [
      ...Array.from({ length: 40 }, (_, i) => def(`internalHelper${i}`, false)),
      def('Command'),
    ],
    'src/util.ts': [def('helper')],
  };
  const ranked = [
    { path: 'src/core.ts', score: 1, tier: 0 },
    { path: 'src/util.ts', score: 2, tier: 2 },
  ];
  const map = renderMap(
    ranked,
    (p) => definitions[p]!.length,
    (p) => definitions[p]!,
    120,
  );
  const lines = map.text.split('\n');
  expect(lines[0]).toBe('src/core.ts:');
  expect(map.text).toContain('export function Command()');
  expect(map.text).toMatch(/\(\d+ more definitions\)/);
  // Half the room for it, the rest for the files around it.
  expect(map.text).toContain('src/util.ts:');
  expect(Math.ceil(map.text.length / 4)).toBeLessThanOrEqual(120 + 20);
});
