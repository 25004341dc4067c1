// The names a file exports, read from its text: which names a change took away, so their users get checked.
import { describe, expect, it } from 'vitest';
import { exportedNames, mayStillExport, removedExports } from '../../src/code/exported-names.js';

describe('exportedNames', () => {
  it.each([
    [
      'a.ts',
      'export function f() {}\nexport async function g() {}\nexport function* h() {}',
      ['f', 'g', 'h'],
    ],
    ['a.ts', 'export const a = 1, b = 2;\nexport let c;\nexport var d;', ['a', 'c', 'd']],
    ['a.ts', 'export class C {}\nexport abstract class D {}\nexport default class E {}', ['C', 'D', 'E']],
    [
      'a.ts',
      'export interface I {}\nexport type T = 1;\nexport enum En {}\nexport declare const x: 1;',
      ['I', 'T', 'En', 'x'],
    ],
    [
      'a.ts',
      "export { a, b as c, type d, default as e } from './x';\nexport type { T2 };",
      ['a', 'c', 'd', 'e', 'T2'],
    ],
    ['a.ts', 'export default function () {}\nexport { x as default };\nconst local = 1;', []],
    ['a.cjs', 'module.exports.run = run;\nexports.stop = () => {};', ['run', 'stop']],
    [
      'a.py',
      'def f():\n    def inner(): pass\nasync def g(): pass\nclass C:\n    x = 1\nLIMIT = 3\nname: str = "a"\nif x == 1: pass',
      ['f', 'g', 'C', 'LIMIT', 'name'],
    ],
    ['a.go', 'func Run() {}', []],
  ])('%s: %s', (path, text, names) => {
    expect([...exportedNames(path, text)]).toEqual(names);
  });
});

describe('removedExports', () => {
  it.each([
    ['a renamed function', 'export function a() {}', 'export function b() {}', ['a']],
    [
      'one made private',
      'export const a = 1;\nexport const b = 2;',
      'const a = 1;\nexport const b = 2;',
      ['a'],
    ],
    ['moved into a list', 'export function a() {}', 'function a() {}\nexport { a };', []],
    ['a body edited', 'def f():\n    return 1\n', 'def f():\n    return 2\n', []],
  ])('%s', (_, before, after, removed) => {
    expect(removedExports(before.includes('def ') ? 'm.py' : 'm.ts', before, after)).toEqual(removed);
  });
});

describe('mayStillExport: a name the text may still give importers, so an import of it is not reported broken', () => {
  it.each([
    // The name is gone: an import of it is broken.
    ['cells.py', 'def cell_width(text):\n    pass\n\ntotal = cell_len(x) + 1\n', 'cell_len', false],
    ['units.ts', 'export function feetToMetres() {}\nconst m = toMetres();\n', 'toMetres', false],
    // A docstring's example, a string in __all__ and a comment bind nothing (pydantic's fields.py).
    [
      'fields.py',
      '__all__ = \'Field\', \'computed_field\'\n\ndef computed_property():\n    """Usage:\n\n    from pydantic import BaseModel, computed_field\n    """\n\n# import computed_field\nx = \'\\nfrom a import computed_field\'\n',
      'computed_field',
      false,
    ],
    // Still given, by means exportedNames does not read.
    ['cells.py', 'from ._widths import cell_len\n', 'cell_len', true],
    ['cells.py', 'from ._widths import (\n    set_size,\n    cell_len\n)\n', 'cell_len', true],
    [
      'cells.py',
      'try:\n    from ._fast import cell_len\nexcept ImportError:\n    cell_len = None\n',
      'cell_len',
      true,
    ],
    ['cells.py', 'if TYPE_CHECKING:\n    def cell_len(t): ...\n', 'cell_len', true],
    ['cells.py', 'from ._widths import *\n', 'cell_len', true],
    ['cells.py', 'def __getattr__(name):\n    return 1\n', 'cell_len', true],
    ['cells.py', 'import cell_len\n', 'cell_len', true],
    ['cells.py', 'from x import y as cell_len\n', 'cell_len', true],
    ['units.ts', "export * from './metres';\n", 'toMetres', true],
    ['units.ts', "export { toMetres } from './metres';\n", 'toMetres', true],
    ['units.ts', 'function toMetres() {}\nexport { feet, toMetres };\n', 'toMetres', true],
    ['units.js', 'module.exports = { toMetres };\n', 'toMetres', true],
    ['units.js', 'exports.toMetres = () => 1;\n', 'toMetres', true],
    // Not read at all: never said to be gone.
    ['units.go', 'package units\n', 'ToMetres', true],
  ])('%s %j %s → %s', (path, text, name, expected) => {
    expect(mayStillExport(path, text, name)).toBe(expected);
  });
});
