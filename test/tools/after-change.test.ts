// The errors reported after a change: the check's 2 s are its own, not spent loading what it needs.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Diagnostic, LanguageService, LanguageServices } from '../../src/code/language/service.js';
import { languageOf } from '../../src/code/languages.js';
import { findOnPath } from '../../src/exec/probe-cache.js';
import { withNewErrors } from '../../src/tools/after-change.js';
import { renameSymbolTool } from '../../src/tools/rename-symbol.js';
import { ok } from '../../src/tools/tool.js';
import { removedDefinitions } from '../../src/tools/unserved-check.js';
import { makeWorkspace, type TestWorkspace } from './helpers.js';

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace({ limits: { diagnosticsMs: 50 } });
});
afterAll(() => ws.cleanup());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** withNewErrors after an edit of one file from `before` to `after`, with these language services. */
const afterEdit = (
  languages: LanguageServices,
  file: string,
  before: string,
  after: string,
  diagnosticsMs?: number,
) =>
  withNewErrors(
    {
      ...ws.ctx,
      languages,
      ...(diagnosticsMs ? { limits: { ...ws.ctx.limits, diagnosticsMs } } : {}),
    },
    [{ absolute: path.join(ws.root, file), before, after }],
    ok('edited', {}, 'edited'),
  );

/** Language services where `service` handles the TypeScript files and nothing else does. */
const tsOnly = (service: LanguageService) =>
  ({
    forFile: async (file: string) => (file.endsWith('.ts') ? service : undefined),
    changed: () => {},
  }) as unknown as LanguageServices;

/**
 * rename_symbol run with a service that renames `path`'s `from` to `to` there alone (a project it did not reach
 * keeps the old name) and answers `diagnostics`.
 */
function renameAlone(
  path: string,
  [from, to]: [string, string],
  diagnostics: LanguageService['diagnostics'] = async () => [],
) {
  const before = `export function ${from}() {}\n`;
  const service: LanguageService = {
    ...slowToLoad(),
    prepare: async () => {},
    rename: async () => [{ path, before, after: `export function ${to}() {}\n`, count: 1 }],
    diagnostics,
  };
  return renameSymbolTool.execute(renameSymbolTool.schema.parse({ name: from, new_name: to, path }), {
    ...ws.ctx,
    languages: tsOnly(service),
  });
}

/**
 * A service like the TypeScript one: nothing can be checked before its program is built (60 ms, longer than the
 * budget), and a check past the deadline gives up, as the compiler's cancellation token makes it.
 */
function slowToLoad(): LanguageService & { calls: string[] } {
  let loaded = false;
  const calls: string[] = [];
  const load = async () => {
    if (!loaded) await sleep(60);
    loaded = true;
  };
  return {
    id: 'fake',
    calls,
    async prepare() {
      calls.push('prepare');
      await load();
    },
    async diagnostics(
      paths: string[],
      _signal: AbortSignal,
      overlay?: ReadonlyMap<string, string>,
      deadline = Infinity,
    ) {
      calls.push(overlay ? 'diagnostics before' : 'diagnostics');
      await load();
      if (Date.now() > deadline) throw new Error('the service ran out of time');
      const error: Diagnostic = {
        path: paths[0]!,
        line: 1,
        column: 7,
        severity: 'error',
        code: 'TS2322',
        message: 'Type "s" is not a number.',
      };
      return overlay ? [] : [error];
    },
    references: async () => [],
    rename: async () => [],
    changed: () => {},
    close: async () => {},
  };
}

/** A service loaded, whose every check takes longer than the 50 ms budget (a big program re-checked). */
function checkingPastBudget(): LanguageService {
  return {
    ...slowToLoad(),
    prepare: async () => {},
    async diagnostics(_paths, _signal, _overlay, deadline = Infinity) {
      await sleep(80);
      if (Date.now() > deadline) throw new Error('the service ran out of time');
      return [];
    },
  };
}

test('a service that must first load what it checks is given the whole budget for the check itself', async () => {
  const service = slowToLoad();
  const languages = { forFile: async () => service, changed: () => {} } as unknown as LanguageServices;
  const touched = [
    { absolute: path.join(ws.root, 'a.ts'), before: 'const a = 1;\n', after: 'const a: number = "s";\n' },
  ];
  const result = await withNewErrors({ ...ws.ctx, languages }, touched, ok('edited a.ts', {}, 'edited a.ts'));
  expect(result.output).toBe(
    'edited a.ts\n1 new error after this change:\n  a.ts:1:7: TS2322 Type "s" is not a number.',
  );
  expect(service.calls).toEqual(['prepare', 'diagnostics', 'diagnostics before']);
  // What the user sees: the count on the summary line, the errors under it.
  expect(result.display).toBe('edited a.ts · 1 new error\n  a.ts:1:7: TS2322 Type "s" is not a number.');
});

test('a file of megabytes (generated, bundled) is not checked after a change, and the result says so', async () => {
  const service = slowToLoad();
  const languages = { forFile: async () => service, changed: () => {} } as unknown as LanguageServices;
  const big = 'x'.repeat(1_000_001);
  const touched = [
    { absolute: path.join(ws.root, 'dist/bundle.js'), before: big, after: `${big};` },
    { absolute: path.join(ws.root, 'a.ts'), before: 'const a = 1;\n', after: 'const a: number = "s";\n' },
  ];
  const result = await withNewErrors({ ...ws.ctx, languages }, touched, ok('edited', {}, 'edited'));
  expect(result.output.split('\n').slice(0, 3)).toEqual([
    'edited',
    '(diagnostics skipped for dist/bundle.js: over 1 MB)',
    '1 new error after this change:',
  ]);
  expect(service.calls.filter((c) => c.startsWith('diagnostics'))).toEqual([
    'diagnostics',
    'diagnostics before',
  ]);
});

test('files naming an export the change took away, not checked in time, are named with how to check them', async () => {
  await ws.write('units.ts', 'export function feetToMetres() {}\n');
  await ws.write('height.ts', "import { toMetres } from './units';\n");
  // A module loaded at run time: only the service can tell what it gives.
  await ws.write(
    'length.ts',
    "export async function f() {\n  const units = await import('./units');\n  units.toMetres();\n}\n",
  );
  await ws.write('notes.md', 'toMetres, in prose: no service handles it\n');
  await ws.write('node_modules/units/index.d.ts', 'export declare function toMetres(): void;\n');
  const asked: string[][] = [];
  // Checks the changed file at once; a file in another project of the repository needs longer than the budget.
  const service: LanguageService = {
    ...slowToLoad(),
    async diagnostics(paths, _signal, _overlay, deadline = Infinity) {
      asked.push(paths);
      if (paths[0] !== 'units.ts') await sleep(80);
      if (Date.now() > deadline) throw new Error('the service ran out of time');
      return [];
    },
  };
  const languages = tsOnly(service);
  const result = await afterEdit(
    languages,
    'units.ts',
    'export function toMetres() {}\n',
    'export function feetToMetres() {}\n',
  );
  expect(asked).toEqual([['units.ts'], ['length.ts']]);
  // An import of the name itself is broken for sure, read from the code: an error. A module imported whole is named.
  expect(result.output.split('\n')).toEqual([
    'edited',
    '(1 file naming toMetres, which this change no longer exports: not checked within 0.05 s; get_diagnostics with their paths checks them: length.ts)',
    '1 new error after this change:',
    "  height.ts:1:10: './units' (units.ts) no longer exports toMetres; it exports feetToMetres now",
  ]);
});

test("the changed file's own check past its budget still names the files naming an export it took away", async () => {
  await ws.write('cells.ts', 'export function cellWidth() {}\n');
  await ws.write('text.ts', "import { cellLen } from './cells';\n");
  await ws.write(
    'layout.ts',
    "export async function f() {\n  const cells = await import('./cells');\n  cells.cellLen();\n}\n",
  );
  // Pyright re-checking a changed module many files import: longer than the budget, for the file itself too.
  const service = checkingPastBudget();
  const result = await afterEdit(
    tsOnly(service),
    'cells.ts',
    'export function cellLen() {}\n',
    'export function cellWidth() {}\n',
  );
  expect(result.output).toBe(
    [
      'edited',
      '(diagnostics skipped: not ready within 0.05 s; get_diagnostics lists errors; code.diagnostics_timeout_seconds sets the wait)',
      '(1 file naming cellLen, which this change no longer exports: not checked within 0.05 s; get_diagnostics with their paths checks them: layout.ts)',
      '1 new error after this change:',
      "  text.ts:1:10: './cells' (cells.ts) no longer exports cellLen; it exports cellWidth now",
    ].join('\n'),
  );
});

test("a CommonJS importer of a name an edit took away is an error at the name it takes (Express's require('./utils').compileETag)", async () => {
  await ws.write('lib/utils.js', 'exports.compileEtag = function (val) {};\n');
  await ws.write(
    'lib/app.js',
    "'use strict';\nvar compileETag = require('./utils').compileETag;\ncompileETag(1);\n",
  );
  const service: LanguageService = { ...slowToLoad(), prepare: async () => {}, diagnostics: async () => [] };
  const languages = {
    forFile: async (file: string) => (file.endsWith('.js') ? service : undefined),
    changed: () => {},
  } as unknown as LanguageServices;
  const result = await afterEdit(
    languages,
    'lib/utils.js',
    'exports.compileETag = function (val) {};\n',
    'exports.compileEtag = function (val) {};\n',
  );
  expect(result.output.split('\n')).toEqual([
    'edited',
    '1 new error after this change:',
    "  lib/app.js:2:38: './utils' (lib/utils.js) no longer exports compileETag; it exports compileEtag now",
  ]);
});

test("an importer through a barrel's export * of a name an edit took away is an error; one the barrel still gives another way is not (tRPC's unstable-core-do-not-import)", async () => {
  await ws.write('bcore/utils.ts', 'export function hasKeysOf() {}\n');
  await ws.write('bcore/other.ts', 'export function isCallable() {}\n');
  await ws.write('bcore/index.ts', "export * from './utils';\nexport * from './other';\n");
  await ws.write('bclient/error.ts', "import { hasKeys } from '../bcore';\nhasKeys();\n");
  await ws.write('bclient/fn.ts', "import { isCallable } from '../bcore';\nisCallable();\n");
  // A barrel that gives hasKeys from a file of its own too: not known broken.
  await ws.write('bshim/own.ts', 'export function hasKeys() {}\n');
  await ws.write('bshim/index.ts', "export * from '../bcore/utils';\nexport * from './own';\n");
  await ws.write('bclient/shimmed.ts', "import { hasKeys } from '../bshim';\nhasKeys();\n");
  // …and one whose other source is vendored code, which the index leaves out: read from the disk.
  await ws.write('bvend/vendor/own.ts', 'export function hasKeys() {}\n');
  await ws.write('bvend/index.ts', "export * from '../bcore/utils';\nexport * from './vendor/own';\n");
  await ws.write('bclient/vendored.ts', "import { hasKeys } from '../bvend';\nhasKeys();\n");
  const service = checkingPastBudget();
  const result = await afterEdit(
    tsOnly(service),
    'bcore/utils.ts',
    'export function hasKeys() {}\n',
    'export function hasKeysOf() {}\n',
  );
  expect(result.output).toContain(
    "  bclient/error.ts:1:10: '../bcore' (bcore/index.ts) no longer exports hasKeys: it re-exported it from bcore/utils.ts",
  );
  expect(result.output).not.toMatch(/client\/shimmed\.ts:1:\d+: /);
  expect(result.output).not.toMatch(/client\/vendored\.ts:1:\d+: /);
  expect(result.output).toContain('bclient/shimmed.ts');
});

test('a service still loading after five budgets is not waited for: the result says so, and the loading goes on', async () => {
  const service = slowToLoad();
  // Loading takes 400 ms here: past 5 × the 50 ms budget.
  let loaded = false;
  const languages = {
    forFile: async () => ({
      ...service,
      prepare: () =>
        sleep(400).then(() => {
          loaded = true;
        }),
    }),
    changed: () => {},
  } as unknown as LanguageServices;
  const touched = [
    { absolute: path.join(ws.root, 'a.ts'), before: 'const a = 1;\n', after: 'const a = 2;\n' },
  ];
  const result = await withNewErrors({ ...ws.ctx, languages }, touched, ok('edited', {}, 'edited'));
  expect(result.output).toBe(
    'edited\n(diagnostics skipped: the project was still loading after 0.25 s; it goes on loading, and get_diagnostics lists errors)',
  );
  expect(loaded).toBe(false);
  await sleep(400);
  expect(loaded).toBe(true);
});

test("files naming a taken-away export: those in the changed file's package are checked, another package's loading past the budget is named", async () => {
  await ws.write('packages/core/package.json', '{"name":"core"}\n');
  await ws.write('packages/core/src/util.ts', 'export function isObj() {}\n');
  // The module imported whole: Keel's reading of imports cannot tell, the service checks it.
  await ws.write(
    'packages/core/src/user.ts',
    "export async function f() {\n  const util = await import('./util');\n  util.isObject();\n}\n",
  );
  await ws.write('packages/app/package.json', '{"name":"app"}\n');
  await ws.write('packages/app/src/main.ts', "import { isObject } from 'core';\n");
  const prepared: string[][] = [];
  const diagnosed: string[][] = [];
  const service: LanguageService = {
    ...slowToLoad(),
    // The core's program is built; the app's takes longer than the budget to build.
    async prepare(paths) {
      prepared.push(paths);
      if (paths.some((p) => p.startsWith('packages/app/'))) await sleep(120);
    },
    async diagnostics(paths, _signal, overlay) {
      diagnosed.push([...paths]);
      if (overlay || !paths.includes('packages/core/src/user.ts')) return [];
      return [
        {
          path: 'packages/core/src/user.ts',
          line: 1,
          column: 10,
          severity: 'error',
          code: 'TS2339',
          message: "Property 'isObject' does not exist on type 'typeof import(\"./util\")'.",
        },
      ];
    },
  };
  const languages = tsOnly(service);
  const touched = [
    {
      absolute: path.join(ws.root, 'packages/core/src/util.ts'),
      before: 'export function isObject() {}\n',
      after: 'export function isObj() {}\n',
    },
  ];
  const result = await withNewErrors({ ...ws.ctx, languages }, touched, ok('edited', {}, 'edited'));
  expect(prepared).toEqual([
    ['packages/core/src/util.ts'],
    ['packages/core/src/user.ts'],
    ['packages/app/src/main.ts'],
  ]);
  expect(result.output).toBe(
    [
      'edited',
      '(1 file naming isObject, which this change no longer exports: not checked within 0.05 s; get_diagnostics with their paths checks them: packages/app/src/main.ts)',
      '1 new error after this change:',
      "  packages/core/src/user.ts:1:10: TS2339 Property 'isObject' does not exist on type 'typeof import(\"./util\")'.",
    ].join('\n'),
  );
  // The app's check was not waited for past its loading: once its loading overran the budget, its diagnostics were
  // never asked for.
  expect(diagnosed.filter((paths) => paths.includes('packages/app/src/main.ts'))).toEqual([]);
});

test("rename_symbol refuses a service's rename that leaves an importer naming the old name broken (a project it did not reach)", async () => {
  await ws.write('lib/core.ts', 'export function helper() {}\n');
  await ws.write('lib/own.ts', 'function helper() {}\nhelper();\n');
  await ws.write('other/user.ts', "import { helper } from '../lib/core';\nhelper();\n");
  // The service renames in core.ts alone: other/user.ts is in a project it did not consult.
  const result = await renameAlone('lib/core.ts', ['helper', 'assist'], async (paths, _signal, overlay) => {
    const renamed = overlay?.get('lib/core.ts')?.includes('assist') === true;
    return renamed && paths.includes('other/user.ts')
      ? [
          {
            path: 'other/user.ts',
            line: 1,
            column: 10,
            severity: 'error',
            code: 'TS2305',
            message: "Module '../lib/core' has no exported member 'helper'.",
          },
        ]
      : [];
  });
  expect(result.success).toBe(false);
  expect(result.error).toContain('renaming helper to assist would introduce 1 errors; nothing was written');
  expect(result.error).toContain(
    "other/user.ts:1:10: TS2305 Module '../lib/core' has no exported member 'helper'.",
  );
  expect(await ws.read('lib/core.ts')).toBe('export function helper() {}\n');
});

test('rename_symbol of a name many other files use for their own things checks none of them, and says so', async () => {
  await ws.write('many/core.ts', 'export function get() {}\n');
  for (let i = 0; i < 21; i++) await ws.write(`many/own${i}.ts`, 'const get = () => 1;\nget();\n');
  const checked: string[][] = [];
  const result = await renameAlone('many/core.ts', ['get', 'fetchOne'], async (paths) => {
    checked.push(paths);
    return [];
  });
  expect(result.success, result.error).toBe(true);
  expect(checked).toEqual([['many/core.ts']]);
  expect(result.output).toContain(
    '(21 files the rename did not change still name get: too many to check; most likely same-named symbols of their own)',
  );
});

test('rename_symbol names the components (.vue, .svelte) still naming the old name: no language service here renames them', async () => {
  await ws.write('comp/format.ts', 'export function label() {}\n');
  await ws.write(
    'comp/Counter.vue',
    '<script setup lang="ts">\nimport { label } from \'./format\';\n</script>\n',
  );
  const result = await renameAlone('comp/format.ts', ['label', 'caption']);
  expect(result.success, result.error).toBe(true);
  expect(result.output).toContain(
    '(not renamed in components, which no language service here reads: comp/Counter.vue still name label; update their uses)',
  );
});

test('components naming an export the change took away are named as not checked', async () => {
  await ws.write('vue/format.ts', 'export function headline() {}\n');
  await ws.write(
    'vue/Card.vue',
    '<script setup lang="ts">\nimport { subtitle } from \'./format\';\n</script>\n',
  );
  const service: LanguageService = { ...slowToLoad(), prepare: async () => {}, diagnostics: async () => [] };
  const languages = tsOnly(service);
  const result = await afterEdit(
    languages,
    'vue/format.ts',
    'export function subtitle() {}\n',
    'export function headline() {}\n',
  );
  expect(result.output).toContain(
    '(components naming subtitle, which this change no longer exports, are not checked: no language service here reads them: vue/Card.vue)',
  );
});

test("a Python module's __all__ still listing a name it took away is an error; a docstring's example import keeps no name (pydantic's fields.py)", async () => {
  await ws.write('pyd/__init__.py', '');
  await ws.write('pyd/main.py', 'from .fields import computed_field\n');
  const service: LanguageService = { ...slowToLoad(), prepare: async () => {}, diagnostics: async () => [] };
  const languages = {
    forFile: async (file: string) => (file.endsWith('.py') ? service : undefined),
    changed: () => {},
  } as unknown as LanguageServices;
  const body = (name: string) =>
    `def ${name}():\n    """Usage:\n\n    from pyd import computed_field\n    """\n`;
  await ws.write('pyd/fields.py', `__all__ = 'Field', 'computed_field'\n\n${body('computed_property')}`);
  const result = await afterEdit(
    languages,
    'pyd/fields.py',
    `__all__ = 'Field', 'computed_field'\n\n${body('computed_field')}`,
    `__all__ = 'Field', 'computed_field'\n\n${body('computed_property')}`,
  );
  expect(result.output.split('\n')).toEqual([
    'edited',
    '2 new errors after this change:',
    '  pyd/fields.py:1:20: __all__ lists computed_field, which this module no longer defines',
    "  pyd/main.py:1:21: '.fields' (pyd/fields.py) no longer exports computed_field; it exports computed_property now",
  ]);
});

test("a change to a file no language service reads here names the places that language's code still names what it took away (gin without gopls)", async () => {
  const before = 'package gin\n\nfunc filterFlags(s string) string {\n\treturn s\n}\n';
  const after = 'package gin\n\nfunc stripFlags(s string) string {\n\treturn s\n}\n';
  await ws.write('gin/utils.go', after);
  await ws.write('gin/context.go', 'package gin\n\nfunc ct() string {\n\treturn filterFlags("a")\n}\n');
  await ws.write('gin/notes.md', 'filterFlags, in prose\n');
  await ws.write('gin/other.ts', 'export const filterFlags = 1;\n');
  const none = { forFile: async () => undefined, changed: () => {} } as unknown as LanguageServices;
  const result = await afterEdit(none, 'gin/utils.go', before, after);
  expect(result.output.split('\n')).toEqual([
    'edited',
    '(no language service checks .go files here (gopls is not on PATH): 1 place in 1 file still names filterFlags, which this change removed: gin/context.go:4; found by name, so some may be other symbols of that name: update those that use it)',
  ]);
  // Nothing taken away: nothing said.
  const same = await afterEdit(none, 'gin/utils.go', after, after.replace('return s', 'return s + ""'));
  expect(same.output).toBe('edited');
  // An exported name: `gin.New` where gin is this package, by its import path (go.mod's module and the folder);
  // never another package's `errors.New`, a comment, or a same-named method.
  await ws.write('go.mod', 'module example.com/m\n\ngo 1.22\n');
  await ws.write('gin/gin.go', 'package gin\n\nfunc Create() *Engine { return nil }\n');
  await ws.write(
    'app/main.go',
    'package main\n\nimport (\n\t"errors"\n\n\tweb "example.com/m/gin"\n)\n\nfunc main() {\n\t_ = errors.New("x") // web.New in a comment\n\t_ = web.New()\n}\n',
  );
  await ws.write('other/x.go', 'package other\n\nfunc (s *S) New() {}\nfunc New() {}\n');
  const exported = await afterEdit(
    none,
    'gin/gin.go',
    'package gin\n\nfunc New() *Engine { return nil }\n',
    'package gin\n\nfunc Create() *Engine { return nil }\n',
  );
  expect(exported.output).toContain(
    ': 1 place in 1 file still names New, which this change removed: app/main.go:11;',
  );
  await fs.rm(path.join(ws.root, 'go.mod'));
});

// The go command where this machine has one (Debian's golang-go here): without it the by-name note above stands.
const go = findOnPath('go', process.env.PATH);
test.skipIf(!go)(
  'with the go command and no gopls, a Go change is checked by go vet: its new errors, nothing said when it vets clean',
  async () => {
    await ws.write('vetted/go.mod', 'module example.com/vetted\n\ngo 1.19\n');
    await ws.write('vetted/b.go', 'package vetted\n\nfunc Use() int { return Helper() }\n');
    const before = 'package vetted\n\nfunc Helper() int { return 1 }\n';
    const renamed = 'package vetted\n\nfunc Aid() int { return 1 }\n';
    await ws.write('vetted/a.go', renamed);
    const none = { forFile: async () => undefined, changed: () => {} } as unknown as LanguageServices;
    // A cold build cache compiles the runtime first: a budget a machine under load keeps.
    const broken = await afterEdit(none, 'vetted/a.go', before, renamed, 6000);
    const lines = broken.output.split('\n');
    expect(lines.slice(0, 2)).toEqual(['edited', '1 new error after this change:']);
    // Go 1.19's vet says "undeclared name: Helper", later ones "undefined: Helper".
    expect(lines[2]).toMatch(/^ {2}vetted\/b\.go:3:\d+: (undefined|undeclared name): Helper$/);
    expect(lines).toHaveLength(3);
    await ws.write('vetted/b.go', 'package vetted\n\nfunc Use() int { return Aid() }\n');
    const fixed = 'package vetted\n\nfunc Aid() int { return 2 }\n';
    await ws.write('vetted/a.go', fixed);
    expect((await afterEdit(none, 'vetted/a.go', renamed, fixed, 6000)).output).toBe('edited');
    await fs.rm(path.join(ws.root, 'vetted'), { recursive: true });
  },
);

test.each([
  [
    'a.go',
    'package a\n\nfunc Run() {}\nfunc (c *C) Get() {}\nfunc (c *C) HandleRequest() {}\n',
    'package a\n',
    ['Run', 'HandleRequest'],
  ],
  [
    'a.rs',
    'pub fn parse() {}\nimpl S {\n    pub fn bytes(&self) {}\n    pub fn binary_byte_offset(&self) {}\n}\n',
    'impl S {}\n',
    ['parse', 'binary_byte_offset'],
  ],
  [
    'A.java',
    'class A {\n  void findPetTypes() {}\n  void get() {}\n}\n',
    'class B {}\n',
    ['A', 'findPetTypes'],
  ],
  ['a.go', 'package a\n\nfunc Run() {}\n', 'package a\n\nfunc Run() { x() }\n', []],
])(
  'removedDefinitions(%s): top-level names and specific member names the text no longer defines',
  (file, before, after, expected) => {
    expect(removedDefinitions(languageOf(file)!, before, after)).toEqual(expected);
  },
);

test("a module bound to a name loses what the change took away: `units.toMetres` after `import * as units`, Django's `views.index` after `from . import views`", async () => {
  await ws.write('ns/units.ts', 'export function feetToMetres() {}\n');
  await ws.write(
    'ns/length.ts',
    "import * as units from './units';\n// units.toMetres in a comment\nexport const m = units . toMetres() + other.units.toMetres();\n",
  );
  const ts: LanguageService = { ...slowToLoad(), prepare: async () => {}, diagnostics: async () => [] };
  const tsResult = await afterEdit(
    tsOnly(ts),
    'ns/units.ts',
    'export function toMetres() {}\n',
    'export function feetToMetres() {}\n',
  );
  expect(tsResult.output.split('\n').slice(1)).toEqual([
    '1 new error after this change:',
    "  ns/length.ts:3:26: './units' (ns/units.ts) no longer exports toMetres; it exports feetToMetres now",
  ]);
  await ws.write('shop/__init__.py', '');
  await ws.write('shop/views.py', 'def home(request):\n    return None\n');
  await ws.write(
    'shop/urls.py',
    'from django.urls import path\n\nfrom . import views\n\nurlpatterns = [\n    path("", views.index, name="views.index"),\n]\n',
  );
  const py: LanguageService = { ...slowToLoad(), prepare: async () => {}, diagnostics: async () => [] };
  const pyResult = await afterEdit(
    {
      forFile: async (f: string) => (f.endsWith('.py') ? py : undefined),
      changed: () => {},
    } as unknown as LanguageServices,
    'shop/views.py',
    'def index(request):\n    return None\n',
    'def home(request):\n    return None\n',
  );
  expect(pyResult.output.split('\n').slice(1)).toEqual([
    '1 new error after this change:',
    "  shop/urls.py:6:20: '.views' (shop/views.py) no longer exports index; it exports home now",
  ]);
});
