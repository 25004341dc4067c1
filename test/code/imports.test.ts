// Imports and exports as written, per language: aliases, default and namespace imports, re-exports, a module's own
// export lists and default export; comments and line continuations inside an import are never names.
import { describe, expect, test } from 'vitest';
import { languageOf } from '../../src/code/languages.js';
import { extractTags, referenceCount } from '../../src/code/tags.js';
import { describeImport } from '../../src/tools/get-imports-exports.js';

function tagsOf(file: string, source: string) {
  return extractTags(languageOf(file)!, source);
}

const imports = (file: string, source: string) =>
  tagsOf(file, source).imports.map((imp) => `${imp.reexport ? 'export ' : ''}${describeImport(imp)}`);

describe('imports as written', () => {
  test.each([
    [
      'ts default and named with alias',
      'a.ts',
      "import ky, {a as b, type C} from './x';",
      ['./x {default as ky, a as b, type C}'],
    ],
    [
      'ts type-only default and namespace imports',
      'a.ts',
      "import type D from './d';\nimport type * as T from './t';",
      ['type ./d {default as D}', 'type ./t {* as T}'],
    ],
    [
      'ts names called `type` are values',
      'a.ts',
      "import { type } from './z';\nimport { type as tt, type u } from './w';",
      ['./z {type}', './w {type as tt, type u}'],
    ],
    ['ts namespace', 'a.ts', "import * as ns from 'y';", ['y {* as ns}']],
    ['ts type-only', 'a.ts', "import type {T} from './t';", ['type ./t {T}']],
    [
      "CommonJS requires (Express's lib/application.js): the module, names destructured, one name, or the module alone",
      'a.js',
      [
        "var debug = require('debug')('express:application');",
        "var utils = require('./utils');",
        "var compileETag = require('./utils').compileETag;",
        "const { resolve, join: joinPath } = require('node:path');",
        "require('./polyfill');",
        'function later() { return require(name); }',
      ].join('\n'),
      [
        'debug',
        './utils {* as utils}',
        './utils {compileETag}',
        'node:path {resolve, join as joinPath}',
        './polyfill',
      ],
    ],
    ['ts side effect', 'a.ts', "import './polyfill.js';", ['./polyfill.js']],
    ['ts re-export with alias', 'a.ts', "export {a as d, e} from './z';", ['export ./z {a as d, e}']],
    [
      'ts re-export all',
      'a.ts',
      "export * from './w';\nexport * as q from './v';",
      ['export ./w {*}', 'export ./v {* as q}'],
    ],
    ['ts type re-export', 'a.ts', "export type {Options} from './o';", ['export type ./o {Options}']],
    [
      'ts inline type re-export',
      'a.ts',
      "export {type Options as O, make} from './o';",
      ['export ./o {type Options as O, make}'],
    ],
    ['ts type re-export all', 'a.ts', "export type * from './o';", ['export type ./o {*}']],
    ['js default import', 'a.js', "import React from 'react';", ['react {default as React}']],
    ['ts text that only looks like an import', 'a.ts', 'export const s = \'import a from "b"\';', []],
    [
      'python parenthesised, with comments and aliases',
      'a.py',
      'from .models import (  # noqa: F401\n    Request as Req,  # F401 for re-export\n    Response,\n)\n',
      ['.models {Request as Req, Response}'],
    ],
    ['python line continuation', 'a.py', 'from x import a, \\\n    b  # noqa\n', ['x {a, b}']],
    [
      'python module aliases, one import each',
      'a.py',
      'import os.path as osp, sys\n',
      ['os.path as osp', 'sys'],
    ],
    ['python relative module', 'a.py', 'from . import sessions\n', ['. {sessions}']],
    ['python wildcard', 'a.py', 'from y import *\n', ['y {*}']],
    [
      'go alias, blank and plain',
      'a.go',
      'package a\n\nimport (\n\tf "fmt"\n\t_ "embed"\n\t"os" // files\n)\n',
      ['fmt as f', 'embed as _', 'os'],
    ],
    ['rust braces with alias', 'a.rs', 'use crate::a::{b as c, d};\n', ['crate::a {b as c, d}']],
    ['rust alias', 'a.rs', 'use std::io::Result as IoResult;\n', ['std::io::Result {Result as IoResult}']],
    ['rust pub use glob', 'a.rs', 'pub use self::x::*;\n', ['export self::x {*}']],
    [
      'rust extern crates, aliased or not (no_std crates: `extern crate core as std`)',
      'a.rs',
      '#[macro_use]\nextern crate core as std;\nextern crate serde;\npub extern crate alloc;\n',
      ['core as std', 'serde', 'export alloc'],
    ],
    [
      'rust nested use tree (ripgrep): one import per module reached',
      'a.rs',
      'use std::{\n    sync::{\n        atomic::{AtomicBool, Ordering},\n        mpsc,\n    },\n    thread,\n};\nuse crate::{flags::{HiArgs, SearchMode}, haystack::{self, Haystack}};\n',
      [
        'std::sync::atomic {AtomicBool, Ordering}',
        'std::sync {mpsc}',
        'std {thread}',
        'crate::flags {HiArgs, SearchMode}',
        'crate::haystack {haystack, Haystack}',
      ],
    ],
    [
      "rust use tree longer than a line's shown text (ripgrep's lib.rs re-exports)",
      'lib.rs',
      'pub use crate::{\n    lines::{LineIter, LineStep},\n    searcher::{\n        BinaryDetection, ConfigError, Encoding, MmapChoice, Searcher,\n        SearcherBuilder,\n    },\n    sink::{\n        Sink, SinkContext, SinkContextKind, SinkError, SinkFinish, SinkMatch,\n        sinks,\n    },\n};\n',
      [
        'export crate::lines {LineIter, LineStep}',
        'export crate::searcher {BinaryDetection, ConfigError, Encoding, MmapChoice, Searcher, SearcherBuilder}',
        'export crate::sink {Sink, SinkContext, SinkContextKind, SinkError, SinkFinish, SinkMatch, sinks}',
      ],
    ],
    [
      'java static and wildcard',
      'A.java',
      'import static a.b.C.m;\nimport a.b.*;\nclass A {}\n',
      ['a.b.C.m {m}', 'a.b.* {*}'],
    ],
    [
      'dart prefix and show',
      'a.dart',
      "import 'package:a/b.dart' as p show x, y;\nexport 'c.dart';\n",
      ['package:a/b.dart as p {x, y}', 'export c.dart'],
    ],
  ])('%s', (_name, file, source, expected) => {
    expect(imports(file, source)).toEqual(expected);
  });
});

describe('exports as written', () => {
  test.each([
    ['default identifier', 'export default ky;\n', [{ name: 'ky', alias: 'default', line: 1 }]],
    ['default class', 'export default class K {}\n', [{ name: 'K', alias: 'default', line: 1 }]],
    [
      'anonymous default function',
      'export default function () {}\n',
      [{ name: 'function', alias: 'default', line: 1 }],
    ],
    [
      'local list with alias',
      'const a = 1;\nexport {a as b, a};\n',
      [
        { name: 'a', alias: 'b', line: 2 },
        { name: 'a', line: 2 },
      ],
    ],
    [
      'inline type in a local list',
      'interface A {}\nconst b = 1;\nexport {type A, b};\n',
      [
        { name: 'A', typeOnly: true, line: 3 },
        { name: 'b', line: 3 },
      ],
    ],
    [
      'type-only local list',
      'interface A {}\ninterface C {}\nexport type {A, C as D};\n',
      [
        { name: 'A', typeOnly: true, line: 3 },
        { name: 'C', alias: 'D', typeOnly: true, line: 3 },
      ],
    ],
    ['a type alias declaration is no export list', 'export type T = string;\n', undefined],
  ])('%s', (_name, source, expected) => {
    expect(tagsOf('m.ts', source).exports).toEqual(expected);
  });

  test('names inside import and export statements are not counted as uses', () => {
    const tags = tagsOf(
      'm.ts',
      "import {used, unused} from './x';\nexport {alsoUnused} from './y';\nused();\n",
    );
    expect(referenceCount(tags, 'used')).toBe(1);
    expect(referenceCount(tags, 'unused')).toBe(0);
    expect(referenceCount(tags, 'alsoUnused')).toBe(0);
    expect(tags.references).toBe('used 1');
  });
});
