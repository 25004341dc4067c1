// The map's ranking on fixture projects in the shapes of real libraries (entry points first, the core class above
// the helpers everything uses, tests last), and the pure decisions it rests on as tables.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CodeIndex, loadCodeIndex } from '../../src/code/code-index.js';
import {
  cargoEntries,
  packageJsonEntries,
  pyprojectModules,
  resolveScriptEntry,
} from '../../src/code/entry-points.js';
import { isPlatformFile, isSupportFile } from '../../src/code/file-roles.js';
import { loadRepoMap } from '../../src/code/map-cache.js';
import { ImportResolver } from '../../src/code/module-graph.js';
import { rankFiles } from '../../src/code/rank.js';
import { buildRepoMap, renderFile } from '../../src/code/repo-map.js';
import type { Definition, FileTags } from '../../src/code/tags.js';
import { pyLibrary, tsLibrary } from './rank-fixtures.js';

let dir: string;
const indexes: Record<string, CodeIndex> = {};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keel-rank-'));
  for (const [name, files] of Object.entries({ ts: tsLibrary, py: pyLibrary })) {
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.join(dir, name, path.dirname(file)), { recursive: true });
      await writeFile(path.join(dir, name, file), content);
    }
    indexes[name] = await loadCodeIndex(path.join(dir, name));
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const order = (name: string) => rankFiles(indexes[name]!).map((r) => r.path);

describe('TypeScript library (main class behind an index.ts barrel)', () => {
  test('the entry point the built main names comes first', () => {
    expect(indexes.ts!.project?.entryPoints).toEqual(['source/index.ts']);
    expect(order('ts')[0]).toBe('source/index.ts');
  });

  test('the main class ranks above every helper and error class it uses', () => {
    const ranked = order('ts');
    const core = ranked.indexOf('source/core/Client.ts');
    for (const helper of ranked.filter((p) => /source\/(utils|errors)\//.test(p)))
      expect(core, `Client.ts above ${helper}`).toBeLessThan(ranked.indexOf(helper));
  });

  test('tests and their helpers come after every source file', () => {
    const ranked = order('ts');
    const lastSource = Math.max(...ranked.map((p, i) => (p.startsWith('source/') ? i : -1)));
    const firstTest = ranked.findIndex((p) => p.startsWith('test/'));
    expect(firstTest).toBeGreaterThan(lastSource);
  });

  test('the default map shows index.ts and the main class with its methods', () => {
    const map = buildRepoMap(indexes.ts!, 2000, '').text;
    expect(map).toContain('source/index.ts:');
    expect(map).toMatch(/source\/core\/Client\.ts:\n.*export class Client\n.*static create/);
  });
});

describe('Python library (package under src/, __init__ re-exporting api, sessions, models)', () => {
  test('the package named in pyproject.toml is the entry point', () => {
    expect(indexes.py!.project?.entryPoints).toEqual(['src/shop/__init__.py']);
    expect(order('py')[0]).toBe('src/shop/__init__.py');
  });

  test('sessions, api and models rank among the first five', () => {
    const top = order('py').slice(0, 5);
    for (const file of ['sessions.py', 'api.py', 'models.py']) expect(top).toContain(`src/shop/${file}`);
  });

  test('tests and conftest come last', () => {
    const ranked = order('py');
    expect(ranked.slice(-4).sort()).toEqual([
      'tests/conftest.py',
      'tests/test_models.py',
      'tests/test_sessions.py',
      'tests/test_utils.py',
    ]);
  });

  test('a mentioned file comes first', () => {
    expect(rankFiles(indexes.py!, { mentions: 'look at hooks.py' })[0]?.path).toBe('src/shop/hooks.py');
  });
});

describe('support files', () => {
  test.each([
    ['test/main.ts', true],
    ['src/__tests__/a.ts', true],
    ['src/a.test.ts', true],
    ['pkg/tests/test_a.py', true],
    ['test_a.py', true],
    ['conftest.py', true],
    ['calc/math_test.go', true],
    ['packages/core/test/fixtures/basic/input.js', true],
    ['examples/hello.py', true],
    ['benchmark/run.js', true],
    ['third_party/x/y.c', true],
    ['src/api.pb.go', true],
    ['dist/app.min.js', true],
    ['docs_src/dependencies/tutorial008.py', true],
    // Java packages are names, not layout (spring-petclinic's org/springframework/samples/…).
    ['src/main/java/org/springframework/samples/petclinic/owner/Owner.java', false],
    ['src/test/java/org/springframework/samples/petclinic/owner/OwnerControllerTests.java', true],
    ['app/src/main/kotlin/com/example/test/Util.kt', false],
    ['examples/demo/src/main/java/com/acme/App.java', true],
    ['website/src/pages/index.tsx', true],
    ['packages/test-utils/src/render.ts', true],
    ['playground/src/App.vue', true],
    // A dot folder is tooling: FastAPI's GitHub actions' scripts.
    ['.github/actions/people/app/main.py', true],
    ['.storybook/preview.ts', true],
    ['src/addDays/test.ts', true],
    ['src/addDays/index.ts', false],
    ['src/testing.ts', false],
    ['src/testing-library.ts', false],
    ['src/docstring.py', false],
    ['src/examples.ts', false],
    ['src/core/Client.ts', false],
    ['src/shop/sessions.py', false],
    ['lib/contest.dart', false],
  ])('%s → %s', (file, expected) => {
    expect(isSupportFile(file)).toBe(expected);
  });
});

describe('entry points from manifests', () => {
  test.each([
    [{ main: './distribution/index.js' }, ['distribution/index.js']],
    [
      { exports: { '.': { import: './dist/esm/index.mjs', types: './dist/index.d.ts' } } },
      ['dist/esm/index.mjs'],
    ],
    [{ bin: { tool: './bin/cli.js' }, main: 'lib/index.js' }, ['lib/index.js', 'bin/cli.js']],
    [{ name: 'no-main' }, ['index.js']],
  ])('package.json %j declares %j', (json, expected) => {
    expect(packageJsonEntries(json)).toEqual(expected);
  });

  const files = new Set(['source/index.ts', 'src/cli.ts', 'lib/plain.js', 'packages/a/src/index.ts']);
  test.each([
    ['', 'distribution/index.js', 'source/index.ts'],
    ['', 'build/src/cli.js', 'src/cli.ts'],
    ['', 'lib/plain.js', 'lib/plain.js'],
    ['packages/a', 'dist/index.cjs', 'packages/a/src/index.ts'],
    ['', 'dist/missing.js', 'source/index.ts'],
  ])('in %j, %s is built from %s', (dir, entry, expected) => {
    expect(resolveScriptEntry(dir, entry, files)).toBe(expected);
  });

  test('pyproject.toml: the project name, listed packages and script modules', () => {
    const text =
      '[project]\nname = "My-Tool"\n\n[project.scripts]\nmytool = "my_tool.cli:main"\n\n[tool.setuptools]\npackages = ["extra"]\n';
    expect(pyprojectModules(text)).toEqual(['my-tool', 'extra', 'my_tool.cli']);
  });

  test('Cargo.toml: declared lib and bin paths, then the defaults', () => {
    expect(
      cargoEntries('[lib]\npath = "src/core.rs"\n\n[[bin]]\nname = "x"\npath = "src/bin/x.rs"\n'),
    ).toEqual(['src/core.rs', 'src/bin/x.rs', 'src/lib.rs', 'src/main.rs']);
    // ripgrep's: the binary's path outside src/, and a test target that is no entry point.
    const ripgrep =
      '[package]\nname = "ripgrep"\n\n[[bin]]\nbench = false\npath = "crates/core/main.rs"\nname = "rg"\n\n[[test]]\nname = "integration"\npath = "tests/tests.rs"\n\n[[example]]\npath = "examples/a.rs"\n';
    expect(cargoEntries(ripgrep)).toEqual(['crates/core/main.rs', 'src/lib.rs', 'src/main.rs']);
  });
});

describe('a large file in the map', () => {
  const def = (name: string, line: number, extra: Partial<Definition> = {}): Definition => ({
    name,
    kind: 'function',
    line,
    endLine: line,
    signature: `sig ${name}`,
    exported: true,
    ...extra,
  });
  const tags: FileTags = {
    language: 'typescript',
    imports: [],
    references: '',
    definitions: [
      def('helperA', 1, { kind: 'constant', exported: false }),
      def('helperB', 2, { kind: 'constant', exported: false }),
      def('Client', 3, { kind: 'class' }),
      def('create', 4, { kind: 'method', container: 'Client' }),
      def('_private', 5, { kind: 'method', container: 'Client' }),
      def('fetch', 6, { kind: 'method', container: 'Client' }),
    ],
  };

  test('is cut to its exported classes and their public methods first, with a count of the rest', () => {
    expect(renderFile('a.ts', tags, 3).split('\n')).toEqual([
      'a.ts:',
      '     3│ sig Client',
      '       4│ sig create',
      '       6│ sig fetch',
      '  (3 more definitions)',
    ]);
  });
});

describe('the map cache', () => {
  test('a warm map reads no source file and equals the cold one; a changed file makes it cold again', async () => {
    const root = path.join(dir, 'ts');
    const cacheDir = path.join(dir, 'cache');
    const cold = await loadRepoMap(root, { cacheDir }, 2000, '');
    const warm = await loadRepoMap(root, { cacheDir }, 2000, '');
    expect(cold.parsed).toBeGreaterThan(0);
    expect(warm.parsed).toBe(0);
    expect(warm.map.text).toBe(cold.map.text);
    expect((await loadRepoMap(root, { cacheDir }, 2000, 'see delay.ts')).map.text.split('\n')[0]).toBe(
      'source/utils/delay.ts:',
    );
    await writeFile(
      path.join(root, 'source/utils/is.ts'),
      'export const isString = (v: unknown) => typeof v === "string";\n',
    );
    const changed = await loadRepoMap(root, { cacheDir }, 2000, '');
    expect(changed.parsed).toBe(1);
    expect(changed.map.text).toContain('isString');
  });
});

describe('Python package whose __init__.py re-exports its API for type checkers (pydantic)', () => {
  const files: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "pkg"\n',
    'pkg/__init__.py':
      "from typing import TYPE_CHECKING\nfrom .version import VERSION, check\n\ncheck(VERSION)\ncheck(VERSION)\n\nif TYPE_CHECKING:\n    from .main import *\n    from .fields import Field\n\n__all__ = ['BaseModel', 'Field', 'VERSION']\n",
    'pkg/version.py': "VERSION = '1'\n\n\ndef check(version):\n    return version\n",
    // Named like the standard library's module, which every file imports: `import typing` is never this file.
    'pkg/typing.py': 'def get_origin(tp):\n    return tp\n',
    'pkg/main.py':
      "import typing\nfrom .fields import Field\n\n\nclass BaseModel:\n    def model_dump(self) -> typing.Any:\n        return {}\n\n\ndef create_model():\n    return BaseModel\n\n\n__all__ = ['BaseModel', 'create_model']\n",
    'pkg/fields.py': 'import typing\n\n\nclass Field:\n    default: typing.Any = None\n',
    'pkg/utils.py': 'import typing\n\n\ndef helper(x: typing.Any):\n    return x\n',
  };
  // Tests use the API through the package, and some define stand-ins of their own named like it.
  for (let i = 0; i < 7; i++)
    files[`tests/test_${i}.py`] =
      i % 2 === 0
        ? 'from pkg import BaseModel\n\n\ndef test_dump():\n    BaseModel().model_dump()\n    BaseModel().model_dump()\n'
        : 'class BaseModel:\n    pass\n\n\ndef test_stand_in():\n    BaseModel()\n';
  let index: CodeIndex;
  beforeAll(async () => {
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.join(dir, 'pydantic', path.dirname(file)), { recursive: true });
      await writeFile(path.join(dir, 'pydantic', file), content);
    }
    index = await loadCodeIndex(path.join(dir, 'pydantic'));
  });

  test('`import typing` is the standard library, not pkg/typing.py, which is pkg.typing', () => {
    const resolver = new ImportResolver(index);
    const imp = index.files.get('pkg/main.py')!.imports.find((i) => i.module === 'typing')!;
    expect(resolver.resolve('pkg/main.py', imp, 'python')).toEqual([]);
  });

  test('the modules __init__.py re-exports, and the class the tests use through it, rank above the version', () => {
    const ranked = rankFiles(index).map((r) => r.path);
    expect(ranked[0]).toBe('pkg/__init__.py');
    expect(ranked.indexOf('pkg/main.py')).toBeLessThan(ranked.indexOf('pkg/version.py'));
    expect(ranked.indexOf('pkg/fields.py')).toBeLessThan(ranked.indexOf('pkg/version.py'));
    // The files importing the standard library's typing give pkg/typing.py nothing.
    expect(ranked.indexOf('pkg/typing.py')).toBeGreaterThan(ranked.indexOf('pkg/version.py'));
  });
});

test("a name taken through a barrel counts for the file the barrel's re-exports lead to, not a same-named one elsewhere (babel's transformAsync)", async () => {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'core', main: 'src/index.ts' }),
    'src/index.ts': "export * from './transform';\nexport * from './parse';\n",
    'src/transform.ts': 'export function transformAsync(code: string) {\n  return code;\n}\n',
    'src/parse.ts': 'export function parse(code: string) {\n  return code;\n}\n',
    // A wrapper of the same name, which nothing imports by name, in a file of many definitions.
    'standalone/index.ts': `export function transformAsync(code: string) {\n  return code;\n}\n${Array.from(
      { length: 10 },
      (_, i) => `export const option${i} = ${i};\n`,
    ).join('')}`,
  };
  for (let i = 0; i < 12; i++)
    files[`src/user${i}.ts`] =
      `import { transformAsync } from './index';\nexport const r${i} = transformAsync('a') + transformAsync('b');\n`;
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.join(dir, 'barrel', path.dirname(file)), { recursive: true });
    await writeFile(path.join(dir, 'barrel', file), content);
  }
  const ranked = rankFiles(await loadCodeIndex(path.join(dir, 'barrel'))).map((r) => r.path);
  // The wrapper gets nothing of the name's uses: below the barrel's other module, which nobody uses by name either.
  expect(ranked.slice(1, 4)).toEqual(['src/transform.ts', 'src/parse.ts', 'standalone/index.ts']);
});

/** Writes `files` under dir/name and loads their index. */
async function indexOf(name: string, files: Record<string, string>): Promise<CodeIndex> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.join(dir, name, path.dirname(file)), { recursive: true });
    await writeFile(path.join(dir, name, file), content);
  }
  return loadCodeIndex(path.join(dir, name));
}

test("a module bound to a name (`import * as babel`, `const babel = require('../lib/index.js')`, built and not in the repository) counts for the files its names come from", async () => {
  const files: Record<string, string> = {
    'packages/core/package.json': JSON.stringify({ name: 'core', main: './lib/index.js' }),
    'packages/core/src/index.ts': "export * from './transform';\nexport * from './parse';\n",
    'packages/core/src/transform.ts': 'export function transformAsync(code: string) {\n  return code;\n}\n',
    'packages/core/src/parse.ts': 'export function parse(code: string) {\n  return code;\n}\n',
    // A wrapper of the same name, which nothing imports.
    'packages/standalone/src/index.ts': 'export function transformAsync(code: string) {\n  return code;\n}\n',
  };
  for (let i = 0; i < 8; i++) {
    files[`packages/core/test/esm${i}.js`] =
      `import * as babel from '../lib/index.js';\nbabel.transformAsync('a');\nbabel.transformAsync('b');\n`;
    files[`packages/core/test/cjs${i}.cjs`] =
      `const babel = require('../lib/index.js');\nbabel.transformAsync('a').then(console.log);\n`;
  }
  const index = await indexOf('bound', files);
  const resolver = new ImportResolver(index, undefined, { builtToSource: true });
  const [imp] = index.files.get('packages/core/test/cjs0.cjs')!.imports;
  expect(resolver.resolve('packages/core/test/cjs0.cjs', imp!, 'javascript')).toEqual([
    'packages/core/src/index.ts',
  ]);
  // What import checks see stays as it is: the built file is not in the repository.
  expect(new ImportResolver(index).resolve('packages/core/test/cjs0.cjs', imp!, 'javascript')).toEqual([]);
  // The tests' uses go to babel-core's transform.ts alone: the wrapper of the same name ranks as the module nobody
  // uses (parse.ts), below it.
  const ranked = rankFiles(index).map((r) => r.path);
  expect(ranked.slice(0, 2)).toContain('packages/core/src/transform.ts');
  expect(ranked.indexOf('packages/standalone/src/index.ts')).toBeGreaterThan(
    ranked.indexOf('packages/core/src/parse.ts'),
  );
});

test("two files each the other's only importer do not top the map by handing their score back and forth (babel-standalone)", async () => {
  const files: Record<string, string> = {
    'src/core.ts': `export class Core {\n  run() {\n    return 1;\n  }\n}\nexport function helper() {\n  return 2;\n}\n`,
    // An aggregating entry and its script-tags helper, which imports it back.
    'standalone/index.ts': `import { Core, helper } from '../src/core';\nimport { scripts } from './tags';\n${Array.from(
      { length: 2 },
      (_, i) => `import { plugin${i} } from './plugin${i}';`,
    ).join(
      '\n',
    )}\nexport const all = [Core, helper, scripts, ${Array.from({ length: 2 }, (_, i) => `plugin${i}`).join(', ')}];\n`,
    'standalone/tags.ts': "import { all } from './index';\nexport const scripts = () => all.length;\n",
  };
  for (let i = 0; i < 2; i++) files[`standalone/plugin${i}.ts`] = `export const plugin${i} = () => ${i};\n`;
  for (let i = 0; i < 6; i++)
    files[`src/use${i}.ts`] = `import { Core } from './core';\nexport const u${i} = new Core().run();\n`;
  const ranked = rankFiles(await indexOf('trap', files)).map((r) => r.path);
  expect(ranked[0]).toBe('src/core.ts');
  expect(ranked.indexOf('standalone/tags.ts')).toBeGreaterThan(ranked.indexOf('standalone/index.ts'));
});

test("a platform shim that the compatibility layer everything uses imports ranks below the core modules (click's _winconsole.py)", async () => {
  const files: Record<string, string> = {
    'pyproject.toml': '[project]\nname = "clack"\n',
    'src/clack/__init__.py':
      'from .core import Command\nfrom .core import Context\nfrom .decorators import command\nfrom .decorators import option\n',
    'src/clack/core.py': `from ._compat import term_len\nfrom ._compat import isatty\n\n\nclass Context:\n${Array.from(
      { length: 12 },
      (_, i) => `    def invoke${i}(self):\n        return term_len("a") + isatty()\n\n`,
    ).join('')}\nclass Command:\n${Array.from(
      { length: 12 },
      (_, i) => `    def main${i}(self):\n        return Context().invoke${i}()\n\n`,
    ).join('')}`,
    'src/clack/decorators.py': `from .core import Command\nfrom ._compat import term_len\n\n\ndef command(f):\n    return Command()\n\n\ndef option(f):\n    return term_len(f)\n`,
    // Used by every module; its only import of the project is the Windows console, under a platform check.
    'src/clack/_compat.py': `import sys\n\n\ndef term_len(x):\n    return len(x)\n\n\ndef isatty():\n    return sys.stdout.isatty()\n\n\nif sys.platform.startswith("win"):\n    from ._winconsole import _get_windows_console_stream\n\n    def stream():\n        return _get_windows_console_stream()\n`,
    'src/clack/_winconsole.py': `import sys\nimport msvcrt\nfrom ._compat import term_len\n\nassert sys.platform == "win32"\n\n${Array.from(
      { length: 4 },
      (_, i) => `class Console${i}:\n    def write${i}(self, text):\n        return term_len(text)\n\n\n`,
    ).join('')}def _get_windows_console_stream():\n    return Console0()\n`,
  };
  for (let i = 0; i < 4; i++) {
    files[`src/clack/part${i}.py`] =
      `from ._compat import term_len\nfrom ._compat import isatty\n\n\ndef part${i}():\n    return term_len("x") + isatty()\n`;
    files[`tests/test_part${i}.py`] =
      `from clack.core import Command\n\n\ndef test_it():\n    Command().main()\n`;
  }
  const ranked = rankFiles(await indexOf('clack', files)).map((r) => r.path);
  for (const core of ['src/clack/core.py', 'src/clack/decorators.py'])
    expect(ranked.indexOf('src/clack/_winconsole.py'), `_winconsole.py below ${core}`).toBeGreaterThan(
      ranked.indexOf(core),
    );
});

describe('platform shims', () => {
  test.each([
    ['src/click/_winconsole.py', true],
    ['rich/_windows.py', true],
    ['rich/_win32_console.py', true],
    ['colorama/win32.py', true],
    ['internal/term/term_windows.go', true],
    ['sys/unix/zsyscall_linux_amd64.go', true],
    ['lib/posix/_posix.py', true],
    ['src/darwin-keychain.ts', true],
    // A window, not Windows; a public module that only says a word.
    ['src/main/windows.ts', false],
    ['src/unix.py', false],
    ['src/click/_compat.py', false],
    ['src/click/core.py', false],
    ['pkg/js/parser.go', false],
    ['cmd/winery/main.go', false],
  ])('%s → %s', (file, expected) => {
    expect(isPlatformFile(file)).toBe(expected);
  });
});
