// What the chat shows the user of their own `!command`: what it printed, from the result the model reads.
import { describe, expect, it } from 'vitest';
import { commandPrinted, forTheModel } from '../../src/cli/chat-shell.js';
import type { ToolResult } from '../../src/tools/tool.js';

const result = (output: string, success = true): ToolResult => ({
  success,
  output,
  truncated: false,
  metadata: {},
});

describe('commandPrinted', () => {
  it.each([
    ['stdout alone, unlabelled', 'exit code: 0\nstdout:\na.txt\nb.txt\n', 'a.txt\nb.txt'],
    [
      'stdout and stderr, labelled',
      'exit code: 0\nstdout:\nok\nstderr:\nwarning: x',
      'stdout:\nok\nstderr:\nwarning: x',
    ],
    ['stderr alone, labelled', 'exit code: 1\nstderr:\nnot found', 'stderr:\nnot found'],
    ['nothing printed', 'exit code: 0', ''],
  ])('%s', (_, output, shown) => {
    expect(commandPrinted(result(output))).toBe(shown);
  });
});

describe('forTheModel', () => {
  const running = new AbortController().signal;
  it.each([
    [
      'its output when it ran',
      result('exit code: 0\nstdout:\nok'),
      running,
      ['I ran `make` myself:\nexit code: 0\nstdout:\nok'],
    ],
    [
      'that it failed, with what it printed',
      { ...result('exit code: 2\nstderr:\nno rule', false), error: 'exited with code 2' },
      running,
      ['I ran `make` myself:\nexited with code 2\nexit code: 2\nstderr:\nno rule'],
    ],
    [
      'that the policy refused it',
      { ...result('', false), error: 'refused by policy: sudo is never run', metadata: { policy: 'deny' } },
      running,
      ['I tried to run `make` myself; refused by policy: sudo is never run'],
    ],
    [
      'nothing when the user declined it',
      {
        ...result('', false),
        error: 'the user declined this execute_command call: later',
        metadata: { policy: 'declined' },
      },
      running,
      [],
    ],
    [
      'nothing when the user interrupted its approval',
      { ...result('', false), error: 'interrupted while waiting for approval; the call did not run' },
      AbortSignal.abort(),
      [],
    ],
  ])('tells %s', (_, r, signal, told) => {
    expect(forTheModel('make', r as ToolResult, signal)).toEqual(told);
  });
});
