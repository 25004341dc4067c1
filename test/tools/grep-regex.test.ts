// grep's JS fallback reads rg's (Rust) regex syntax: the common forms translated, the rest refused with a reason.
import { describe, expect, test } from 'vitest';
import { jsRegex } from '../../src/tools/grep-regex.js';

const matches = (pattern: string, text: string, caseInsensitive = false): boolean => {
  const compiled = jsRegex(pattern, caseInsensitive);
  if ('error' in compiled) throw new Error(compiled.error);
  return compiled.regex.test(text);
};

describe('jsRegex: Rust forms that rg reads match as they do in rg', () => {
  const cases: [string, string, string, boolean][] = [
    ['(?i) at the start: the whole pattern ignores case', '(?i)httpexception', 'class HTTPException', true],
    ['several leading flags', '(?is)a.b', 'A\tB', true],
    ['(?-i) turns off case_insensitive', '(?-i)Hono', 'hono', false],
    ['Unicode classes need no flag', '\\p{Lu}{5,}_\\p{Lu}+', 'const HTTPS_ON', true],
    ['\\p{Lu} does not match lowercase', '^\\p{Lu}+$', 'abc', false],
    ['a one-letter class without braces', '^\\pL+$', 'héllo', true],
    ['a script without Script=', '\\p{Greek}', 'λόγος', true],
    ['a property in any case, with a colon', '\\p{sc:greek}', 'λ', true],
    ['negated \\P{…}', '^\\P{L}+$', '123', true],
    ['(?P<name>…) groups', '(?P<kind>export) class', 'export class A', true],
    ['(?<name>…) groups as they are', '(?<kind>export) class', 'export class A', true],
    ['POSIX classes', '^[[:digit:]]+[[:space:]][[:alpha:]_]+$', '42 snake_case', true],
    ['POSIX punctuation', '^[[:punct:]]+$', '!/[`{~', true],
    ['\\x{…} code points', '\\x{41}\\x{1F600}', 'A😀', true],
    ['\\A and \\z anchor the line', '\\Afoo\\z', 'foo', true],
    ['\\z is the end', 'foo\\z', 'foo bar', false],
    ['\\< and \\> are word edges', '\\<word\\>', 'a word here', true],
    ['\\> does not match inside a word', 'wor\\>', 'word', false],
    ['\\b{start}', '\\b{start}ord', 'word', false],
    ['a ] first in a class is itself', '[]a]+', ']]', true],
    ['escaped punctuation that JavaScript does not escape', 'a\\-b\\:c\\#d\\ e', 'a-b:c#d e', true],
    ['a lone } is itself', '^(import|})', '}', true],
    ['a repetition is kept', '^x{2,3}$', 'xxx', true],
    ['\\b and \\w as they are', '\\bHono\\b', 'new Hono()', true],
    ['case_insensitive', 'hono', 'HONO', true],
  ];
  test.each(cases)('%s', (_name, pattern, text, expected) => {
    expect(matches(pattern, text, pattern === 'hono')).toBe(expected);
  });
});

describe('jsRegex: what JavaScript cannot do is named, with what to write instead', () => {
  const cases: [string, RegExp][] = [
    ['a(?i)b', /inline flag after the start.*\(\?i\) at its very start/],
    ['(?i:ab)', /inline flag after the start/],
    ['(?x)a b', /inline flag x/],
    ['(?-u)\\w', /ASCII-only/],
    ['[a-z&&[^aeiou]]', /class inside a class|class operation/],
    ['[a-z--aeiou]', /class operation --/],
    ['[[:^digit:]]', /the class \[:\^digit:\]/],
    ['\\p{NotAProperty}', /Unicode class \\p\{NotAProperty\}.*\\p\{Lu\}/],
  ];
  test.each(cases)('%s', (pattern, message) => {
    const compiled = jsRegex(pattern, false);
    expect('error' in compiled && compiled.error).toMatch(/^grep is searching without ripgrep here/);
    expect('error' in compiled && compiled.error).toMatch(message);
  });

  test('a pattern broken in any syntax is an invalid regex', () => {
    const compiled = jsRegex('a(b', false);
    expect('error' in compiled && compiled.error).toMatch(/^invalid regex: /);
  });
});
