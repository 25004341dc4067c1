// The approval prompt: what it prints (sanitized, diffs coloured) and what each answer means.
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { type ApprovalRequest, createApprovalPrompt } from '../../src/ui/approval-prompt.js';
import { editText } from '../../src/ui/editor.js';
import { LineReader } from '../../src/ui/line-reader.js';
import { createStyle } from '../../src/ui/style.js';

let reader: LineReader | undefined;
const temps: string[] = [];
afterEach(async () => {
  reader?.close();
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** How many questions the output shows: each ends `/N] `. */
const questions = (text: string) => text.split('/N] ').length - 1;

function setup(options: { color?: boolean; editor?: string } = {}) {
  const input = new PassThrough();
  const stderr = new PassThrough({ encoding: 'utf8' });
  let written = '';
  stderr.on('data', (chunk: string) => (written += chunk));
  reader = new LineReader(input, stderr, false);
  const { editor } = options;
  const approve = createApprovalPrompt({
    reader,
    stderr,
    style: createStyle(options.color ?? false),
    ...(editor
      ? { edit: (text, file) => editText(text, { file, env: { ...process.env, EDITOR: editor } }) }
      : {}),
  });
  /** Answers each question, once it has been written, with the next line (null: end of input). */
  const answerWith = (...lines: (string | null)[]) => {
    let answered = 0;
    const onData = () => {
      while (answered < questions(written) && answered < lines.length) {
        const line = lines[answered++];
        if (line === null || line === undefined) input.end();
        else input.write(`${line}\n`);
      }
      if (answered >= lines.length) stderr.off('data', onData);
    };
    stderr.on('data', onData);
  };
  return { approve, answerWith, written: () => written };
}

/** A fake $EDITOR: a script that keeps what it was given in `seen` and saves `replacement`. */
async function fakeEditor(replacement: string): Promise<{ script: string; seen: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'keel-editor-'));
  temps.push(dir);
  const script = join(dir, 'editor.sh');
  const seen = join(dir, 'seen');
  const saved = join(dir, 'replacement');
  await writeFile(saved, replacement);
  await writeFile(script, `#!/bin/sh\ncp "$1" '${seen}'\ncat '${saved}' > "$1"\n`);
  await chmod(script, 0o755);
  return { script, seen };
}

const request: ApprovalRequest = {
  id: 'c1',
  tool: 'execute_command',
  reason: '`touch a` is not a read-only command',
  summary: 'touch a',
};

const full: ApprovalRequest = {
  ...request,
  always: 'this exact command',
  edit: { kind: 'command', text: 'touch a', file: 'command.sh' },
};

const signal = () => new AbortController().signal;

describe('approval prompt', () => {
  test.each([
    ['y', { decision: 'once' }],
    ['YES', { decision: 'once' }],
    [' yes ', { decision: 'once' }],
    ['a', { decision: 'always' }],
    ['always', { decision: 'always' }],
    ['n', { decision: 'deny' }],
    ['', { decision: 'deny' }],
    ['n use make instead', { decision: 'deny', feedback: 'use make instead' }],
    ['no: not in this repo', { decision: 'deny', feedback: 'not in this repo' }],
  ])('answer %j means %j', async (line, expected) => {
    const { approve, answerWith } = setup({ editor: 'true' });
    answerWith(line);
    expect(await approve(full, signal())).toEqual(expected);
  });

  test('an unknown answer asks again', async () => {
    const { approve, answerWith, written } = setup();
    answerWith('yeah', 'y');
    expect(await approve(request, signal())).toEqual({ decision: 'once' });
    expect(questions(written())).toBe(2);
    expect(written()).toContain('answer y or n\n');
  });

  test('"a" is no answer when the request cannot be remembered, nor "e" without an editor', async () => {
    const { approve, answerWith, written } = setup();
    answerWith('a', 'e', 'n');
    expect(await approve({ ...request, edit: full.edit }, signal())).toEqual({ decision: 'deny' });
    expect(questions(written())).toBe(3);
  });

  test('prints the reason, the choices and what "always" covers, and asks about the summary', async () => {
    const { approve, answerWith, written } = setup({ editor: 'true' });
    answerWith('n');
    await approve(full, signal());
    expect(written()).toBe(
      '? execute_command needs approval: `touch a` is not a read-only command\n' +
        '  y: yes, once · a: always this session (this exact command) · e: edit the command first · n: no (n <why> tells the model)\n' +
        'allow execute_command: touch a? [y/a/e/N] ',
    );
  });

  test('"A" keeps the answer for the workspace where offered; "a" stays this session; "A" is no answer elsewhere', async () => {
    const kept = { ...full, keep: true };
    const first = setup();
    first.answerWith('A');
    expect(await first.approve(kept, signal())).toEqual({ decision: 'keep' });
    expect(first.written()).toContain('· A: always in this workspace (/permissions lists them) ·');
    expect(first.written()).toContain('[y/a/A/N] ');
    reader?.close();
    const second = setup();
    second.answerWith('a');
    expect(await second.approve(kept, signal())).toEqual({ decision: 'always' });
    reader?.close();
    const third = setup();
    third.answerWith('A', 'n');
    expect(await third.approve(full, signal())).toEqual({ decision: 'deny' });
    expect(questions(third.written())).toBe(2);
  });

  test('"e" opens the command in $EDITOR and returns what was saved, without the trailing newline', async () => {
    const editor = await fakeEditor('touch edited.txt\n');
    const { approve, answerWith } = setup({ editor: editor.script });
    answerWith('e');
    expect(await approve(full, signal())).toEqual({ decision: 'edit', edited: 'touch edited.txt' });
    expect(await readFile(editor.seen, 'utf8')).toBe('touch a');
  });

  test('"e" on a file write edits the new content, kept byte for byte', async () => {
    const editor = await fakeEditor('mine\n');
    const { approve, answerWith } = setup({ editor: editor.script });
    answerWith('e');
    const write: ApprovalRequest = {
      ...request,
      tool: 'write_file',
      summary: 'write a.ts',
      edit: { kind: 'content', text: 'proposed\n', file: 'a.ts' },
    };
    expect(await approve(write, signal())).toEqual({ decision: 'edit', edited: 'mine\n' });
    expect(await readFile(editor.seen, 'utf8')).toBe('proposed\n');
  });

  test('an edit that changes nothing, or an editor that fails, asks again', async () => {
    const same = await fakeEditor('touch a\n');
    const first = setup({ editor: same.script });
    first.answerWith('e', 'y');
    expect(await first.approve(full, signal())).toEqual({ decision: 'once' });
    expect(first.written()).toContain('the command is unchanged');
    reader?.close();
    const failing = setup({ editor: 'false' });
    failing.answerWith('e', 'n');
    expect(await failing.approve(full, signal())).toEqual({ decision: 'deny' });
    expect(failing.written()).toMatch(/the editor \(false\) exited with code 1; nothing was changed/);
  });

  test('an emptied command is no', async () => {
    const editor = await fakeEditor('\n');
    const { approve, answerWith } = setup({ editor: editor.script });
    answerWith('e');
    expect(await approve(full, signal())).toEqual({ decision: 'deny' });
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
      signal(),
    );
    expect(written()).toBe(
      '? execute_command needs approval: r\\x1b[2K\n' +
        '  $ echo safe\\rrm -rf ~\\x1b]52;c;eA==\\x07\n' +
        '  y: yes, once · n: no (n <why> tells the model)\n' +
        'allow execute_command: echo safe\\r\\u202erm -rf ~? [y/N] ',
    );
  });

  test('shows a whole diff, coloured by line: + green, - red, @@ cyan', async () => {
    const { approve, answerWith, written } = setup({ color: true });
    answerWith('y');
    const diff = ['@@ -1,30 +1,30 @@', ...Array.from({ length: 30 }, (_, i) => `-old ${i}\n+new ${i}`)].join(
      '\n',
    );
    await approve(
      {
        id: 'c2',
        tool: 'write_file',
        reason: 'writes a file',
        summary: 'a.txt',
        preview: { diff: `${diff}\n-bad\x1b[8m\n same\n`, writes: ['a.txt'] },
      },
      signal(),
    );
    const shown = written();
    expect(shown).toContain('  \x1b[36m@@ -1,30 +1,30 @@\x1b[39m\n');
    for (let i = 0; i < 30; i++) {
      expect(shown).toContain(`  \x1b[31m-old ${i}\x1b[39m\n  \x1b[32m+new ${i}\x1b[39m\n`);
    }
    expect(shown).toContain('  \x1b[31m-bad\\x1b[8m\x1b[39m\n   same\n  writes: a.txt\n');
  });

  test('Ctrl-C (the signal aborting) while the question waits answers no and ends the line', async () => {
    const { approve, written } = setup();
    const controller = new AbortController();
    const answer = approve(request, controller.signal);
    controller.abort();
    expect(await answer).toEqual({ decision: 'deny' });
    expect(written()).toMatch(/\[y\/N\] \n$/);
  });

  test('end of input answers no', async () => {
    const { approve, answerWith } = setup();
    answerWith(null);
    expect(await approve(request, signal())).toEqual({ decision: 'deny' });
  });
});
