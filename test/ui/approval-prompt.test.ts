// The approval prompt: what it prints (sanitized, diffs coloured) and which answers approve.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { type ApprovalRequest, createApprovalPrompt } from '../../src/ui/approval-prompt.js';
import { LineReader } from '../../src/ui/line-reader.js';
import { createStyle } from '../../src/ui/style.js';

let reader: LineReader | undefined;
afterEach(() => reader?.close());

function setup(color = false) {
  const input = new PassThrough();
  const stderr = new PassThrough({ encoding: 'utf8' });
  let written = '';
  stderr.on('data', (chunk: string) => (written += chunk));
  reader = new LineReader(input, stderr, false);
  const approve = createApprovalPrompt({ reader, stderr, style: createStyle(color) });
  /** Answers the question once it has been written. */
  const answerWith = (line: string | null) => {
    const onData = () => {
      if (!written.includes('[y/N] ')) return;
      stderr.off('data', onData);
      if (line === null) input.end();
      else input.write(`${line}\n`);
    };
    stderr.on('data', onData);
  };
  return { approve, answerWith, written: () => written };
}

const request: ApprovalRequest = {
  id: 'c1',
  tool: 'execute_command',
  reason: '`touch a` is not a read-only command',
  summary: 'touch a',
};

describe('approval prompt', () => {
  test.each([
    ['y', true],
    ['YES', true],
    [' yes ', true],
    ['n', false],
    ['', false],
    ['yeah', false],
  ])('answer %j approves: %s', async (line, expected) => {
    const { approve, answerWith } = setup();
    answerWith(line);
    expect(await approve(request, new AbortController().signal)).toBe(expected);
  });

  test('prints the reason and asks about the summary', async () => {
    const { approve, answerWith, written } = setup();
    answerWith('n');
    await approve(request, new AbortController().signal);
    expect(written()).toBe(
      '? execute_command needs approval: `touch a` is not a read-only command\nallow execute_command: touch a? [y/N] ',
    );
  });

  test('escapes control characters and bidi overrides in everything it shows', async () => {
    const { approve, answerWith, written } = setup();
    answerWith('n');
    await approve(
      {
        id: 'c1',
        tool: 'execute_command',
        reason: 'r\x1b[2K',
        summary: 'echo safe\r\u202erm -rf ~',
        preview: { command: 'echo safe\rrm -rf ~\x1b]52;c;eA==\x07' },
      },
      new AbortController().signal,
    );
    expect(written()).toBe(
      '? execute_command needs approval: r\\x1b[2K\n' +
        '  $ echo safe\\rrm -rf ~\\x1b]52;c;eA==\\x07\n' +
        'allow execute_command: echo safe\\r\\u202erm -rf ~? [y/N] ',
    );
  });

  test('colours a diff by line: + green, - red, @@ cyan', async () => {
    const { approve, answerWith, written } = setup(true);
    answerWith('y');
    await approve(
      {
        id: 'c2',
        tool: 'write_file',
        reason: 'writes a file',
        summary: 'a.txt',
        preview: { diff: '@@ -1 +1 @@\n-old\x1b[8m\n+new\n same\n', writes: ['a.txt'] },
      },
      new AbortController().signal,
    );
    expect(written()).toBe(
      '\x1b[33m?\x1b[39m write_file needs approval: writes a file\n' +
        '  \x1b[36m@@ -1 +1 @@\x1b[39m\n' +
        '  \x1b[31m-old\\x1b[8m\x1b[39m\n' +
        '  \x1b[32m+new\x1b[39m\n' +
        '   same\n' +
        '  writes: a.txt\n' +
        'allow write_file: a.txt? [y/N] ',
    );
  });

  test('Ctrl-C (the signal aborting) while the question waits answers no and ends the line', async () => {
    const { approve, written } = setup();
    const controller = new AbortController();
    const answer = approve(request, controller.signal);
    controller.abort();
    expect(await answer).toBe(false);
    expect(written()).toMatch(/\[y\/N\] \n$/);
  });

  test('end of input answers no', async () => {
    const { approve, answerWith } = setup();
    answerWith(null);
    expect(await approve(request, new AbortController().signal)).toBe(false);
  });
});
