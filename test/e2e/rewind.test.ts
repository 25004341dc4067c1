// In a chat on piped input against the scripted model server (one start of the built binary): /undo takes back the
// last turn's files and its messages (the next request no longer holds them; a /save export stays), /rewind goes
// back to before an earlier message, /model <provider>/<model> carries the conversation over to another wire
// format, and `keel undo` afterwards names the session's turn. --provider with --continue in process; Esc Esc in tmux.
import { promises as fs } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type KeelRun, makeWorkspace, runKeel } from '../support/cli.js';
import { useE2E } from '../support/e2e.js';
import { type ModelServer, startModelServer } from '../support/model-server.js';
import { hasTmux, startTerminal } from '../support/tmux.js';
import { useUndoRuns } from '../support/undo-runs.js';

const { server, workspace, track } = useE2E();
const keel = useUndoRuns();

/** The contents of a chat request's messages (Ollama and OpenAI formats alike), as one text. */
const sent = (body: { messages: { content?: unknown }[] }) =>
  body.messages.map((m) => String(m.content ?? '')).join('\n');

const writes = (content: string) => ({
  toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content } }],
});

/** An OpenAI request's first tool call id, and the id its tool result answers. */
function callIds(body: {
  messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
}) {
  const call = body.messages.find((m) => m.tool_calls)?.tool_calls?.[0]?.id;
  return { call, result: body.messages.find((m) => m.role === 'tool')?.tool_call_id };
}

describe('a chat with /undo, /rewind and /model, then keel undo', () => {
  // One chat for all four: each test checks one behaviour on it (keel undo, which changes the files, last).
  let ws = '';
  let s: ModelServer;
  let chat: KeelRun;
  /** a.txt as each request found it (the chat's commands ran before it). */
  const seen: string[] = [];
  const reads = (reply: object) => async () => {
    seen.push(await fs.readFile(join(ws, 'a.txt'), 'utf8'));
    return reply;
  };
  beforeAll(async () => {
    ws = await makeWorkspace({ 'a.txt': 'zero\n' });
    s = await startModelServer({
      script: [
        writes('one\n'),
        { text: 'wrote one' },
        writes('two\n'),
        { text: 'wrote two' },
        reads(writes('three\n')),
        { text: 'wrote three' },
        reads({ text: 'you wrote one' }),
      ],
    });
    const input = [
      'write one',
      'write two',
      `/save ${join(ws, 'export.md')}`,
      '/undo',
      'write three',
      '/rewind',
      '/rewind 2',
      '/model openai-compatible/gpt-4o-mini',
      'what did you write',
      'exit',
    ];
    chat = await runKeel(['chat', '--mode', 'restricted', '--base-url', s.ollamaUrl, '--cwd', ws], {
      env: {
        XDG_STATE_HOME: keel.stateHome(),
        XDG_DATA_HOME: keel.dataHome(),
        OPENAI_BASE_URL: s.openaiUrl,
        OPENAI_API_KEY: 'sk-scripted-test',
      },
      checkpoints: true,
      input: `${input.join('\n')}\n`,
      timeoutMs: 60_000,
    });
    return async () => {
      await s.close();
      await rm(ws, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    };
  });

  it('ends cleanly after seven requests, none rejected by its wire format', () => {
    expect(chat.code, chat.stderr).toBe(0);
    expect(s.requests).toHaveLength(7);
    expect(s.rejections).toEqual([]);
  });

  it('/undo restores the last turn and removes it from what the model reads; a /save export is kept', async () => {
    expect(chat.stderr).toContain('undid the turn "write two"');
    // /undo again would take back the turn before: the way back is keel undo with this undo's checkpoint.
    const said = chat.stdout + chat.stderr;
    expect(said).toMatch(
      /to reverse this undo, run keel undo \S+ in a shell \(\/undo again takes back the turn before\)/,
    );
    expect(said).not.toContain('run keel undo again');
    expect(seen[0]).toBe('one\n');
    expect(await fs.readFile(join(ws, 'export.md'), 'utf8')).toContain('write two');
    const next = sent(s.requests[4]!.body);
    expect(next).toContain('write one');
    expect(next).toContain('write three');
    expect(next).not.toContain('write two');
    expect(next).not.toContain('wrote two');
  });

  it('/rewind lists the messages and goes back to before one, leaving the files', () => {
    expect(chat.stdout).toContain('your messages (newest last):\n  1  write one\n  2  write three\n');
    expect(chat.stderr).toContain('rewound to before message 2 (files unchanged)');
    expect(chat.stderr).toContain('your message was:\nwrite three\n');
    expect(seen[1]).toBe('three\n');
    const last = sent(s.requests[6]!.body);
    expect(last).toContain('wrote one');
    expect(last).not.toContain('write three');
  });

  it('/model openai-compatible/gpt-4o-mini switches wire format mid-session, the request carrying the history', () => {
    expect(chat.stderr).toContain('model: openai-compatible/gpt-4o-mini');
    const first = s.requests[0]!;
    const switched = s.requests[6]!;
    expect(first.path).toBe('/api/chat');
    expect(switched.path).toBe('/v1/chat/completions');
    expect(switched.body.model).toBe('gpt-4o-mini');
    const history = sent(switched.body);
    expect(history).toContain('write one');
    expect(history).toContain('wrote one');
    const ids = callIds(switched.body);
    expect(ids.call).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(ids.result).toBe(ids.call);
  });

  it("keel undo after the chat names the session's turn it takes back", async () => {
    const undo = await keel.undo(ws);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/^undoing session \S+, turn "write three"\n/);
    expect(await fs.readFile(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
  });
});

describe('--provider with --continue', () => {
  it('continues an ollama session on openai-compatible, tool call ids converted', async () => {
    const ws = await workspace({ 'a.txt': 'zero\n' });
    const s = await server([writes('one\n'), { text: 'wrote one' }, { text: 'you wrote one' }]);
    // Not about undo: no checkpoints (each costs git processes).
    const restricted = {
      mode: () => 'restricted' as const,
      env: { ...process.env, KEEL_CHECKPOINTS: 'off' },
    };
    expect((await keel.run(s, ws, 'write one', restricted)).reasons).toEqual(['done']);
    const r = await keel.run(s, ws, 'what did you write', {
      ...restricted,
      flags: { provider: 'openai-compatible', baseUrl: s.openaiUrl, model: 'test-model' },
      env: { ...restricted.env, OPENAI_API_KEY: 'sk-scripted-test' },
      session: { save: true, continue: true },
    });
    expect(r.reasons).toEqual(['done']);
    expect(r.events).toContainEqual({
      type: 'warning',
      message: expect.stringContaining(
        'conversation carried over from ollama to openai-compatible: 1 tool call id rewritten',
      ),
    });
    expect(s.rejections).toEqual([]);
    const continued = s.requests[2]!;
    expect(continued.path).toBe('/v1/chat/completions');
    expect(sent(continued.body)).toContain('wrote one');
    expect(callIds(continued.body).call).toMatch(/^[A-Za-z0-9]{9}$/);
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
    // Ctrl-C at the question cancels the rewind, not the chat.
    await term.keys('Escape', 'Escape');
    await term.waitFor('go back to before which message?');
    await term.keys('C-c');
    await term.waitFor('rewind cancelled');
    await term.waitFor((screen) => screen.trimEnd().split('\n').at(-1) === '›');
    await term.keys('Escape', 'Escape');
    await term.waitFor((screen) => screen.split('go back to before which message?').length === 3);
    expect(await term.screen()).toContain('  2  second');
    await term.type('2');
    await term.keys('Enter');
    await term.waitFor('the conversation and files (f)?');
    // Anything but c or f asks again.
    await term.type('y');
    await term.keys('Enter');
    await term.waitFor('answer c (the conversation only) or f (the files too)');
    await term.type('c');
    await term.keys('Enter');
    // The prompt's own line, not the earlier '› second' the message was first typed on (still on the screen).
    await term.waitFor((screen) => screen.trimEnd().split('\n').at(-1) === '› second');
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
