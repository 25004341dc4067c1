// How a program's arguments split into options, values and operands (options.ts), and which values the argument
// rules call paths, writes and text (arguments.ts), as tables.
import { describe, expect, test } from 'vitest';
import {
  ARGUMENT_RULES,
  type ArgumentRules,
  argumentRulesOf,
} from '../../../src/safety/command/argument-rules.js';
import { atFile, readArguments } from '../../../src/safety/command/arguments.js';
import { type OptionSyntax, parseOptions } from '../../../src/safety/command/options.js';
import type { Word } from '../../../src/safety/command/paths.js';

const words = (line: string): Word[] =>
  line
    .split(' ')
    .filter((t) => t !== '')
    .map((text) => ({ text, literal: true, glob: false }));

/** `name=value` for each option with a value, then `| operands`. */
function parsed(line: string, syntax: OptionSyntax): string {
  const args = line.split(' ').filter((t) => t !== '');
  const { options, operands } = parseOptions(args, syntax);
  const values = options.filter((o) => o.value !== undefined).map((o) => `${o.name}=${o.value}`);
  return [...values, '|', ...operands.map((i) => args[i])].join(' ');
}

describe('parseOptions', () => {
  const getopt: OptionSyntax = { valued: ['-o', '--output', '-t'], abbreviated: ['--output'] };
  test.each([
    ['-o x a', '-o=x | a'],
    ['-ox a', '-o=x | a'],
    ['-o../x a', '-o=../x | a'],
    ['-no../x a', '-o=../x | a'],
    ['-vt dir a', '-t=dir | a'],
    ['--output x a', '--output=x | a'],
    ['--output=x a', '--output=x | a'],
    ['--outp x a', '--output=x | a'],
    ['--ou=x a', '--output=x | a'],
    ['a -- -o x', '| a -o x'],
    ['-n - a', '| - a'],
  ])('getopt: %s → %s', (line, expected) => {
    expect(parsed(line, getopt)).toBe(expected);
  });

  test.each<[string, OptionSyntax, string]>([
    ['-o../x a.c', { style: 'prefix', valued: ['-o', '-I', '-isystem'] }, '-o=../x | a.c'],
    ['-isystem/x -I inc a.c', { style: 'prefix', valued: ['-I', '-isystem'] }, '-isystem=/x -I=inc | a.c'],
    ['-o=../x ./cmd', { style: 'prefix', valued: ['-o'] }, '-o=../x | ./cmd'],
    ['. -fprint out -name x', { style: 'word', valued: ['-fprint', '-name'] }, '-fprint=out -name=x | .'],
    ['-fprintx out', { style: 'word', valued: ['-fprint'] }, '| out'],
    ['cfC a.tar dir x', { oldStyle: true, valued: ['-f', '-C'] }, '-f=a.tar -C=dir | x'],
    ['-i.bak s/a/b/ f', { optional: ['-i'] }, '-i=.bak | s/a/b/ f'],
    ['-ie s/a/b/ f', { optional: ['-i'], valued: ['-e'] }, '-i=e | s/a/b/ f'],
    ['-Command x y', { valued: ['-Command'] }, '-Command=x | y'],
  ])('%s (%j) → %s', (line, syntax, expected) => {
    expect(parsed(line, syntax)).toBe(expected);
  });
});

describe('readArguments', () => {
  /** `kind:value` for each value, then `| operands`. */
  function read(program: string, line: string): string {
    const found = readArguments(words(line), argumentRulesOf(program) ?? {});
    return [
      ...found.values.map((v) => `${v.kind ?? '?'}:${v.word.text}`),
      '|',
      ...found.operands.map((w) => w.text),
    ].join(' ');
  }

  test.each([
    ['sort', '-o../x -t / f', 'write:../x text:/ | f'],
    ['cp', '-vt.. a b', 'write:.. | a b'],
    ['rg', '--ignore-file ../x pat', 'path:../x | pat'],
    ['grep', '-rf ../x src', 'path:../x | src'],
    ['tar', 'xfC a.tar .git', 'path:a.tar path:.git |'],
    ['curl', '-sSo../x -d @f url', 'write:../x atFile:@f | url'],
    ['gcc-12', '-o../x -DX=/y a.c', 'write:../x text:X=/y | a.c'],
    ['git', '-C sub commit -F../msg -m x', 'path:sub path:../msg text:x |'],
    ['git', 'archive -o../x.tar HEAD', 'write:../x.tar | HEAD'],
    ['git', 'ls-files -o src', '| src'],
    ['find', '. -fprint out -name x', 'write:out text:x | .'],
  ])('%s %s → %s', (program, line, expected) => {
    expect(read(program, line)).toBe(expected);
  });

  test('every rule is reachable by its program name and lists only option words', () => {
    const options = (r: ArgumentRules): string[] => [
      ...(r.text ?? []),
      ...(r.writes ?? []),
      ...(r.paths ?? []),
      ...(r.atFiles ?? []),
      ...(r.optional ?? []),
      ...(r.patternOptions ?? []),
      ...Object.values(r.subcommands ?? {}).flatMap(options),
      ...(r.globals ? options(r.globals) : []),
    ];
    for (const [name, rules] of Object.entries(ARGUMENT_RULES)) {
      expect(argumentRulesOf(name)).toBe(rules);
      for (const option of options(rules))
        expect(option, name).toMatch(/^--?[A-Za-z0-9][\w-]*[A-Za-z0-9]$|^-[A-Za-z]$/);
    }
  });
});

describe('atFile', () => {
  test.each([
    ['@file', 'file'],
    ['name=@../x;type=text/plain', '../x'],
    ['name=<../x', '../x'],
    ['field@../x', '../x'],
    ['a=b', undefined],
    ['{"a":1}', undefined],
  ])('%s → %s', (value, file) => {
    expect(atFile(value)).toBe(file);
  });
});
