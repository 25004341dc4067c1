// End to end, in a chat on piped input against the scripted model server: /undo takes back the last turn's files
// and its messages (the next request no longer holds them; a /save export stays), /rewind goes back to before an
// earlier message and `keel undo` names the session's turn, and /model <provider>/<model> carries the
// conversation over to another wire format.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';
import { hasTmux, startTerminal } from '../support/tmux.js';

const { server, workspace, track } = useE2E();

/** The contents of a chat request's messages (Ollama and OpenAI formats alike), as one text. */
const sent = (body: { messages: { content?: unknown }[] }) =>
  body.messages.map((m) => String(m.content ?? '')).join('\n');

const writes = (content: string) => ({
  toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content } }],
});

describe('undo and rewind in step with the conversation', () => {
  it('/undo restores the last turn and removes it from what the model reads; a /save export is kept', async () => {
    const ws = await workspace({ 'a.txt': 'zero\n' });
    const s = await server([
      writes('one\n'),
      { text: 'wrote one' },
      writes('two\n'),
      { text: 'wrote two' },
      { text: 'noted' },
    ]);
    const r = await runKeel(['chat', '--mode', 'restricted', '--base-url', s.ollamaUrl, '--cwd', ws], {
      checkpoints: true,
      input: `write one\nwrite two\n/save ${join(ws, 'export.md')}\n/undo\nwhat is in a.txt\nexit\n`,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('undid the turn "write two"');
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
    expect(await fs.readFile(join(ws, 'export.md'), 'utf8')).toContain('write two');
    const last = sent(s.requests[4]!.body);
    expect(last).toContain('write one');
    expect(last).toContain('what is in a.txt');
    expect(last).not.toContain('write two');
    expect(last).not.toContain('wrote two');
  });

  it('/rewind lists the messages and goes back to before one; keel undo later names the turn it takes back', async () => {
    const ws = await workspace({ 'a.txt': 'zero\n' });
    const state = await workspace();
    const s = await server([
      writes('one\n'),
      { text: 'wrote one' },
      writes('two\n'),
      { text: 'wrote two' },
      { text: 'three' },
    ]);
    const env = { XDG_STATE_HOME: state, XDG_DATA_HOME: join(state, 'data') };
    const r = await runKeel(['chat', '--mode', 'restricted', '--base-url', s.ollamaUrl, '--cwd', ws], {
      env,
      checkpoints: true,
      input: 'write one\nwrite two\n/rewind\n/rewind 2\nwrite three\nexit\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('your messages (newest last):\n  1  write one\n  2  write two\n');
    expect(r.stderr).toContain('rewound to before message 2 (files unchanged)');
    expect(r.stderr).toContain('your message was:\nwrite two\n');
    const last = sent(s.requests[4]!.body);
    expect(last).toContain('wrote one');
    expect(last).not.toContain('write two');
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
    const undo = await runKeel(['undo', '--cwd', ws], { env, checkpoints: true });
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/^undoing session \S+, turn "write two"\n/);
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
  });
});

describe('/model <provider>/<model>', () => {
  it('switches from ollama to openai-compatible mid-session, the new request carrying the history', async () => {
    const ws = await workspace({ 'a.txt': 'zero\n' });
    const s = await server([writes('one\n'), { text: 'wrote one' }, { text: 'you wrote one' }]);
    const r = await runKeel(['chat', '--mode', 'restricted', '--base-url', s.ollamaUrl, '--cwd', ws], {
      env: { OPENAI_BASE_URL: s.openaiUrl, OPENAI_API_KEY: 'sk-scripted-test' },
      input: 'write one\n/model openai-compatible/test-model\nwhat did you write\nexit\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('model: openai-compatible/test-model');
    expect(s.rejections).toEqual([]);
    const [first, , switched] = s.requests;
    expect(first!.path).toBe('/api/chat');
    expect(switched!.path).toBe('/v1/chat/completions');
    expect(switched!.body.model).toBe('test-model');
    const history = sent(switched!.body);
    expect(history).toContain('write one');
    expect(history).toContain('wrote one');
    const call = switched!.body.messages.find((m: { tool_calls?: unknown[] }) => m.tool_calls)?.tool_calls[0];
    expect(call.id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(switched!.body.messages.find((m: { role: string }) => m.role === 'tool').tool_call_id).toBe(
      call.id,
    );
  });
});

describe('--provider with --continue', () => {
  it('continues an ollama session on openai-compatible, tool call ids converted', async () => {
    const ws = await workspace({ 'a.txt': 'zero\n' });
    const data = await workspace();
    const s = await server([writes('one\n'), { text: 'wrote one' }, { text: 'you wrote one' }]);
    const env = { XDG_DATA_HOME: data, OPENAI_BASE_URL: s.openaiUrl, OPENAI_API_KEY: 'sk-scripted-test' };
    const base = ['run', '--mode', 'restricted', '--cwd', ws];
    expect((await runKeel([...base, '--base-url', s.ollamaUrl, '-p', 'write one'], { env })).code).toBe(0);
    const r = await runKeel(
      [
        ...base,
        '--provider',
        'openai-compatible',
        '--model',
        'test-model',
        '--continue',
        '-p',
        'what did you write',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'conversation carried over from ollama to openai-compatible: 1 tool call id rewritten',
    );
    expect(s.rejections).toEqual([]);
    const continued = s.requests[2]!;
    expect(continued.path).toBe('/v1/chat/completions');
    expect(sent(continued.body)).toContain('wrote one');
    const call = continued.body.messages.find((m: { tool_calls?: unknown[] }) => m.tool_calls)?.tool_calls[0];
    expect(call.id).toMatch(/^[A-Za-z0-9]{9}$/);
  });
});

describe.skipIf(!hasTmux())('/rewind in a terminal', () => {
  it('Esc Esc at an empty prompt asks which message and how far, then puts that message back to edit', async () => {
    const s = await server([{ text: 'answer one' }, { text: 'answer two' }, { text: 'answer edited' }]);
    const ws = await workspace();
    const term = await startTerminal(['chat', '--base-url', s.ollamaUrl, '--cwd', ws], { cwd: ws });
    track(term.close);
    await term.waitFor('› ');
    await term.type('first');
    await term.keys('Enter');
    await term.waitFor('answer one');
    await term.type('second');
    await term.keys('Enter');
    await term.waitFor('answer two');
    await term.keys('Escape', 'Escape');
    await term.waitFor('go back to before which message?');
    expect(await term.screen()).toContain('  2  second');
    await term.type('2');
    await term.keys('Enter');
    await term.waitFor('the conversation and files (f)?');
    await term.type('c');
    await term.keys('Enter');
    await term.waitFor('› second');
    await term.type(' edited');
    await term.keys('Enter');
    await term.waitFor('answer edited');
    const messages = s.requests[2]!.body.messages as { role: string; content: string }[];
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'first',
      'second edited',
    ]);
    expect(messages.map((m) => m.content)).not.toContain('answer two');
  });
});
