// How a tool call's line/column or occurrence becomes a binding's position, and which errors count as new.
import { describe, expect, test } from 'vitest';
import { bindingAt } from '../../../src/code/language/position.js';
import type { Diagnostic } from '../../../src/code/language/service.js';
import { introducedErrors } from '../../../src/tools/diagnostics-diff.js';

const text =
  'const total = 1;\nfunction f(total: number) {\n  return total + subtotal;\n}\nclass C { #total = 2 }\n';

describe('bindingAt', () => {
  test.each([
    ['the first occurrence by default', {}, { line: 1, column: 7 }],
    ['the nth occurrence', { occurrence: 3 }, { line: 3, column: 10 }],
    ['the name on a line', { line: 2 }, { line: 2, column: 12 }],
    ['a column inside the name', { line: 3, column: 12 }, { line: 3, column: 10 }],
    ['the name after a column on its line', { line: 2, column: 1 }, { line: 2, column: 12 }],
    ['a private name written without #', { line: 5 }, { line: 5, column: 12 }],
  ])('%s', (_, at, expected) => {
    expect(bindingAt(text, 'total', at)).toMatchObject(expected);
  });

  test.each([
    ['an occurrence past the last', { occurrence: 9 }, 'total occurs 4 times in the file, not 9'],
    ['a line without the name', { line: 4 }, 'total is not on line 4'],
    ['a line past the end', { line: 99 }, 'line 99 is past the end (6 lines)'],
  ])('%s is an error', (_, at, error) => {
    expect(bindingAt(text, 'total', at)).toEqual({ error });
  });

  test('a longer identifier containing the name is not an occurrence', () => {
    expect(bindingAt('subtotal + total', 'total', {})).toMatchObject({ line: 1, column: 12 });
  });
});

const d = (message: string, line = 1, severity: Diagnostic['severity'] = 'error'): Diagnostic => ({
  path: 'a.ts',
  line,
  column: 1,
  severity,
  code: 'TS2322',
  message,
});

describe('introducedErrors', () => {
  test.each([
    ['an error that moved lines is not new', [d('x', 1)], [d('x', 5)], []],
    ['a second copy of an old error is new', [d('x')], [d('x'), d('x', 2)], [d('x', 2)]],
    ['a warning is never reported', [], [d('w', 1, 'warning')], []],
    ['a fixed error is not reported', [d('x')], [], []],
  ])('%s', (_, before, after, expected) => {
    expect(introducedErrors(before, after)).toEqual(expected);
  });

  test("a rename's old error naming the symbol is the same error under the new name", () => {
    const renamed = { from: 'greet', to: 'welcome' };
    expect(introducedErrors([d("'greet' is unused")], [d("'welcome' is unused")], renamed)).toEqual([]);
  });
});
