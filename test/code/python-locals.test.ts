// A Python function's local binding by name, as a table: which uses are the binding at a line (requests'
// Session.prepare_request `auth`), never the attribute, the keyword argument, a nested function's or a
// comprehension's own, a global or a class attribute.
import { describe, expect, test } from 'vitest';
import { pythonLocalAt } from '../../src/code/python-locals.js';

const SESSION = [
  'class Session:',
  '    auth: object',
  '',
  '    def prepare_request(self, request):',
  '        auth = request.auth',
  '        if self.trust_env and not auth and not self.auth:',
  '            auth = get_netrc_auth(url)',
  '        p = PreparedRequest()',
  '        p.prepare(auth=merge_setting(auth, self.auth))',
  '        return p',
  '',
  '    def send(self, auth=None):',
  '        def inner(auth):',
  '            return auth',
  '        return inner(auth) + [auth for auth in range(3)]',
  '',
  'def count():',
  '    global counter',
  '    counter = 1',
  '',
  'def outer():',
  '    n = 0',
  '    def inc():',
  '        nonlocal n',
  '        n += 1',
  '    for i, (a, b) in pairs:',
  '        n = a',
  '    return n, i',
  '',
].join('\n');

const lines = (source: string, name: string, line: number, column?: number) =>
  pythonLocalAt(source, name, line, column)?.occurrences.map((o) => `${o.line}:${o.column}`);

describe('pythonLocalAt', () => {
  const cases: [string, string, number, number | undefined, string[] | undefined][] = [
    [
      'a local variable: its uses in the function, never the attributes or the keyword argument',
      'auth',
      5,
      undefined,
      ['5:9', '6:35', '7:13', '9:38'],
    ],
    ['the same from a line using it', 'auth', 9, 38, ['5:9', '6:35', '7:13', '9:38']],
    ["a column on the line's attribute: no local", 'auth', 6, 51, undefined],
    [
      "a parameter: never a nested function's parameter or a comprehension's variable",
      'auth',
      12,
      undefined,
      ['12:20', '15:22'],
    ],
    ["a class's attribute: no local", 'auth', 2, undefined, undefined],
    ['a name declared global: no local', 'counter', 19, undefined, undefined],
    [
      'a nested function declaring it nonlocal shares it',
      'n',
      22,
      undefined,
      ['22:5', '24:18', '25:9', '27:9', '28:12'],
    ],
    ['a for loop binding a tuple', 'i', 28, undefined, ['26:9', '28:15']],
  ];
  test.each(cases)('%s', (_, name, line, column, expected) => {
    expect(lines(SESSION, name, line, column)).toEqual(expected);
  });

  test('names the function and its lines, and whether it is a parameter', () => {
    const local = pythonLocalAt(SESSION, 'auth', 5);
    expect(local?.scope).toMatchObject({ name: 'Session.prepare_request', line: 4, endLine: 10 });
    expect(local?.parameter).toBe(false);
    expect(pythonLocalAt(SESSION, 'auth', 12)?.parameter).toBe(true);
  });
});
