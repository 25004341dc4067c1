// What the chat shows the user of their own `!command`: what it printed, from the result the model reads.
import { describe, expect, it } from 'vitest';
import { commandPrinted } from '../../src/cli/chat-shell.js';
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
