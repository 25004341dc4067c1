// The light Headers behaves as fetch's Headers (undici's) does for what the providers and the AI SDK use of it.
import { describe, expect, it } from 'vitest';
import { type HeadersInput, LightHeaders } from '../../src/providers/http-headers.js';

type Step = (h: LightHeaders | Headers) => unknown;

// Each case runs on both classes; the light one must answer exactly as the real one.
const cases: [string, HeadersInput | undefined, Step][] = [
  ['a record, names lower-cased and sorted', { 'X-B': '2', 'content-Type': 'a/b', A: '1' }, (h) => [...h]],
  [
    'pairs, a repeated name joined by ", "',
    [
      ['Accept', 'x'],
      ['accept', 'y'],
      ['b', 'z'],
    ],
    (h) => [...h],
  ],
  [
    'get is case-insensitive; a missing name is null',
    { 'User-Agent': 'keel' },
    (h) => [h.get('user-agent'), h.get('USER-AGENT'), h.get('x')],
  ],
  [
    'set replaces every earlier value',
    [
      ['a', '1'],
      ['A', '2'],
    ],
    (h) => {
      h.set('a', '3');
      return [...h];
    },
  ],
  [
    'append adds to a name',
    { a: '1' },
    (h) => {
      h.append('A', '2');
      return h.get('a');
    },
  ],
  [
    'has and delete ignore case',
    { 'X-Key': 'v' },
    (h) => {
      const before = h.has('x-key');
      h.delete('X-KEY');
      return [before, h.has('x-key'), [...h]];
    },
  ],
  ['values are trimmed of surrounding whitespace', { a: '  spaced \t' }, (h) => h.get('a')],
  [
    'set-cookie is iterated one value at a time',
    [
      ['set-cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['a', 'x'],
    ],
    (h) => [...h],
  ],
  [
    'set-cookie joins for get and splits for getSetCookie',
    [
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ],
    (h) => [h.get('set-cookie'), h.getSetCookie()],
  ],
  ['keys and values follow the sorted order', { b: '2', a: '1' }, (h) => [[...h.keys()], [...h.values()]]],
  [
    'forEach passes value, then name',
    { b: '2', a: '1' },
    (h) => {
      const seen: string[] = [];
      h.forEach((v, k) => {
        seen.push(`${k}=${v}`);
      });
      return seen;
    },
  ],
  ['no init is empty', undefined, (h) => [...h]],
  [
    'an undefined record value is the string "undefined"',
    { a: undefined, b: '1' } as HeadersInput,
    (h) => [...h],
  ],
];

describe('LightHeaders answers as fetch Headers does', () => {
  it.each(cases)('%s', (_name, init, step) => {
    expect(step(new LightHeaders(init))).toEqual(
      step(new Headers(init as ConstructorParameters<typeof Headers>[0])),
    );
  });

  it('copies another Headers, light or real', () => {
    const real = new Headers({ b: '2', a: '1' });
    expect([...new LightHeaders(real)]).toEqual([...real]);
    expect([...new LightHeaders(new LightHeaders(real))]).toEqual([...real]);
    expect([
      ...new Headers(new LightHeaders(real) as unknown as ConstructorParameters<typeof Headers>[0]),
    ]).toEqual([...real]);
  });

  it.each([
    ['a name with a space', () => new LightHeaders({ 'bad name': 'x' })],
    ['a value with a newline', () => new LightHeaders({ a: 'x\ny' })],
    ['a pair of three', () => new LightHeaders([['a', 'b', 'c']])],
  ])('refuses %s with a TypeError', (_name, make) => {
    expect(make).toThrow(TypeError);
  });
});
