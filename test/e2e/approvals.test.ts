// Chat approvals answered always, no with feedback, and edit in $EDITOR: keel chat in process
// (test/support/cli-in-process.ts), typed into step by step; the built binary once, for "always".
import { access, chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChatStep, converse, questions } from '../support/chat.js';
import { runKeel } from '../support/cli.js';
import { runCli } from '../support/cli-in-process.js';
import { toolMessages, useE2E } from '../support/e2e.js';

const { server, workspace } = useE2E();

const run = (command: string) => ({ toolCalls: [{ name: 'execute_command', args: { command } }] });

/** `keel chat --mode interactive` against url in ws, in process, typed into as the steps say. */
const chat = (url: string, ws: string, steps: ChatStep[], env: Record<string, string> = {}) =>
  runCli(['chat', '--mode', 'interactive', '--base-url', url, '--cwd', ws], { env, steps });

describe('chat approvals', () => {
  it('runs the same command again without asking once the user answered "always"', async () => {
    const ws = await workspace({});
    const s = await server([
      run('touch made.txt'),
      { text: 'made it' },
      run('touch made.txt'),
      { text: 'again' },
    ]);
    const r = await runKeel(['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws], {
      openStdin: true,
      onSpawn: converse([
        { send: 'make a file\n' },
        { until: (o) => questions(o) === 1, send: 'a\n' },
        { until: (o) => o.stdout.includes('made it'), send: 'make it again\n' },
        { until: (o) => o.stdout.includes('again'), end: true },
      ]),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('a: always this session (this exact command)');
    expect(questions(r)).toBe(1);
    expect(toolMessages(s.requests[3]!.body).at(-1)).toMatch(/^exit code: 0/);
  });

  it('sends the feedback of a "no" to the model in the tool result', async () => {
    const ws = await workspace({});
    const s = await server([run('touch made.txt'), { text: 'understood' }]);
    const r = await chat(s.ollamaUrl, ws, [
      { send: 'make a file\n' },
      { until: (o) => questions(o) === 1, send: 'n use make instead\n' },
      { until: (o) => o.stdout.includes('understood'), end: true },
    ]);
    expect(r.code).toBe(0);
    expect(toolMessages(s.requests[1]!.body).at(-1)).toBe(
      "Error: the user declined this execute_command call: use make instead\nHint: the user said no: follow what they said, and don't ask for the same call again.",
    );
    await expect(access(join(ws, 'made.txt'))).rejects.toThrow();
  });

  it('opens the command in $EDITOR on "e", and puts the edited command to the policy before it runs', async () => {
    const ws = await workspace({});
    const editorDir = await workspace({});
    const editor = join(editorDir, 'editor.sh');
    // Keeps what it was given, then saves a harmless command instead.
    await writeFile(
      editor,
      `#!/bin/sh\ncp "$1" '${join(editorDir, 'seen')}'\necho 'touch edited.txt' > "$1"\n`,
    );
    await chmod(editor, 0o755);
    const s = await server([run('touch made.txt'), { text: 'done' }]);
    const r = await chat(
      s.ollamaUrl,
      ws,
      [
        { send: 'make a file\n' },
        { until: (o) => questions(o) === 1, send: 'e\n' },
        // The edited command is not read-only either: the policy asks about it in turn.
        { until: (o) => questions(o) === 2, send: 'y\n' },
        { until: (o) => o.stdout.includes('done'), end: true },
      ],
      { EDITOR: editor },
    );
    expect(r.code).toBe(0);
    expect(await readFile(join(editorDir, 'seen'), 'utf8')).toBe('touch made.txt');
    expect(r.stderr).toContain('allow execute_command: touch edited.txt? [y/a/A/e/N]');
    expect(await readFile(join(ws, 'edited.txt'), 'utf8')).toBe('');
    await expect(access(join(ws, 'made.txt'))).rejects.toThrow();
    expect(toolMessages(s.requests[1]!.body).at(-1)).toMatch(
      /^\[the user edited the command before it ran; it ran as: touch edited\.txt\]\nexit code: 0/,
    );
  });

  it('refuses an edited command the policy denies, without asking again', async () => {
    const ws = await workspace({});
    const editorDir = await workspace({});
    const editor = join(editorDir, 'editor.sh');
    await writeFile(editor, `#!/bin/sh\necho 'rm -rf ~' > "$1"\n`);
    await chmod(editor, 0o755);
    const s = await server([run('touch made.txt'), { text: 'ok' }]);
    const r = await chat(
      s.ollamaUrl,
      ws,
      [
        { send: 'make a file\n' },
        { until: (o) => questions(o) === 1, send: 'e\n' },
        { until: (o) => o.stdout.includes('ok'), end: true },
      ],
      { EDITOR: editor },
    );
    expect(r.code).toBe(0);
    expect(questions(r)).toBe(1);
    expect(toolMessages(s.requests[1]!.body).at(-1)).toMatch(/^Error: refused by policy: .*rm -rf ~/);
  });
});
