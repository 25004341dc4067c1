// What a file's tags say, and how the map ranks by them, where real repositories fooled it: object literals' methods
// inside functions are no definitions (tRPC's resolver `string(ctx)` took every `: string` and `z.string()`), a use
// after a `.` is a member use (`.next()`, `Array.isArray`) unless `.` follows a module (`t.identifier`), a keyword is no use
// of a method named like it, and neither a file's own variables nor a script's private names reach other files.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadCodeIndex } from '../../src/code/code-index.js';
import { languageOf } from '../../src/code/languages.js';
import { prepareRank, rankScored } from '../../src/code/rank.js';
import { docSummary } from '../../src/code/tag-definitions.js';
import { extractTags, forEachReference, referenceCount } from '../../src/code/tags.js';

const tagsOf = (file: string, source: string) => extractTags(languageOf(file)!, source);

/** The map's authority of each file of a project made of `files`, written to a temporary folder. */
async function authorities(files: Record<string, string>): Promise<(file: string) => number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'keel-tags-'));
  try {
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.join(dir, path.dirname(file)), { recursive: true });
      await writeFile(path.join(dir, file), content);
    }
    const input = prepareRank(await loadCodeIndex(dir));
    const { scores } = rankScored(input);
    return (file) => scores.authority[input.paths.indexOf(file)]!;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const references = (file: string, source: string) => {
  const found: Record<string, number> = {};
  forEachReference(tagsOf(file, source), (name, count) => {
    found[name] = count;
  });
  return found;
};

describe('definitions', () => {
  test("an object literal's methods inside a function are locals; a class's and a top-level object's are kept", () => {
    const source = [
      'export function resolvers() {',
      '  return { string(ctx) { return ctx; }, number(ctx) { return ctx; } };',
      '}',
      'export class Client {',
      '  query(path: string) { return observe({ next(v) {}, error(e) {} }); }',
      '}',
      'export const api = { get(url: string) { return url; } };',
    ].join('\n');
    expect(tagsOf('a.ts', source).definitions.map((d) => [d.name, d.kind, d.container])).toEqual([
      ['resolvers', 'function', undefined],
      ['Client', 'class', undefined],
      ['query', 'method', 'Client'],
      ['api', 'constant', undefined],
      ['get', 'method', undefined],
    ]);
  });
});

describe('exports', () => {
  test("a function's own definitions are no exports: a decorator's wrapper (flask's app.py), a nested helper", () => {
    const py = [
      'def setupmethod(f):',
      '    def wrapper_func(self, *args):',
      '        return f(self, *args)',
      '    return wrapper_func',
      '',
      'class Flask:',
      '    def route(self, rule):',
      '        def decorator(f):',
      '            return f',
      '        return decorator',
      '',
      'def remove_ctx(f):',
      '    return f',
    ].join('\n');
    expect(tagsOf('app.py', py).definitions.map((d) => [d.name, d.container, d.exported])).toEqual([
      ['setupmethod', undefined, true],
      ['wrapper_func', undefined, false],
      ['Flask', undefined, true],
      ['route', 'Flask', true],
      ['decorator', undefined, false],
      ['remove_ctx', undefined, true],
    ]);
    const js = 'export function outer() {\n  function inner() {}\n  return inner;\n}\n';
    expect(tagsOf('a.js', js).definitions.map((d) => [d.name, d.exported])).toEqual([
      ['outer', true],
      ['inner', false],
    ]);
  });
});

describe('doc comments', () => {
  const words = (n: number, word: string) => Array.from({ length: n }, () => word).join(' ');
  test.each<[string, string[], string | undefined]>([
    ['none', ['', '  '], undefined],
    ['a short doc, whole', ['Adds one.', '', 'Returns the new value.'], 'Adds one. Returns the new value.'],
    [
      'a long doc: its first lines, and how many were left out',
      ['The summary.', words(40, 'detail'), words(40, 'example'), 'last', 'line'],
      `The summary. ${words(40, 'detail')} … (3 more lines)`,
    ],
    [
      'a first line longer than the budget: its start',
      [words(80, 'long'), 'more'],
      `${words(80, 'long').slice(0, 299)}… … (1 more line)`,
    ],
  ])('%s', (_, lines, expected) => {
    expect(docSummary(lines)).toBe(expected);
  });

  test("a long Javadoc keeps its beginning, not its last lines (gson's TypeAdapter.nullSafe)", () => {
    const example = Array.from({ length: 25 }, (_, i) => `   *     line ${i} of the example;`);
    const source = [
      'public abstract class TypeAdapter<T> {',
      '  /**',
      '   * This wrapper method is used to make a type adapter null tolerant.',
      '   *',
      '   * <pre>{@code',
      ...example,
      '   * }</pre>',
      '   * Note that we did not need to check for nulls.',
      '   */',
      '  public final TypeAdapter<T> nullSafe() {',
      '    return this;',
      '  }',
      '}',
    ].join('\n');
    const doc = tagsOf('TypeAdapter.java', source).definitions.find((d) => d.name === 'nullSafe')!.doc!;
    expect(doc).toMatch(
      /^This wrapper method is used to make a type adapter null tolerant\. <pre>\{@code line 0/,
    );
    expect(doc).toMatch(/ … \(\d+ more lines\)$/);
    expect(doc).not.toContain('Note that');
  });

  test('a long Python docstring keeps its summary', () => {
    const source = `def get(self, rule):\n    """Shortcut for route.\n\n${Array.from({ length: 30 }, (_, i) => `    Detail ${i} of the options this takes.`).join('\n')}\n    """\n    return rule\n`;
    const doc = tagsOf('a.py', source).definitions[0]!.doc!;
    expect(doc).toMatch(/^Shortcut for route\. Detail 0 of/);
    expect(doc).toMatch(/ … \(\d+ more lines\)$/);
  });
});

test("functions assigned to members at the top level and module.exports' keys are an API's definitions (Express's exports.x, res.send, View.prototype; undici's symbols)", () => {
  const source = [
    "var sign = require('cookie-signature').sign;",
    "var debug = require('debug')('express:view');",
    'var res = Object.create(http.ServerResponse.prototype);',
    '/** Sends a response. */',
    'res.send = function send(body) {',
    '  this.helper = function () {};',
    '};',
    'exports.compileETag = function (val) {};',
    'module.exports.etag = (body) => body;',
    'View.prototype.lookup = function lookup(name) {};',
    'app.settings = {};',
    "module.exports = { kConnect: Symbol('connect'), format: function () {}, res, parse() {}, resolve: { alias: {} }, mode: 'x' };",
    'function start() {',
    '  app.inner = function () {};',
    '}',
  ].join('\n');
  expect(
    tagsOf('a.js', source).definitions.map((d) => [d.name, d.kind, d.container, d.exported, d.doc]),
  ).toEqual([
    ['res', 'variable', undefined, false, undefined],
    ['send', 'method', 'res', false, 'Sends a response.'],
    ['compileETag', 'function', undefined, true, undefined],
    ['etag', 'function', undefined, true, undefined],
    ['lookup', 'method', 'View', false, undefined],
    ['kConnect', 'constant', undefined, true, undefined],
    ['format', 'function', undefined, true, undefined],
    ['parse', 'method', undefined, false, undefined],
    ['start', 'function', undefined, false, undefined],
  ]);
});

test("what module.exports is set to is exported, with the functions assigned to its members (Express's res, app)", () => {
  const response = [
    'var res = Object.create(http.ServerResponse.prototype);',
    'module.exports = res;',
    'res.send = function send(body) {};',
    'function sendfile(res, file) {}',
  ].join('\n');
  expect(tagsOf('a.js', response).definitions.map((d) => [d.name, d.exported])).toEqual([
    ['res', true],
    ['send', true],
    ['sendfile', false],
  ]);
  const application = 'var app = exports = module.exports = {};\napp.use = function use(fn) {};\n';
  expect(tagsOf('a.js', application).definitions.map((d) => [d.name, d.exported])).toEqual([
    ['app', true],
    ['use', true],
  ]);
});

test("CommonJS's `const fs = require('fs')` is no definition", () => {
  const source = "const fs = require('fs');\nconst limit = 3;\nmodule.exports = { limit };\n";
  expect(tagsOf('a.js', source).definitions.map((d) => d.name)).toEqual(['limit']);
});

describe('references', () => {
  test.each([
    ['a bare use', 'run(x);', { run: 1, x: 1 }],
    ['a use after a dot is a member use', 'z.string(); a?.b;', { z: 1, '.string': 1, a: 1, '.b': 1 }],
    [
      'across a line break in a chain',
      'list\n  .map(f)\n  .filter(g);',
      { list: 1, '.map': 1, f: 1, '.filter': 1, g: 1 },
    ],
    ['a spread is a bare use', 'call(...args);', { call: 1, args: 1 }],
    ['a keyword is bare', 'throw new Error(x);', { throw: 1, new: 1, Error: 1, x: 1 }],
    [
      "a property name and a parameter's are said, not used, and the parameter is the file's own; a ternary's and a case's are uses",
      'f({ key: value, other });\ntype T = { opt?: string };\nfunction g(param: number) { return param ? b : c; }\nswitch (k) { case x: break; }',
      {
        f: 1,
        "'key": 1,
        value: 1,
        other: 1,
        type: 1,
        T: 1,
        "'opt": 1,
        string: 1,
        function: 1,
        g: 1,
        "'param": 1,
        number: 1,
        return: 1,
        '~param': 1,
        b: 1,
        c: 1,
        switch: 1,
        k: 1,
        case: 1,
        x: 1,
        break: 1,
      },
    ],
  ])('%s', (_, source, expected) => {
    expect(references('a.ts', source)).toEqual(expected);
  });

  test("Python: an annotated name and a keyword argument are said, not used; a slice's, a lambda's and a comparison's are uses", () => {
    expect(
      references('a.py', 'limit: int = 3\nitems[start:end]\nf = lambda x: x\ng(timeout=5, retry=x == y)\n'),
    ).toEqual({
      "'limit": 1,
      int: 1,
      items: 1,
      start: 1,
      end: 1,
      f: 1,
      lambda: 1,
      x: 3,
      g: 1,
      "'timeout": 1,
      "'retry": 1,
      y: 1,
    });
  });

  test.each([
    [
      'a namespace import',
      'a.ts',
      "import * as t from './types';\nt.identifier(x);",
      { t: 1, identifier: 1, x: 1 },
    ],
    [
      'a Python module',
      'a.py',
      'import os.path\nos.getcwd()\nobj.getcwd()\n',
      { os: 1, getcwd: 1, '.getcwd': 1, obj: 1 },
    ],
    [
      'a Python name taken from a package',
      'a.py',
      'from . import utils\nutils.run()\n',
      { utils: 1, run: 1 },
    ],
    [
      'a Go package',
      'a.go',
      'package a\nimport "github.com/spf13/cobra"\nvar c = cobra.Command{}\n',
      { package: 1, a: 1, import: 1, var: 1, '~c': 1, cobra: 1, Command: 1 },
    ],
    [
      "a Go standard library package: its names are none of the project's",
      'a.go',
      'package a\nimport (\n  "net/http"\n  j "encoding/json"\n)\nfunc f(w http.ResponseWriter) { j.Marshal(w) }\n',
      { package: 1, a: 1, import: 1, func: 1, f: 1, w: 2, http: 1, j: 1 },
    ],
    [
      'no module: a member of a member',
      'a.ts',
      "import * as t from './types';\nx.t.identifier;",
      { '.t': 1, x: 1, '.identifier': 1 },
    ],
  ])('a member of %s is a use of its top-level name', (_, file, source, expected) => {
    expect(references(file, source)).toEqual(expected);
  });

  test("a name after :: is a path use, a type's or a module's", () => {
    expect(references('a.rs', 'fn main() { let p = Parser::new(); utils::run(p); }')).toEqual({
      fn: 1,
      main: 1,
      let: 1,
      '~p': 2,
      Parser: 1,
      ':new': 1,
      utils: 1,
      ':run': 1,
    });
  });

  test('a name the file declares a variable of is marked as its own', () => {
    expect(
      references(
        'a.ts',
        'const params = new URLSearchParams();\nparams.get(q);\nfor (const [k] of e) use(k);',
      ),
    ).toEqual({
      const: 2,
      '~params': 2,
      URLSearchParams: 1,
      new: 1,
      '.get': 1,
      q: 1,
      for: 1,
      of: 1,
      '~k': 2,
      e: 1,
      use: 1,
    });
  });

  test('referenceCount adds bare and member uses', () => {
    const tags = tagsOf('a.py', 'import mod\nmod.helper()\nhelper()\nhelper()\n');
    expect(referenceCount(tags, 'helper')).toBe(3);
    expect(referenceCount(tags, 'mod')).toBe(1);
    expect(referenceCount(tags, 'absent')).toBe(0);
  });
});

describe('ranking by member and path uses', () => {
  test.each([
    [
      'Go methods, reached by member uses (a method has no class: it is a member all the same)',
      {
        'go.mod': 'module example.com/app\n',
        'cmd.go': 'package app\n\ntype Cmd struct{}\n',
        'execute.go': 'package app\n\nfunc (c *Cmd) Execute() error { return nil }\n',
        'lonely.go': 'package app\n\nfunc (c *Cmd) Unused() error { return nil }\n',
        'a.go': 'package app\n\nfunc A(c *Cmd) { c.Execute() }\n',
        'b.go': 'package app\n\nfunc B(c *Cmd) { c.Execute() }\n',
      },
      'execute.go',
    ],
    [
      'Rust associated functions, reached by Type::name',
      {
        'Cargo.toml': '[package]\nname = "app"\n',
        'src/parser.rs': 'pub struct Parser;\n',
        'src/build.rs': 'impl Parser {\n    pub fn build() -> Parser { Parser }\n}\n',
        'src/lonely.rs': 'impl Parser {\n    pub fn unused() -> Parser { Parser }\n}\n',
        'src/a.rs': 'pub fn a() { let _p = Parser::build(); }\n',
        'src/b.rs': 'pub fn b() { let _p = Parser::build(); }\n',
      },
      'src/build.rs',
    ],
  ])('%s', async (_, files, used) => {
    const authority = await authorities(files);
    const lonely = Object.keys(files).find((f) => f.includes('lonely'))!;
    expect(authority(used)).toBeGreaterThan(authority(lonely) * 1.5);
  });
});

describe('ranking by member and bare uses', () => {
  test("a method named like a keyword gets nothing from those keywords, a top-level name nothing from member uses, a script's own names nothing from the variables of others", async () => {
    const files: Record<string, string> = {
      // A generator helper whose method is named `throw`: every `throw` statement would count as its use.
      'src/gen.ts': 'export class Gen { throw(e: unknown) { return e; } next() { return 1; } }\n',
      // As many definitions, used by nobody.
      'src/lonely.ts': 'export class Lonely { a() { return 1; } b() { return 2; } }\n',
      // A helper named like a builtin's member, and one used by its bare name.
      'src/is.ts': 'export function isArray(v: unknown) { return v; }\n',
      'src/bare.ts': 'export function isList(v: unknown) { return v; }\n',
      'src/cli.ts':
        "import { isList } from './bare.js';\nconst args = process.argv;\nconst a = 1, b = 2;\nisList(args);\n",
    };
    for (let i = 0; i < 6; i++)
      files[`src/user${i}.ts`] = [
        'export function use(v: unknown, ...args: unknown[]) {',
        '  if (args.length > 0) return args;',
        '  if (!Array.isArray(v)) throw new Error("no");',
        '  if (!isList(v)) throw new Error("empty");',
        '  return v;',
        '}',
      ].join('\n');
    const authority = await authorities(files);
    expect(authority('src/gen.ts')).toBeCloseTo(authority('src/lonely.ts'), 12);
    // A script's own `const args` is no definition anyone else can use: the users' `args` are theirs.
    expect(authority('src/cli.ts')).toBeCloseTo(authority('src/lonely.ts'), 12);
    expect(authority('src/is.ts')).toBeLessThan(authority('src/bare.ts'));
  });
});

describe('ranking by member uses of common names', () => {
  test("a method named like an array's or a record's field is reached by little of `xs.push()` or `d.line`", async () => {
    const files: Record<string, string> = {
      // Vue's arrayInstrumentations: an object defining methods named like Array's.
      'src/array.ts':
        'export const instrumented = {\n  push(...a: unknown[]) { return a; },\n  includes(x: unknown) { return x; },\n};\n',
      // GrepResults: a class whose line() shares its name with every record's `line` field.
      'src/results.ts': 'export class Results {\n  line(n: number) { return n; }\n}\n',
      // As many definitions, used by a method call of a distinctive name.
      'src/report.ts': 'export class Report {\n  summarise(n: number) { return n; }\n}\n',
      'src/lonely.ts': 'export class Lonely {\n  alone(n: number) { return n; }\n}\n',
    };
    for (let i = 0; i < 6; i++) {
      files[`src/record${i}.ts`] = `export interface Hit${i} { line: number; path: string }\n`;
      files[`src/user${i}.ts`] = [
        `export function use${i}(xs: number[], d: { line: number }, r: { summarise(n: number): number }) {`,
        '  xs.push(d.line);',
        '  if (xs.includes(d.line)) return r.summarise(d.line);',
        '  return d.line;',
        '}',
      ].join('\n');
    }
    const authority = await authorities(files);
    // What each gets from the users, over what a file used by nobody gets.
    const gained = (file: string) => authority(file) - authority('src/lonely.ts');
    expect(gained('src/report.ts')).toBeGreaterThan(gained('src/array.ts') * 3);
    expect(gained('src/report.ts')).toBeGreaterThan(gained('src/results.ts') * 3);
  });
});
