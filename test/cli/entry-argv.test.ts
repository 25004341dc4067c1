// How `keel` is started, as subcommands: the message forms people use with other agents, and everything else unchanged.
import { describe, expect, it } from 'vitest';
import { contradictoryFlag, entryArgs } from '../../src/cli/entry-argv.js';
import { buildProgram } from '../../src/cli/program.js';

const program = buildProgram();
const tty = { stdin: true, stdout: true };
const piped = { stdin: false, stdout: false };
const pipedIn = { stdin: false, stdout: true };

describe('entryArgs', () => {
  it.each([
    // [args, terminal, expected]
    [['fix the failing test'], tty, ['chat', '--', 'fix the failing test']],
    [['fix', 'the', 'test'], tty, ['chat', '--', 'fix the test']],
    [['--model', 'm', 'explain this'], tty, ['chat', '--model', 'm', '--', 'explain this']],
    [['fix it', '--mode', 'auto'], tty, ['chat', '--mode', 'auto', '--', 'fix it']],
    [['fix it'], piped, ['run', '--prompt', 'fix it']],
    [['-p', 'fix it'], tty, ['run', '--prompt', 'fix it']],
    [['--print', 'fix it', '--output', 'json'], tty, ['run', '--output', 'json', '--prompt', 'fix it']],
    [['--print=fix it'], tty, ['run', '--prompt', 'fix it']],
    [['-p'], pipedIn, ['run']],
    [['-p', '--cwd', '/w', 'why'], pipedIn, ['run', '--cwd', '/w', '--prompt', 'why']],
    [[], pipedIn, ['run']],
    [['--continue'], tty, ['chat', '--continue']],
    [['--resume', 'abc'], tty, ['chat', '--resume', 'abc']],
    [['--continue', '-p', 'go on'], piped, ['run', '--continue', '--prompt', 'go on']],
    [['--', '-starts with a dash'], tty, ['chat', '--', '-starts with a dash']],
  ] as const)('%j at %j → %j', (args, terminal, expected) => {
    expect(entryArgs(args, program, terminal)).toEqual(expected);
  });

  it.each([
    [['run', '-p', 'x']],
    [['--cwd', '/w', 'run', '-p', 'x']],
    [['chat']],
    [['sessions', 'list']],
    [['help', 'run']],
    [['--help']],
    [['-V']],
    [['rnu']],
    [['chta']],
    [['sesions']],
    [[]],
  ] as const)('leaves %j to commander at a terminal', (args) => {
    expect(entryArgs(args, program, tty)).toEqual(args);
  });

  it('takes a single word that is no typo of a command as a message', () => {
    expect(entryArgs(['hello'], program, tty)).toEqual(['chat', '--', 'hello']);
    expect(entryArgs(['test'], program, tty)).toEqual(['chat', '--', 'test']);
  });
});

describe('contradictoryFlag', () => {
  it.each([
    [['run', '--sandbox', '--no-sandbox', '-p', 'x'], '--no-sandbox'],
    [['chat', '--no-session', '--session'], '--no-session'],
    [['run', '--no-sandbox', '-p', 'x'], undefined],
    [['run', '-p', 'x', '--', '--sandbox', '--no-sandbox'], undefined],
  ] as const)('%j → %s', (args, expected) => {
    expect(contradictoryFlag(args)).toBe(expected);
  });
});
