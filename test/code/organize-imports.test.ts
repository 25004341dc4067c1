// organize_imports' TS/JS and Dart organisers on small files: a side-effect import keeps its place among the
// imports (it runs its module there), groups apart by a blank line or a comment are organised apart (as TypeScript's
// organizeImports keeps them), and Dart's duplicates and unused imports go where the names tell.
import { describe, expect, test } from 'vitest';
import { languageOf } from '../../src/code/languages.js';
import { type DartLibrary, organizeDartImports } from '../../src/code/organize-dart.js';
import { organizeImports } from '../../src/code/organize-imports.js';

const ts = (source: string) => organizeImports(languageOf('a.ts')!, source);

describe('TS/JS', () => {
  test.each<[string, string[], string[]]>([
    [
      // ws-org: the polyfill ran second, before ./lib/ab; sorted across, it would run last.
      'a side-effect import keeps its place; the imports on each side are organised apart',
      [
        "import { z } from './lib/z'",
        "import './polyfill'",
        "import { a, b } from './lib/ab'",
        "import * as fs from 'node:fs'",
        "import { a } from './lib/ab'",
        '',
        'export const v = z + a',
      ],
      [
        "import { z } from './lib/z'",
        "import './polyfill'",
        "import { a } from './lib/ab'",
        '',
        'export const v = z + a',
      ],
    ],
    [
      'side-effect imports keep their order; a second import of the same module (it runs once) goes',
      ["import './b-setup'", "import './a-setup'", "import './b-setup'", "import { x } from './x'", 'x()'],
      ["import './b-setup'", "import './a-setup'", "import { x } from './x'", 'x()'],
    ],
    [
      // zustand's devtools.ts: the Window augmentation of '@redux-devtools/extension' types its options.
      'an import naming nothing (`import type {} from`) is kept where it is, as TypeScript keeps it',
      [
        "import type {} from '@redux-devtools/extension'",
        '',
        "import type { StoreApi, Unused } from './vanilla'",
        "import {} from './setup'",
        'export type S = StoreApi',
      ],
      [
        "import type {} from '@redux-devtools/extension'",
        '',
        "import type { StoreApi } from './vanilla'",
        "import {} from './setup'",
        'export type S = StoreApi',
      ],
    ],
    [
      'groups apart by a blank line are sorted apart',
      [
        "import { b } from 'b'",
        "import { a } from 'a'",
        '',
        "import { d } from './d'",
        "import { c } from './c'",
        '',
        'a(b, c, d)',
      ],
      [
        "import { a } from 'a'",
        "import { b } from 'b'",
        '',
        "import { c } from './c'",
        "import { d } from './d'",
        '',
        'a(b, c, d)',
      ],
    ],
    [
      'a comment line starts a group and stays above it',
      ["import { b } from './b'", '// must come after b', "import { a } from './a'", 'a(b)'],
      ["import { b } from './b'", '// must come after b', "import { a } from './a'", 'a(b)'],
    ],
    [
      'a group left empty goes with a blank line',
      ["import { a } from 'a'", '', "import { unused } from './u'", '', 'a()'],
      ["import { a } from 'a'", '', 'a()'],
    ],
    [
      'the only group left empty at the start takes the blank line after it',
      ["import { unused } from './u'", '', 'f()'],
      ['f()'],
    ],
    [
      'one group: sorted, merged and trimmed as before',
      [
        "import { z, y } from './z.js'",
        "import fs from 'node:fs'",
        "import { x } from './z.js'",
        '',
        'f(x, y, fs)',
      ],
      ["import fs from 'node:fs'", "import { x, y } from './z.js'", '', 'f(x, y, fs)'],
    ],
  ])('%s', (_, before, after) => {
    expect(ts(before.join('\n'))).toBe(after.join('\n'));
  });
});

describe('Dart', () => {
  const counter: DartLibrary = { file: 'lib/src/counter.dart', names: new Set(['Counter', 'total']) };
  const libraries = new Map<string, DartLibrary>([
    ['dart:math', { unknown: "the SDK's" }],
    ['dart:io', { unknown: "the SDK's" }],
    ['package:demo/src/counter.dart', counter],
    ['counter.dart', counter],
    ['format.dart', { file: 'lib/src/format.dart', names: new Set(['label', 'Style']) }],
    ['words.dart', { file: 'lib/src/words.dart', unknown: 'its extensions are used without their names' }],
    ['package:http/http.dart', { unknown: "another package's" }],
  ]);
  const dart = (source: string[]) => organizeDartImports(languageOf('a.dart')!, source.join('\n'), libraries);

  test.each<[string, string[], string[], string[]]>([
    [
      // ws-dart's view.dart: counter.dart from lib/src is package:demo/src/counter.dart.
      'the same file by two URIs, and an exact duplicate, are dropped; the first stays',
      [
        "import 'dart:math';",
        "import 'package:demo/src/counter.dart';",
        "import 'counter.dart';",
        "import 'dart:math';",
        '',
        'void f() => print(max(1, total([Counter()])));',
      ],
      [
        "import 'dart:math';",
        "import 'package:demo/src/counter.dart';",
        '',
        'void f() => print(max(1, total([Counter()])));',
      ],
      ["'counter.dart': the same file as 'package:demo/src/counter.dart'", "'dart:math': imported twice"],
    ],
    [
      'a project library none of whose names appears is dropped; a name in a string is no use',
      [
        "import 'format.dart';",
        "import 'counter.dart';",
        '',
        "void f() { final text = 'Style label'; print(total([])); }",
      ],
      ["import 'counter.dart';", '', "void f() { final text = 'Style label'; print(total([])); }"],
      ["'format.dart': unused (by name: none of the names it gives appears)"],
    ],
    [
      "by name, a local of one of a library's names keeps it: it may be a use",
      ["import 'format.dart';", '', 'void f() { final label = 1; }'],
      ["import 'format.dart';", '', 'void f() { final label = 1; }'],
      [],
    ],
    [
      'a name in a dartdoc reference is a use',
      ["import 'format.dart';", '', '/// Uses [Style].', 'void f() {}'],
      ["import 'format.dart';", '', '/// Uses [Style].', 'void f() {}'],
      [],
    ],
    [
      "the SDK's, another package's and a library with extensions are kept: their names are not known here",
      ["import 'words.dart';", "import 'package:http/http.dart';", "import 'dart:io';", '', 'void f() {}'],
      ["import 'dart:io';", "import 'package:http/http.dart';", "import 'words.dart';", '', 'void f() {}'],
      [],
    ],
    [
      'an unused prefix, and show names never used, go',
      ["import 'dart:math' as m;", "import 'format.dart' show label, Style;", '', 'Style s = Style();'],
      ["import 'format.dart' show Style;", '', 'Style s = Style();'],
      ["'dart:math': its prefix m is not used"],
    ],
  ])('%s', (_, before, after, dropped) => {
    const result = dart(before);
    expect(result.text).toBe(after.join('\n'));
    expect(result.dropped).toEqual(dropped);
  });

  test('says which imports were checked by name and which could not be', () => {
    const result = dart([
      "import 'counter.dart';",
      "import 'dart:io';",
      "import 'words.dart';",
      '',
      'void f() => total([]);',
    ]);
    expect(result.checked).toEqual(["'counter.dart'"]);
    expect(result.unchecked).toEqual([
      { uri: 'dart:io', why: "the SDK's" },
      { uri: 'words.dart', why: 'its extensions are used without their names' },
    ]);
  });
});
