// End to end through Keel's command line run in process (runCli: the binary's argument handling, commands and exit
// codes, no spawn) and the scripted model server: the loop's notes to the model (repetition, alternation, the third
// unchanged read, turn warnings), recovery hints on tool errors, intent events, and a turn's read-only calls running
// concurrently while a write keeps its place. Nothing here needs the binary itself.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { runCli } from '../support/cli-in-process.js';
import { toolMessages, useE2E } from '../support/e2e.js';
import type { ModelServer, ScriptedToolCall, ScriptStep } from '../support/model-server.js';
import { processesWith, stopProcessesWith, uniqueDuration } from '../support/processes.js';

const { server, workspace } = useE2E();

/** `keel run --base-url <s's Ollama route> --cwd ws …args`, in process. */
const runOllama = (s: ModelServer, ws: string, args: string[]) =>
  runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws, ...args]);
const step = (...toolCalls: ScriptedToolCall[]): ScriptStep => ({ toolCalls });
const read = (path: string): ScriptedToolCall => ({ name: 'read_file', args: { path } });
const lastTool = (body: unknown): string => toolMessages(body).at(-1) ?? '';
const userMessage = (body: { messages: { role: string; content: string }[] }): string =>
  body.messages.find((m) => m.role === 'user')!.content;
const events = (stdout: string): AgentEvent[] =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AgentEvent);

describe('loop detection', () => {
  it('tells the model in the next request when it makes the same call a third time in a row', async () => {
    const ws = await workspace({ 'a.txt': 'alpha\n' });
    const grep = { name: 'grep', args: { pattern: 'alpha' } };
    const s = await server([step(grep), step(grep), step(grep), { text: 'done' }]);
    const r = await runOllama(s, ws, ['--prompt', 'look for alpha']);
    expect(r.code, r.stderr).toBe(0);
    expect(lastTool(s.requests[2]!.body)).not.toContain('[Keel: you have made the same call');
    expect(lastTool(s.requests[3]!.body)).toContain(
      '[Keel: you have made the same call 3 times in a row (grep {"pattern":"alpha"}). Repeating it will not help: change the pattern',
    );
  });

  it('tells the model when it alternates between two calls (A→B→A→B)', async () => {
    const ws = await workspace({ 'a.txt': 'alpha\n', 'b.txt': 'bravo\n' });
    const list = { name: 'list_files', args: { path: '.' } };
    const glob = { name: 'glob', args: { pattern: '*.txt' } };
    const s = await server([step(list), step(glob), step(list), step(glob), { text: 'done' }]);
    const r = await runOllama(s, ws, ['--prompt', 'look around']);
    expect(r.code, r.stderr).toBe(0);
    for (const request of s.requests.slice(0, 4))
      expect(JSON.stringify(request.body)).not.toContain('alternating');
    expect(lastTool(s.requests[4]!.body)).toMatch(
      /^[\s\S]*\n\n\[Keel: you are alternating between the same two calls \(list_files \{"path":"\."\} and glob \{"pattern":"\*\.txt"\}\) without progress\./,
    );
  });

  it('answers the third read of an unchanged file with a note instead of its content, and reads it again once changed', async () => {
    const ws = await workspace({ 'a.txt': 'alpha content\n', 'b.txt': 'bravo\n' });
    const s = await server([
      step(read('a.txt')),
      step(read('b.txt')),
      step(read('./a.txt')),
      step(read('a.txt')),
      step({ name: 'write_file', args: { path: 'a.txt', content: 'changed\n' } }),
      step(read('a.txt')),
      { text: 'done' },
    ]);
    const r = await runOllama(s, ws, ['--mode', 'full', '--prompt', 'read a.txt']);
    expect(r.code, r.stderr).toBe(0);
    const results = toolMessages(s.requests[6]!.body);
    expect(results[0]).toContain('alpha content');
    expect(results[2]).toContain('alpha content');
    expect(results[3]).toBe(
      '[Keel: a.txt is unchanged since you read it 2 times with the same range; the content is in your earlier read_file results. Use it instead of reading it again.]',
    );
    expect(results[5]).toContain('changed');
  });
});

describe('recovery hints', () => {
  it('classifies a missing file and a search without matches, with their hints for the model and the kind in the event', async () => {
    const ws = await workspace({ 'src/app.ts': 'export const app = 1;\n' });
    const s = await server([
      step(read('src/ap.ts')),
      step({ name: 'grep', args: { pattern: 'nowhere_to_be_found' } }),
      { text: 'done' },
    ]);
    const r = await runOllama(s, ws, ['--output', 'stream-json', '--prompt', 'read src/ap.ts']);
    expect(r.code, r.stderr).toBe(0);
    const [missing, none] = toolMessages(s.requests[2]!.body);
    expect(missing).toMatch(/^Error: no such file or directory: src\/ap\.ts; did you mean src\/app\.ts\?/);
    expect(missing).toContain('\nHint: find the right path first: glob with a pattern');
    expect(none).toMatch(/^no matches for "nowhere_to_be_found"\nHint: broaden the search/);
    const kinds = events(r.stdout)
      .filter((e) => e.type === 'tool_result')
      .map((e) => e.type === 'tool_result' && e.metadata.error_kind);
    expect(kinds).toEqual(['FILE_NOT_FOUND', 'NO_MATCHES']);
  });
});

describe('turn warnings', () => {
  const looping = (n: number): ScriptStep[] =>
    Array.from({ length: n }, (_, i) => step({ name: 'list_files', args: { path: i % 2 ? '.' : 'src' } }));

  it('warns the model at turns 10, 13 and 16 of 16, and the user on stderr', async () => {
    const ws = await workspace({ 'src/a.ts': '' });
    const s = await server(looping(16));
    const r = await runOllama(s, ws, ['--max-turns', '16', '--prompt', 'explore']);
    expect(r.code).not.toBe(0);
    expect(s.requests).toHaveLength(16);
    const warned = s.requests
      .map((request, i) => ({
        turn: i + 1,
        note: /\[Keel: (this is the last turn \()?turn \d+ of 16/.exec(lastTool(request.body)),
      }))
      .filter((w) => w.note)
      .map((w) => w.turn);
    expect(warned).toEqual([10, 13, 16]);
    expect(lastTool(s.requests[9]!.body)).toContain('[Keel: turn 10 of 16. Start wrapping up');
    expect(lastTool(s.requests[12]!.body)).toContain('[Keel: turn 13 of 16, only 3 left. Finish now');
    expect(lastTool(s.requests[15]!.body)).toContain('[Keel: this is the last turn (turn 16 of 16)');
    expect(r.stderr).toContain('warning: turn 10 of 16: asking the model to wrap up (6 turns left)');
    expect(r.stderr).toContain('warning: turn 13 of 16: asking the model to finish (3 turns left)');
    expect(r.stderr).toContain(
      'warning: turn 16 of 16: the last turn, asking the model for its final answer',
    );
  });

  it('with --max-turns 3 warns only on the last turn', async () => {
    const ws = await workspace({ 'src/a.ts': '' });
    const s = await server(looping(3));
    const r = await runOllama(s, ws, ['--max-turns', '3', '--prompt', 'explore']);
    expect(r.code).not.toBe(0);
    expect(JSON.stringify(s.requests[1]!.body)).not.toContain('of 3');
    expect(lastTool(s.requests[2]!.body)).toContain('[Keel: this is the last turn (turn 3 of 3)');
    expect(r.stderr.match(/warning: turn \d+ of 3/g)).toEqual(['warning: turn 3 of 3']);
  });
});

describe('parallel read-only calls', () => {
  it('runs two read-only commands of one turn at the same time, while the write between them keeps its order', async () => {
    // Sleeps of their own, so the processes found below are this test's and no other's.
    const [sleepA, sleepB] = [`sleep ${uniqueDuration()}`, `sleep ${uniqueDuration()}`];
    const ws = await workspace({ 'a.txt': 'alpha\n', 'b.txt': 'bravo\n' });
    // Read-only under the policy, and not ending by itself: the test stops both once it has seen them running side
    // by side (run one after the other, they would never be seen together). Each sleep starts only once its file is
    // printed, so what a command printed is in its result when it is stopped.
    const follow = (file: string, sleep: string) => ({
      name: 'execute_command',
      args: { command: `cat ${file} && ${sleep}`, timeout_seconds: 20 },
    });
    const write = { name: 'write_file', args: { path: 'c.txt', content: 'charlie\n' } };
    const s = await server([step(follow('a.txt', sleepA), write, follow('b.txt', sleepB)), { text: 'done' }]);
    const running = runOllama(s, ws, ['--output', 'stream-json', '--prompt', 'follow the files']);
    // The sleeps themselves, not only the shells about to exec them: a sleep not yet started would not be stopped
    // below, and would run out its 20 s timeout.
    const bothRunning = () => [sleepA, sleepB].every((sleep) => processesWith(sleep, true).length > 0);
    await vi.waitFor(() => expect(bothRunning(), 'both commands running at once').toBe(true), {
      timeout: 15_000,
      interval: 200,
    });
    // The sleeps alone: the shells (or sandboxes) around them still hold and pass on what cat printed.
    stopProcessesWith(sleepA, true);
    stopProcessesWith(sleepB, true);
    const r = await running;
    expect(r.code, r.stderr).toBe(0);

    const [first, written, second] = toolMessages(s.requests[1]!.body);
    expect(first).toContain('alpha');
    expect(written).toMatch(/c\.txt/);
    expect(second).toContain('bravo');
    expect(await readFile(join(ws, 'c.txt'), 'utf8')).toBe('charlie\n');

    // Each tool_call is followed by its own tool_result: the read-only pair first (model order), then the write.
    const all = events(r.stdout);
    const ids = all
      .filter((e) => e.type === 'tool_call' || e.type === 'tool_result')
      .map((e) => `${e.type}:${'id' in e ? e.id : ''}`);
    // The ids in the model's order, from the assistant messages.
    const callIds = all.flatMap((e) =>
      e.type === 'message' && e.role === 'assistant' ? (e.tool_calls ?? []).map((c) => c.id) : [],
    );
    expect(callIds).toHaveLength(3);
    const [a, w, b] = callIds;
    expect(ids).toEqual([
      `tool_call:${a}`,
      `tool_result:${a}`,
      `tool_call:${b}`,
      `tool_result:${b}`,
      `tool_call:${w}`,
      `tool_result:${w}`,
    ]);
  });
});

describe('intent', () => {
  it('emits an intent event for the message and sends the steering note with it', async () => {
    const ws = await workspace({ 'src/parser.ts': 'export {}\n' });
    const s = await server([{ text: 'fixed' }]);
    const r = await runOllama(s, ws, [
      '--output',
      'stream-json',
      '--prompt',
      'Fix the crash in src/parser.ts when the input is empty',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const intent = events(r.stdout).find((e) => e.type === 'intent');
    expect(intent).toEqual({
      type: 'intent',
      intent: 'debug',
      scope: 'single_file',
      entities: ['src/parser.ts'],
      confidence: expect.any(Number),
    });
    const user = userMessage(s.requests[0]!.body);
    expect(user).toMatch(
      /^Fix the crash in src\/parser\.ts when the input is empty\n\n\[Keel: debug\. Reproduce it/,
    );
    // The message event carries the note exactly as sent, so a resumed session replays it.
    const message = events(r.stdout).find((e) => e.type === 'message' && e.role === 'user');
    expect(message && 'content' in message && message.content).toBe(user);
  });

  it('classifies each message of a chat, with an intent event for each in stream-json', async () => {
    const ws = await workspace({ 'src/a.ts': 'export const a = 1;\n' });
    const s = await server([{ text: 'It exports a.' }, { text: 'Tests run.' }, { text: 'ok' }]);
    const r = await runCli(['chat', '--base-url', s.ollamaUrl, '--cwd', ws, '--output', 'stream-json'], {
      input: 'Explain what src/a.ts exports\nrun the tests\nthanks\nexit\n',
    });
    expect(r.code, r.stderr).toBe(0);
    const intents = events(r.stdout).filter((e) => e.type === 'intent');
    expect(intents.map((e) => e.type === 'intent' && [e.intent, e.scope, e.entities])).toEqual([
      ['explain', 'single_file', ['src/a.ts']],
      ['test', 'single_file', []],
      ['implement', 'single_file', []],
    ]);
    // The system prompt is the same bytes in every request (provider prompt caching); each note rides on its message.
    const systems = s.requests.map((q) => JSON.stringify(q.body.messages[0]));
    expect(new Set(systems).size).toBe(1);
    const users = (s.requests[2]!.body.messages as { role: string; content: string }[])
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users[0]).toContain('\n\n[Keel: explain. Answer from the code');
    expect(users[1]).toContain('\n\n[Keel: test. Run the tests');
    expect(users[2]).toBe('thanks');
  });

  it('asks a task across the project to plan first', async () => {
    const ws = await workspace();
    const s = await server([{ text: 'planned' }]);
    const r = await runOllama(s, ws, [
      '--output',
      'stream-json',
      '--prompt',
      'Rename parseConfig to loadConfig across the codebase',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(events(r.stdout).find((e) => e.type === 'intent')).toMatchObject({
      intent: 'refactor',
      scope: 'whole_project',
      entities: ['parseConfig', 'loadConfig'],
    });
    expect(userMessage(s.requests[0]!.body)).toContain('Plan first with todo_write.');
  });

  it('leaves a message it cannot classify as the user wrote it, and still reports the intent', async () => {
    const ws = await workspace();
    const s = await server([{ text: 'ok' }]);
    const r = await runOllama(s, ws, ['--output', 'stream-json', '--prompt', 'go on']);
    expect(r.code, r.stderr).toBe(0);
    expect(userMessage(s.requests[0]!.body)).toBe('go on');
    expect(events(r.stdout).find((e) => e.type === 'intent')).toMatchObject({ confidence: 0.3 });
  });
});
