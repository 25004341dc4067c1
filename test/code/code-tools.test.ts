// The code intelligence tools on small real projects in every language: map, search, inspect, imports, references.
import { beforeEach, describe, expect, test } from 'vitest';
import { buildDependencyGraphTool } from '../../src/tools/build-dependency-graph.js';
import { findReferencesTool } from '../../src/tools/find-references.js';
import { getCodebaseMapTool } from '../../src/tools/get-codebase-map.js';
import { getImportsExportsTool } from '../../src/tools/get-imports-exports.js';
import { inspectSymbolTool } from '../../src/tools/inspect-symbol.js';
import { searchCodeTool } from '../../src/tools/search-code.js';
import { useToolWorkspace } from '../tools/helpers.js';
import { projects, symbolOf } from './fixtures.js';

const ws = useToolWorkspace();
const { run } = ws;

/** Lines of the user file that find_references reports, by language: never the comment, the string or the shadowing parameter. */
const expectedUserLines: Record<string, number[]> = {
  typescript: [1, 8, 9],
  javascript: [1, 8],
  python: [1, 11],
  rust: [2, 11],
  go: [13],
  java: [12],
  dart: [9],
};

describe.each(Object.keys(projects))('%s project', (lang) => {
  const project = projects[lang]!;
  const name = symbolOf(lang);
  beforeEach(async () => {
    for (const [file, content] of Object.entries(project.files)) await ws.write(file, content);
  });

  test('get_codebase_map shows the signatures of both files', async () => {
    const result = await run(getCodebaseMapTool, {});
    expect(result.success).toBe(true);
    expect(result.output).toContain(`${project.def}:`);
    expect(result.output).toContain(`${project.user}:`);
    expect(result.output).toMatch(new RegExp(`\\d│ .*${name}\\(`));
    expect(result.output).not.toContain('return');
  });

  test('search_code finds the function by a fuzzy query', async () => {
    const query = lang === 'go' ? 'CompTot' : lang === 'python' || lang === 'rust' ? 'comp_tot' : 'cmpTotal';
    const result = await run(searchCodeTool, { query });
    expect(result.output.split('\n')[0]).toContain(`${project.def}:`);
    expect(result.output.split('\n')[0]).toContain(name);
    const [kind, type] = lang === 'go' ? ['type', 'Cart'] : ['class', lang === 'java' ? 'MathUtil' : 'Cart'];
    const classes = await run(searchCodeTool, { query: type, kind });
    expect(classes.output).toMatch(new RegExp(`${kind} ${type}:`));
  });

  test('inspect_symbol gives the signature, doc comment, place and references', async () => {
    const result = await run(inspectSymbolTool, { name });
    expect(result.success).toBe(true);
    expect(result.output).toContain(`${project.def}:`);
    expect(result.output).toMatch(/doc: .*adds up the prices/i);
    expect(result.metadata.references).toBeGreaterThanOrEqual(1);
  });

  test('get_imports_exports resolves the import to the defining file', async () => {
    const result = await run(getImportsExportsTool, { path: project.user });
    expect(result.success).toBe(true);
    expect(result.output).toContain(`→ ${project.def}`);
  });

  test('find_references reports code uses only: not comments, strings or a shadowing parameter', async () => {
    const result = await run(findReferencesTool, { name });
    const lines = result.output
      .split('\n')
      .filter((l) => l.startsWith(`${project.user}:`))
      .map((l) => Number(l.split(':')[1]));
    expect(lines).toEqual(expectedUserLines[lang]);
    expect(result.output).toContain(`${project.def}:`);
    // Go: a bare name in another package is that package's own, never counted, shadowing or not.
    if (lang !== 'go') expect(result.metadata.shadowed).toBeGreaterThanOrEqual(1);
  });

  test('build_dependency_graph links the user file to the defining file, without cycles', async () => {
    const result = await run(buildDependencyGraphTool, {});
    expect(result.output).toContain(`${project.user} → ${project.def}`);
    expect(result.output).toContain('cycles: none');
  });
});

test('search_code matches each word of a query on its own; with none matching all, those matching some, said so', async () => {
  await ws.write(
    'transport.py',
    'class HTTPTransport:\n    pass\n\nclass RetryTransport:\n    pass\n\ndef retry_delay():\n    pass\n',
  );
  // One name has both words; a few with one follow it, marked.
  const both = await run(searchCodeTool, { query: 'retry transport' });
  expect(both.output.split('\n')).toEqual([
    'transport.py:4 class RetryTransport: class RetryTransport',
    '(these match some of the words)',
    'transport.py:7 function retry_delay: def retry_delay()',
    'transport.py:1 class HTTPTransport: class HTTPTransport',
  ]);
  const some = await run(searchCodeTool, { query: 'transport, pool' });
  expect(some.output.split('\n')[0]).toBe('(no symbol matches all of transport, pool; these match some)');
  expect(some.output).toContain('HTTPTransport');
  expect((await run(searchCodeTool, { query: 'zzz qqq' })).output).toBe('(no symbol matches zzz qqq)');
});

/** A search's lines before those matching only some of its words. */
const matchingAll = (output: string) => output.split('\n(these match some of the words)\n')[0]!.split('\n');

test("search_code matches a word of several in a method's class, as a part of a name, never as scattered letters", async () => {
  await ws.write(
    'table.py',
    'class Table:\n    def _render(self):\n        pass\n\n    def add_column(self):\n        pass\n\nclass Live:\n    def set_renderable(self):\n        pass\n',
  );
  const found = await run(searchCodeTool, { query: 'Table render' });
  expect(found.output.split('\n')[0]).toBe('table.py:2 method Table._render: def _render(self)');
  expect(found.output.split('\n')[1]).toBe('(these match some of the words)');
  // All the words in a name before some in the name and the rest in its class's.
  await ws.write('blog.py', 'class BlogPersonRelationship:\n    page = 1\n\nclass BlogPage:\n    pass\n');
  const blog = await run(searchCodeTool, { query: 'blog page' });
  expect(matchingAll(blog.output).map((line) => line.split(' ')[2])).toEqual([
    'BlogPage:',
    'BlogPersonRelationship.page:',
  ]);
  // A word in its other number: "dependency" in solve_dependencies.
  await ws.write('deps.py', 'def solve_dependencies():\n    pass\n');
  const solve = await run(searchCodeTool, { query: 'dependency solve' });
  expect(matchingAll(solve.output)).toEqual([
    'deps.py:1 function solve_dependencies: def solve_dependencies()',
  ]);
  // A word the name lacks may be in its parameters: mount(component, options) for "mount component", after a name
  // with both words; a name with neither word in its parameters matches some.
  await ws.write(
    'render.js',
    'let mounted_components = new WeakMap();\nexport function mount(component, options) {}\nexport function unmount(app) {}\n',
  );
  const mount = await run(searchCodeTool, { query: 'mount component' });
  expect(matchingAll(mount.output)).toEqual([
    'render.js:1 variable mounted_components: let mounted_components = new WeakMap();',
    'render.js:2 function mount: export function mount(component, options)',
  ]);
  expect(mount.output).toContain('(these match some of the words)\nrender.js:3 function unmount');
  // Words that only join the others are left out: "a" and "with" match every name holding the letters.
  await ws.write(
    'search.rs',
    'pub fn search_file(path: &str) {}\npub struct WithFilename;\npub fn memory_map() {}\n',
  );
  const sentence = await run(searchCodeTool, { query: 'search a file with memory map' });
  expect(sentence.output).toContain('no symbol matches all of search, file, memory, map; these match some');
  const first = sentence.output.split('\n').slice(1, 3).join('\n');
  expect(first).toContain('function search_file');
  expect(first).toContain('function memory_map');
  // A member none of whose words is in its own name is no match: the class itself is.
  await ws.write('effect.py', 'class ReactiveEffect:\n    def run(self):\n        pass\n');
  const effect = await run(searchCodeTool, { query: 'reactive effect' });
  expect(matchingAll(effect.output)).toEqual(['effect.py:1 class ReactiveEffect: class ReactiveEffect']);
  // "table" is in set_renderable only as scattered letters: that method matches "render" alone, after both words.
  const some = await run(searchCodeTool, { query: 'render table columns' });
  const names = some.output
    .split('\n')
    .slice(1)
    .map((line) => line.split(' ')[2]!.replace(/:$/, ''));
  expect(names.slice(0, 2).sort()).toEqual(['Table._render', 'Table.add_column']);
  expect(names).toContain('Live.set_renderable');
  expect(names.indexOf('Live.set_renderable')).toBeGreaterThan(1);
});

test("search_code lists the project's own definitions before a test's or an example's on a like match", async () => {
  await ws.write('src/router.ts', 'export function createRouterFactory() {}\n');
  await ws.write('examples/app/codegen.ts', 'function createRouter() {}\n');
  await ws.write('test/helpers.ts', 'export function createAppRouter() {}\n');
  const found = await run(searchCodeTool, { query: 'create router' });
  expect(found.output.split('\n').map((line) => line.split(':')[0])).toEqual([
    'src/router.ts',
    'examples/app/codegen.ts',
    'test/helpers.ts',
  ]);
});

test("Go references by name: a package-level name's are bare in its package and `pkg.Name` elsewhere, never a method's or another package's (gin's Engine, errors.New)", async () => {
  await ws.write('go.mod', 'module example.com/gin\n\ngo 1.22\n');
  await ws.write(
    'gin.go',
    'package gin\n\ntype Engine struct{}\n\nfunc New() *Engine { return &Engine{} }\n',
  );
  await ws.write(
    'binding/validator.go',
    'package binding\n\ntype StructValidator interface {\n\tEngine() any\n}\n\ntype v struct{}\n\nfunc (x *v) Engine() any { return nil }\n\nfunc use(s StructValidator) { _ = s.Engine() }\n\nfunc New() *v { return &v{} }\n',
  );
  await ws.write(
    'app/main.go',
    'package main\n\nimport (\n\t"errors"\n\n\tweb "example.com/gin"\n)\n\nfunc main() {\n\t_ = errors.New("x")\n\tvar e *web.Engine = web.New()\n\t_ = e\n}\n',
  );
  const engine = await run(findReferencesTool, { name: 'Engine', path: 'gin.go' });
  expect(
    engine.output
      .split('\n')
      .filter((l) => /^\S+:\d+:\d+/.test(l))
      .map((l) => l.split(': ')[0]),
  ).toEqual(['app/main.go:11:13', 'gin.go:3:6 (definition)', 'gin.go:5:13', 'gin.go:5:30']);
  const made = await run(findReferencesTool, { name: 'New', path: 'gin.go' });
  expect(made.output).toContain('app/main.go:11:26');
  expect(made.output).not.toContain('app/main.go:10');
  expect(made.output).not.toContain('binding/');
});

test('by name, only the declared name is the definition, not a use on its line (a one-line recursive function)', async () => {
  await ws.write('go.mod', 'module example.com/calc\n\ngo 1.22\n');
  await ws.write(
    'calc.go',
    'package calc\n\nfunc Countdown(n int) int { if n == 0 { return 0 }; return Countdown(n - 1) }\n\nvar Factor = 2\n\nfunc Scale() int { return Countdown(Factor) }\n',
  );
  const found = await run(findReferencesTool, { name: 'Countdown', path: 'calc.go' });
  expect(
    found.output
      .split('\n')
      .filter((l) => /^\S+:\d+:\d+/.test(l))
      .map((l) => l.split(': ')[0]),
  ).toEqual(['calc.go:3:6 (definition)', 'calc.go:3:60', 'calc.go:7:27']);
});

test("by name, a function beside a same-named method (pflag's Lookup and FlagSet.Lookup): find_references and inspect_symbol say the method's uses are left out, and how to ask for them", async () => {
  await ws.write('go.mod', 'module example.com/pflag\n\ngo 1.22\n');
  await ws.write(
    'flag.go',
    'package pflag\n\ntype FlagSet struct{}\n\nfunc (f *FlagSet) Lookup(name string) int {\n\treturn len(name)\n}\n\nvar CommandLine = &FlagSet{}\n\nfunc Lookup(name string) int {\n\treturn CommandLine.Lookup(name)\n}\n',
  );
  await ws.write(
    'use.go',
    'package pflag\n\nfunc use(f *FlagSet) int {\n\treturn f.Lookup("a") + Lookup("b")\n}\n',
  );
  const note =
    '(uses of the module-level Lookup only, not of FlagSet.Lookup at flag.go:5: ask for FlagSet.Lookup, or give path and line, for those)';
  const found = await run(findReferencesTool, { name: 'Lookup' });
  expect(found.output.split('\n')).toEqual([
    'flag.go:11:6 (definition): func Lookup(name string) int {',
    'use.go:4:25: return f.Lookup("a") + Lookup("b")',
    expect.stringMatching(/^\(name-based/),
    note,
  ]);
  const inspected = await run(inspectSymbolTool, { name: 'Lookup' });
  expect(inspected.output.split('\n').slice(-2)).toEqual([
    'references: 1 in 1 files, by name: same-named symbols may be counted (find_references lists them)',
    note,
  ]);
  // Asked for the method, or for a name only methods have: no note.
  const method = await run(findReferencesTool, { name: 'FlagSet.Lookup' });
  expect(method.output).toContain('use.go:4:11');
  expect(method.output).not.toContain('module-level');
});

test("Java references by name count a varargs parameter's and an enhanced for's type: never a binding (gson's ExclusionStrategy...)", async () => {
  await ws.write('src/Strat.java', 'public interface Strat {\n  boolean skip();\n}\n');
  await ws.write(
    'src/B.java',
    'public class B {\n  public B set(Strat... strategies) {\n    for (Strat s : strategies) { s.skip(); }\n    return this;\n  }\n}\n',
  );
  const result = await run(findReferencesTool, { name: 'Strat', path: 'src/Strat.java' });
  expect(result.output).toContain('src/B.java:2:16: ');
  expect(result.output).toContain('src/B.java:3:10: ');
  expect(result.output).not.toContain('shadow');
});

test("inspect_symbol lists a type before same-named methods, and the project's code before its tests (gin's Engine)", async () => {
  await ws.write('go.mod', 'module example.com/gin\n\ngo 1.22\n');
  await ws.write(
    'binding/validator.go',
    'package binding\n\ntype defaultValidator struct{}\n\n// Engine returns the validator engine.\nfunc (v *defaultValidator) Engine() any { return nil }\n',
  );
  await ws.write('engine_test.go', 'package gin\n\ntype Engine struct{ fake bool }\n');
  await ws.write('gin.go', "package gin\n\n// Engine is the framework's instance.\ntype Engine struct{}\n");
  const result = await run(inspectSymbolTool, { name: 'Engine' });
  const heads = result.output.split('\n').filter((line) => /^\w.* at /.test(line));
  expect(heads).toEqual([
    'type Engine at gin.go:4-4',
    'type Engine at engine_test.go:3-3',
    // A Go method's type is its receiver's.
    'method Engine (in defaultValidator) at binding/validator.go:6-6',
  ]);
});

test('inspect_symbol counts by name, and says so, when the language service does not answer within the budget', async () => {
  await ws.write('src/core.ts', 'export function coreRun() {}\n');
  await ws.write('src/user.ts', "import { coreRun } from './core';\ncoreRun();\n");
  // A service still building a big project's program: it answers nothing until the call is given up.
  const loading = {
    references: (_at: unknown, signal: AbortSignal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
  };
  const languages = { forFile: async () => loading } as never;
  const ctx = { ...ws.ctx, languages, limits: { ...ws.ctx.limits, diagnosticsMs: 50 } };
  const result = await inspectSymbolTool.execute({ name: 'coreRun' }, ctx);
  expect(result.output).toContain(
    'references: 2 in 1 files, by name (the language service was still loading; ask again for its count): same-named symbols may be counted (find_references lists them)',
  );
});

test("get_imports_exports resolves crate:: paths of a crate without src/ (ripgrep's crates/core/main.rs) and a nested use tree", async () => {
  await ws.write(
    'Cargo.toml',
    '[package]\nname = "rg"\n\n[[bin]]\nname = "rg"\npath = "crates/core/main.rs"\n',
  );
  await ws.write(
    'crates/core/main.rs',
    'mod flags;\nmod search;\n\nuse crate::{flags::{HiArgs, Mode}, search::Worker};\n\nfn main() {}\n',
  );
  await ws.write('crates/core/flags/mod.rs', 'pub struct HiArgs;\npub enum Mode { A }\n');
  await ws.write('crates/core/search.rs', 'pub struct Worker;\n');
  const result = await run(getImportsExportsTool, { path: 'crates/core/main.rs' });
  expect(result.output).toContain('crate::flags {HiArgs, Mode} → crates/core/flags/mod.rs');
  expect(result.output).toContain('crate::search {Worker} → crates/core/search.rs');
});

test("a CommonJS project's requires are its imports: resolved, in the graph, and no definitions of the file's own (Express)", async () => {
  await ws.write(
    'lib/application.js',
    "'use strict';\nvar debug = require('debug')('express:application');\nvar View = require('./view');\nvar compileETag = require('./utils').compileETag;\n\nvar app = exports = module.exports = {};\n\nfunction logerror(err) {\n  debug(err, View, compileETag);\n}\n",
  );
  await ws.write('lib/view.js', "'use strict';\nmodule.exports = View;\nfunction View(name) {}\n");
  await ws.write('lib/utils.js', "'use strict';\nexports.compileETag = function (val) {};\n");
  const imports = await run(getImportsExportsTool, { path: 'lib/application.js' });
  expect(imports.output).toContain('./view {* as View} → lib/view.js');
  expect(imports.output).toContain('./utils {compileETag} → lib/utils.js');
  // Express's tests require the package's root, `require('..')`.
  await ws.write('index.js', "module.exports = require('./lib/application');\n");
  await ws.write('test/app.js', "var express = require('..');\nexpress();\n");
  const graph = await run(buildDependencyGraphTool, {});
  expect(graph.output).toContain('lib/application.js → lib/utils.js, lib/view.js');
  expect(graph.output).toContain('test/app.js → index.js');
  expect(graph.output).toContain('index.js → lib/application.js');
  const map = await run(getCodebaseMapTool, {});
  expect(map.output).toContain('function logerror(err)');
  expect(map.output).not.toContain("require('./view')");
});

test("get_imports_exports lists a Python module's __all__ as its exports: imported, defined, chained assignments and __getattr__'s (attrs' __init__.py)", async () => {
  await ws.write('src/attr/_make.py', 'def attrib():\n    pass\n\n\ndef attrs():\n    pass\n');
  await ws.write(
    'src/attr/__init__.py',
    [
      'from . import exceptions',
      'from ._make import (  # noqa: F401',
      '    attrib,',
      '    attrs as make_attrs,',
      ')',
      '',
      's = attributes = make_attrs',
      '',
      '',
      'class AttrsInstance:',
      '    pass',
      '',
      '',
      '__all__ = ["AttrsInstance", "attrib", "attributes", "exceptions", "make_attrs", "s", "validators", "__doc__"]',
      '',
      '',
      'def __getattr__(name):',
      '    raise AttributeError(name)',
      '',
    ].join('\n'),
  );
  const result = await run(getImportsExportsTool, { path: 'src/attr/__init__.py' });
  expect(result.output.split('\nexports')[1]).toBe(
    [
      ' (8, from __all__):',
      '  10: class AttrsInstance',
      '  2: attrib (from ._make)',
      '  7: variable attributes',
      '  1: exceptions (from .)',
      '  2: attrs as make_attrs (from ._make)',
      '  7: variable s',
      "  validators (listed in __all__; the module's __getattr__ gives it)",
      '  __doc__ (listed in __all__; an attribute every module has)',
    ].join('\n'),
  );
  expect(result.metadata.exports).toBe(8);
});

test("an interface's properties are its members (zustand's StoreApi.getInitialState: () => T), never a type literal's", async () => {
  await ws.write(
    'src/vanilla.ts',
    'export interface StoreApi<T> {\n  getInitialState: () => T;\n  setState(v: T): void;\n}\nexport const read = (o: { getLocal: () => number }) => o.getLocal();\n',
  );
  const found = await run(searchCodeTool, { query: 'getInitialState' });
  expect(found.output.split('\n')[0]).toBe(
    'src/vanilla.ts:2 field StoreApi.getInitialState: getInitialState: () => T;',
  );
  expect((await run(searchCodeTool, { query: 'getLocal' })).output).toBe('(no symbol matches getLocal)');
  const refs = await run(findReferencesTool, { name: 'StoreApi.getInitialState' });
  expect(refs.output).toContain('src/vanilla.ts:2:3 (definition)');
});

test('get_imports_exports marks type-only names, inline `type` or a whole `import type`/`export type`, in imports, exports and re-exports', async () => {
  await ws.write('src/x.ts', 'export interface Foo {}\nexport const bar = 1;\nexport type Baz = string;\n');
  await ws.write(
    'src/user.ts',
    [
      "import { type Foo, bar } from './x';",
      "import type { Baz } from './x';",
      'interface Own {}',
      'const local = bar;',
      'export { type Foo, local };',
      'export type { Own, Baz };',
      "export { type Foo as Renamed, bar as value } from './x';",
      "export type { Baz as Alias } from './x';",
      '',
    ].join('\n'),
  );
  const result = await run(getImportsExportsTool, { path: 'src/user.ts' });
  expect(result.output).toBe(
    [
      'imports (2):',
      '  1: ./x {type Foo, bar} → src/x.ts',
      '  2: type ./x {Baz} → src/x.ts',
      'exports (6):',
      '  5: type Foo',
      '  5: local',
      '  6: type Own',
      '  6: type Baz',
      '  re-exports:',
      '    7: ./x {type Foo as Renamed, bar as value} → src/x.ts',
      '    8: type ./x {Baz as Alias} → src/x.ts',
    ].join('\n'),
  );
});
