// keel run and keel chat against the scripted model server over loopback, in temp workspaces, in process: runCommand
// (test/support/run-in-process.ts) or the whole command line (cli-in-process.ts: bare keel, -p, the chat, Ctrl-C as
// SIGINT's event). The binary's own SIGINT is test/e2e/faults.test.ts's and test/e2e/contracts.test.ts's.
import { access, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configInitCommand, configShowCommand } from '../../src/cli/config-command.js';
import type { RunOptions } from '../../src/cli/run.js';
import { captureOutput } from '../support/agent-in-process.js';
import { questions } from '../support/chat.js';
import { runCli } from '../support/cli-in-process.js';
import { toolMessages, useE2E } from '../support/e2e.js';
import { expectTodoTaskDone, todoFiles, todoScript } from '../support/fixtures.js';
import type { ModelServer } from '../support/model-server.js';
import { inKeelEnv, keelRun, ollamaRun } from '../support/run-in-process.js';
import { exec } from '../support/small-shell.js';

const { server, workspace, removeLater } = useE2E();

// Both wire formats in process (runCommand): a multi-step run of the built binary is test/e2e/code-tools.test.ts's.
describe.each([
  ['ollama', (s: ModelServer) => s.ollamaUrl],
  ['openai-compatible', (s: ModelServer) => s.openaiUrl],
])('keel run against %s', (provider, baseUrl) => {
  it('finds TODO comments across files and writes tasks.md in a multi-step run', async () => {
    const s = await server(todoScript());
    const ws = await workspace(todoFiles);
    const prompt = 'Find all TODO comments and create tasks.md';
    const r = await keelRun({ provider, baseUrl: baseUrl(s), model: 'test-model', cwd: ws, prompt });
    await expectTodoTaskDone(r, ws, s);
    // Both parallel calls were answered, with the real file contents.
    const third = toolMessages(s.requests[2]!.body);
    expect(third.some((c) => c.includes('handle errors'))).toBe(true);
    expect(third.some((c) => c.includes('speed this up'))).toBe(true);
    // The listing honoured the request and reached the model.
    expect(toolMessages(s.requests[1]!.body)[0]).toContain('src/main.ts');
    expect(s.requests[0]!.body.model).toBe('test-model');
  });
});

describe('keel run safety and limits', () => {
  it('refuses paths that escape the workspace and never sends the secret to the model', async () => {
    const ws = await workspace({ 'inside.txt': 'hello\n' });
    const secretDir = await workspace({ 'secret.txt': 'TOP-SECRET-CANARY-42\n' });
    await symlink(join(secretDir, 'secret.txt'), join(ws, 'link.txt'));
    await symlink(secretDir, join(ws, 'linkdir'));
    const relative = join('..', secretDir.split('/').pop()!, 'secret.txt');
    const s = await server([
      {
        toolCalls: [
          { name: 'read_file', args: { path: relative } },
          { name: 'read_file', args: { path: join(secretDir, 'secret.txt') } },
          { name: 'read_file', args: { path: 'link.txt' } },
          { name: 'read_file', args: { path: 'linkdir/secret.txt' } },
          { name: 'list_files', args: { path: dirname(secretDir) } },
          { name: 'execute_command', args: { command: `cat ${join(secretDir, 'secret.txt')}` } },
        ],
      },
      { toolCalls: [{ name: 'read_file', args: { path: 'inside.txt' } }] },
      { text: 'Could not read the secret.' },
    ]);
    const r = await ollamaRun(s, ws, { provider: 'ollama', prompt: 'read it' });
    expect(r.code).toBe(0);
    expect(s.requests).toHaveLength(3);
    for (const request of s.requests) expect(request.rawBody).not.toContain('TOP-SECRET-CANARY-42');
    const results = toolMessages(s.requests[1]!.body);
    expect(results).toHaveLength(6);
    for (const result of results) expect(result).toMatch(/^Error/);
    expect(r.stdout + r.stderr).not.toContain('TOP-SECRET-CANARY-42');
    expect(toolMessages(s.requests[2]!.body).at(-1)).toContain('hello');
  });

  it('refuses grep -R, which would follow a link out of the workspace, and never sends the secret', async () => {
    const ws = await workspace({ 'inside.txt': 'nothing here\n' });
    const secretDir = await workspace({ 'secret.txt': 'TOP-SECRET-CANARY-43\n' });
    await symlink(secretDir, join(ws, 'linkdir'));
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'grep -R CANARY .' } }] },
      { toolCalls: [{ name: 'execute_command', args: { command: 'grep -r CANARY .' } }] },
      { text: 'No canary inside the workspace.' },
    ]);
    const r = await ollamaRun(s, ws, { prompt: 'find the canary' });
    expect(r.code).toBe(0);
    expect(s.requests).toHaveLength(3);
    for (const request of s.requests) expect(request.rawBody).not.toContain('TOP-SECRET-CANARY-43');
    expect(r.stdout + r.stderr).not.toContain('TOP-SECRET-CANARY-43');
    const refused = toolMessages(s.requests[1]!.body)[0];
    expect(refused).toMatch(/^Error/);
    expect(refused).toContain('`grep -R` follows symbolic links');
    expect(refused).toContain('use `grep -r`');
    // grep -r ran (and skipped the link it found), so it is not a refusal.
    expect(toolMessages(s.requests[2]!.body).at(-1)).not.toMatch(/refused/);
  });

  it('answers invalid arguments and unknown tools with error results the model can act on', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const s = await server([
      {
        toolCalls: [
          { name: 'no_such_tool', args: {} },
          { name: 'read_file', args: { wrong: 1 } },
        ],
      },
      { text: 'done' },
    ]);
    const r = await ollamaRun(s, ws, { prompt: 'x' });
    expect(r.code).toBe(0);
    const [unknown, invalid] = toolMessages(s.requests[1]!.body);
    expect(unknown).toMatch(/unknown tool/i);
    expect(unknown).toContain('read_file');
    expect(invalid).toMatch(/path/);
  });

  it('stops at the turn limit with exit code 4', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const again = { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] };
    const s = await server([again, again, again, again]);
    const r = await ollamaRun(s, ws, { maxTurns: 2, prompt: 'loop' });
    expect(r.code).toBe(4);
    expect(s.requests).toHaveLength(2);
    expect(r.stderr).toMatch(/turn limit/);
    expect(r.stderr).toMatch(/--max-turns/);
  });

  it('exits 3 with a clear message when the provider is unreachable', async () => {
    const s = await server([]);
    const url = s.ollamaUrl;
    await s.close();
    const ws = await workspace({});
    const r = await keelRun({ baseUrl: url, cwd: ws, prompt: 'hi' });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(url.replace(/^http:\/\//, ''));
    expect(r.stderr).toMatch(/ollama serve/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a model without tool support with a clear message (tool_protocol native)', async () => {
    const s = await server([
      { status: 400, errorBody: { error: 'registry.ollama.ai/library/tiny:latest does not support tools' } },
    ]);
    const ws = await workspace({ '.keel.yaml': 'provider:\n  ollama:\n    tool_protocol: native\n' });
    const r = await ollamaRun(s, ws, { model: 'tiny', prompt: 'hi' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/does not support tools/);
    expect(r.stderr).toMatch(/--model/);
  });

  it('truncates tool output at agent.tools.max_output_size and tells the model', async () => {
    const ws = await workspace({
      'big.txt': `${'x'.repeat(5000)}\n`,
      '.keel.yaml': 'agent:\n  tools:\n    max_output_size: 1000\n',
    });
    const s = await server([
      { toolCalls: [{ name: 'read_file', args: { path: 'big.txt' } }] },
      { text: 'ok' },
    ]);
    const r = await ollamaRun(s, ws, { prompt: 'read big.txt' });
    expect(r.code).toBe(0);
    const [result] = toolMessages(s.requests[1]!.body);
    // 1000 bytes of output plus the note naming the saved file (its path holds the workspace's key).
    expect(result!.length).toBeLessThan(1400);
    expect(result).toMatch(/truncated/i);
  });

  it('refuses commands outside the restricted allowlist and says how to allow them', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'touch made.txt' } }] },
      { toolCalls: [{ name: 'execute_command', args: { command: 'ls' } }] },
      { text: 'ok' },
    ]);
    const r = await ollamaRun(s, ws, { mode: 'restricted', prompt: 'x' });
    expect(r.code).toBe(0);
    expect(toolMessages(s.requests[1]!.body)[0]).toMatch(/--allow "touch made.txt", or use --mode full/);
    expect(toolMessages(s.requests[2]!.body).at(-1)).toContain('a.txt');
    await expect(readFile(join(ws, 'made.txt'))).rejects.toThrow();

    const s2 = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'touch made.txt' } }] },
      { text: 'ok' },
    ]);
    const r2 = await ollamaRun(s2, ws, { allowDangerous: true, prompt: 'x' });
    expect(r2.code).toBe(0);
    expect(await readFile(join(ws, 'made.txt'), 'utf8')).toBe('');
  });

  // In process, the interrupt is the signal Ctrl-C fires in the binary (src/cli/signals.ts); the binary's own SIGINT
  // is test/e2e/faults.test.ts's (during a backoff) and test/e2e/contracts.test.ts's (twice, with a command running).
  it('stops cleanly with exit 130 on Ctrl-C while the model is answering', async () => {
    const ws = await workspace({});
    const ctrlC = new AbortController();
    const s = await server([
      () => {
        ctrlC.abort();
        return { hang: true };
      },
    ]);
    const r = await ollamaRun(s, ws, { prompt: 'wait' }, { signal: ctrlC.signal });
    expect(s.requests).toHaveLength(1);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/interrupted/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reads the goal from stdin when no --prompt or --plan is given, also as bare keel (echo … | keel)', async () => {
    const ws = await workspace({});
    const s = await server([{ text: 'hello back' }]);
    // An Ollama behind authentication: OLLAMA_API_KEY goes as a bearer token, never into the output.
    const r = await runCli(['--base-url', s.ollamaUrl, '--cwd', ws], {
      input: 'say hello\n',
      env: { OLLAMA_API_KEY: 'ollama-key-canary-7319' },
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('hello back');
    expect(s.requests[0]!.rawBody).toContain('say hello');
    expect(s.requests[0]!.headers.authorization).toBe('Bearer ollama-key-canary-7319');
    expect(r.stdout + r.stderr).not.toContain('canary');
  });

  it('cuts a goal piped on stdin that is too large to head and tail, with a note and a warning', async () => {
    const ws = await workspace({});
    const s = await server([{ text: 'done' }]);
    const goal = `FIRST ${'word '.repeat(80_000)}LAST`;
    const r = await ollamaRun(s, ws, {}, { stdin: goal });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: the piped input was capped: 400,010 bytes, of which the first [\d,]+ and the last/,
    );
    expect(s.requests).toHaveLength(1);
    const sent = s.requests[0]!.body.messages.find((m: { role: string }) => m.role === 'user').content;
    expect(sent).toMatch(/^\(the piped input was capped: 400,010 bytes, .*\)\nFIRST word/);
    expect(sent).toContain('bytes left out …]');
    expect(sent).toMatch(/LAST/);
    expect(s.requests[0]!.rawBody.length).toBeLessThan(300_000);
  });

  it('refuses --continue with --resume, and either with --no-session, as a usage error (exit 2), sending nothing', async () => {
    const ws = await workspace({});
    const s = await server([{ text: 'never' }]);
    // Resuming a session while saving none is two wishes too: which was meant is a guess.
    for (const [flags, said] of [
      [['--continue', '--resume', 'abc'], "'--continue' cannot be used with option '--resume <id>'"],
      [['--no-session', '--continue'], "'--no-session' cannot be used with option '--continue'"],
      [['--no-session', '--resume', 'abc'], "'--no-session' cannot be used with option '--resume <id>'"],
    ] as const) {
      const r = await runCli(['-p', 'hi', ...flags, '--base-url', s.ollamaUrl, '--cwd', ws]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(said);
    }
    expect(s.requests).toHaveLength(0);
  });

  it('runs headless with keel -p, piped input attached as context', async () => {
    const ws = await workspace({});
    const s = await server([{ text: 'it fails on line 3' }]);
    const r = await runCli(['-p', 'why does this fail', '--base-url', s.ollamaUrl, '--cwd', ws], {
      input: 'Error: boom at line 3\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('it fails on line 3');
    expect(s.requests[0]!.rawBody).toContain('why does this fail');
    expect(s.requests[0]!.rawBody).toContain('Error: boom at line 3');
  });

  it('is a usage error (exit 2) to give no goal at all; --output json says so in the run object', async () => {
    const ws = await workspace({});
    const r = await keelRun({ cwd: ws });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--prompt/);
    const json = await keelRun({ cwd: ws, output: 'json' });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      answer: '',
      reason: 'failed',
      turns: 0,
      tool_calls: [],
      usage: { input_tokens: 0, output_tokens: 0 },
      error: { code: 'usage', message: 'no goal given', hint: expect.stringContaining('--prompt') },
    });
  });
});

describe('keel run outputs', () => {
  it('streams one JSON event per line with --output stream-json', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const s = await server([
      {
        text: 'Reading.',
        toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }],
        usage: { input: 10, output: 5 },
      },
      { text: 'The file says A.', usage: { input: 20, output: 6 } },
    ]);
    const r = await ollamaRun(s, ws, { output: 'stream-json', prompt: 'x' });
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run_start');
    expect(types.at(-1)).toBe('run_end');
    for (const t of ['turn_start', 'text_delta', 'tool_call', 'tool_result', 'usage', 'turn_end'])
      expect(types).toContain(t);
    const call = events.find((e) => e.type === 'tool_call');
    expect(call).toMatchObject({ name: 'read_file', args: { path: 'a.txt' } });
    const end = events.at(-1);
    expect(end).toMatchObject({ reason: 'done', answer: 'The file says A.', turns: 2, tool_calls: 1 });
    expect(end.usage).toEqual({ input_tokens: 30, output_tokens: 11 });
  });

  it('prints one JSON object at the end with --output json', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const s = await server([
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }], usage: { input: 10, output: 5 } },
      { text: 'A', usage: { input: 20, output: 6 } },
    ]);
    const r = await ollamaRun(s, ws, { output: 'json', prompt: 'x' });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({
      answer: 'A',
      reason: 'done',
      turns: 2,
      usage: { input_tokens: 30, output_tokens: 11 },
    });
    expect(result.tool_calls).toEqual([expect.objectContaining({ name: 'read_file', success: true })]);
  });
});

/** `keel run --provider replay --cassette cassette --cwd ws --prompt …`: offline, from a recording. */
const replay = (cassette: string, ws: string, prompt: string) =>
  keelRun({ provider: 'replay', cassette, cwd: ws, prompt });

describe('record and replay', () => {
  it('replays a recorded run offline with the same answer and the same file changes', async () => {
    const s = await server(todoScript());
    const ws1 = await workspace(todoFiles);
    const cassette = join(ws1, '..', `${ws1.split('/').pop()}.cassette.json`);
    removeLater(cassette);
    const recorded = await ollamaRun(s, ws1, { record: cassette, prompt: 'Find TODOs' });
    expect(recorded.code).toBe(0);
    await s.close();

    const ws2 = await workspace(todoFiles);
    const replayed = await replay(cassette, ws2, 'Find TODOs');
    expect(replayed.stderr).not.toMatch(/error/i);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(await readFile(join(ws2, 'tasks.md'), 'utf8')).toBe(await readFile(join(ws1, 'tasks.md'), 'utf8'));
  });

  it('replays with --cassette alone, and warns when the goal is not the recorded one', async () => {
    const s = await server([{ text: 'the answer' }]);
    const ws = await workspace({});
    const cassette = `${ws}.cassette.json`;
    removeLater(cassette);
    expect((await ollamaRun(s, ws, { record: cassette, prompt: 'what is 2+2?' })).code).toBe(0);
    const same = await keelRun({ cassette, cwd: ws, prompt: 'what is 2+2?' });
    expect(same).toMatchObject({ code: 0, stdout: 'the answer\n' });
    expect(same.stderr).not.toContain('warning');
    const other = await replay(cassette, ws, 'delete the database');
    expect(other).toMatchObject({ code: 0, stdout: 'the answer\n' });
    expect(other.stderr).toContain(
      `warning: cassette ${cassette} was recorded for another goal than this run's: its responses play back as recorded`,
    );
  });

  it('fails clearly when the cassette no longer matches the run', async () => {
    const s = await server([
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'done' },
    ]);
    const ws1 = await workspace({ 'a.txt': 'A\n' });
    const cassette = `${ws1}.cassette.json`;
    removeLater(cassette);
    expect((await ollamaRun(s, ws1, { record: cassette, prompt: 'x' })).code).toBe(0);
    // In the new workspace the file is missing, so the tool fails where it succeeded when recorded.
    const ws2 = await workspace({});
    const r = await replay(cassette, ws2, 'x');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/cassette/);
    expect(r.stderr).toMatch(/no longer matches|does not match|diverge/);
  });

  it('rejects a missing cassette with exit 2', async () => {
    const ws = await workspace({});
    const r = await replay(join(ws, 'nope.json'), ws, 'x');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nope.json');
  });
});

describe('keel run --output stream-json before the run starts', () => {
  /** The events of a stream-json output, one a line. */
  const eventsOf = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; message?: string });
  const unstartedEnd = {
    type: 'run_end',
    reason: 'failed',
    answer: '',
    turns: 0,
    tool_calls: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
  };

  it('a failure in setup (no key, a missing cassette, no goal) is an error event, then run_end; exit codes kept', async () => {
    const ws = await workspace({});
    const cases: [string, Partial<RunOptions>, number, string][] = [
      ['no key', { provider: 'anthropic', prompt: 'x' }, 3, 'no API key for anthropic'],
      [
        'missing cassette',
        { provider: 'replay', cassette: join(ws, 'nope.json'), prompt: 'x' },
        2,
        'nope.json',
      ],
      ['no goal', {}, 2, 'no goal given'],
    ];
    for (const [name, options, code, message] of cases) {
      const r = await keelRun(
        { cwd: ws, output: 'stream-json', ...options },
        { env: { ANTHROPIC_API_KEY: undefined } },
      );
      expect(r.code, `${name}: ${r.stderr}`).toBe(code);
      const events = eventsOf(r.stdout);
      expect(
        events.map((e) => e.type),
        name,
      ).toEqual(['error', 'run_end']);
      expect(events[0]!.message, name).toContain(message);
      expect(events[1], name).toEqual(unstartedEnd);
    }
  });

  it('keel ask and a stream-json session end a failed setup with run_end too', async () => {
    const ws = await workspace({});
    const cassette = join(ws, 'nope.json');
    const ask = await runCli(
      ['ask', '--provider', 'replay', '--cassette', cassette, '--output', 'stream-json', 'x'],
      {
        cwd: ws,
      },
    );
    expect(ask.code, ask.stderr).toBe(2);
    expect(eventsOf(ask.stdout).map((e) => e.type)).toEqual(['error', 'run_end']);

    const session = await runCli(
      [
        'run',
        '--provider',
        'replay',
        '--cassette',
        cassette,
        '--input-format',
        'stream-json',
        '--output',
        'stream-json',
      ],
      { cwd: ws, input: '' },
    );
    expect(session.code, session.stderr).toBe(2);
    expect(eventsOf(session.stdout).at(-1)).toEqual(unstartedEnd);
  });

  it('a run whose loop started ends with exactly one run_end', async () => {
    const ws = await workspace({});
    const s = await server([{ status: 401, errorBody: { error: 'unauthorized' } }]);
    const r = await ollamaRun(s, ws, { output: 'stream-json', prompt: 'x' });
    expect(r.code).toBe(3);
    const types = eventsOf(r.stdout).map((e) => e.type);
    expect(types[0]).toBe('run_start');
    expect(types.filter((t) => t === 'run_end')).toHaveLength(1);
    expect(types.at(-1)).toBe('run_end');
  });
});

describe('plan files', () => {
  const plans: Record<string, string> = {
    'plan.yaml':
      'goal: Write a summary of the notes\ncontext:\n  directory: notes/\ninstructions:\n  - Read notes/a.txt\n  - Write summary.md\n',
    'plan.json': JSON.stringify({
      goal: 'Write a summary of the notes',
      context: { directory: 'notes/' },
      instructions: ['Read notes/a.txt', 'Write summary.md'],
    }),
    'plan.md':
      '# Task: Notes\n\n## Goal\n\nWrite a summary of the notes\n\n## Context\n\n- Directory: notes/\n\n## Steps\n\n1. Read notes/a.txt\n2. Write summary.md\n',
  };

  it.each(Object.keys(plans))('runs %s end to end', async (name) => {
    const ws = await workspace({ 'notes/a.txt': 'alpha beta\n', [name]: plans[name]! });
    const done = (id: string, content: string) => ({ id, content, status: 'done' });
    const s = await server([
      { toolCalls: [{ name: 'read_file', args: { path: 'notes/a.txt' } }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'summary.md', content: 'alpha and beta\n' } }] },
      // Both instructions done on the plan's todo list: the run is finished (exit 0), not just answered.
      {
        toolCalls: [
          {
            name: 'todo_write',
            args: { todos: [done('1', 'Read notes/a.txt'), done('2', 'Write summary.md')] },
          },
        ],
      },
      { text: 'Summary written.' },
    ]);
    const r = await ollamaRun(s, ws, { plan: join(ws, name) });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('Summary written.');
    const first = s.requests[0]!.body.messages as { role: string; content: string }[];
    const user = first.find((m) => m.role === 'user')!.content;
    expect(user).toContain('GOAL: Write a summary of the notes');
    expect(user).toContain('- Directory: notes/');
    expect(user).toContain('1. Read notes/a.txt');
    expect(user).toContain('2. Write summary.md');
    expect(await readFile(join(ws, 'summary.md'), 'utf8')).toBe('alpha and beta\n');
  });

  it('rejects a plan with a syntax error naming the file and line (exit 2)', async () => {
    const ws = await workspace({ 'bad.yaml': 'goal: x\ninstructions:\n  - a\n - b: [\n' });
    const r = await keelRun({ cwd: ws, plan: join(ws, 'bad.yaml') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.yaml');
    expect(r.stderr).toMatch(/line \d/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects a plan without a goal (exit 2)', async () => {
    const ws = await workspace({ 'nogoal.json': '{\n  "instructions": ["a"]\n}\n' });
    const r = await keelRun({ cwd: ws, plan: join(ws, 'nogoal.json') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nogoal.json');
    expect(r.stderr).toMatch(/goal/);
  });

  it('rejects a missing plan file (exit 2)', async () => {
    const ws = await workspace({});
    const r = await keelRun({ cwd: ws, plan: join(ws, 'missing.yaml') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing.yaml');
  });
});

describe('config errors', () => {
  it('rejects an unknown key naming the file, line and key (exit 2)', async () => {
    const ws = await workspace({ '.keel.yaml': 'agent:\n  max_turns: 5\n  colour: blue\n' });
    const r = await keelRun({ cwd: ws, prompt: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.keel.yaml');
    expect(r.stderr).toMatch(/line 3/);
    expect(r.stderr).toContain('colour');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects a wrong type (exit 2)', async () => {
    const ws = await workspace({ '.keel.yaml': 'agent:\n  max_turns: ten\n' });
    const r = await keelRun({ cwd: ws, prompt: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/max_turns/);
    expect(r.stderr).toMatch(/line 2/);
  });

  it('rejects an unknown provider (exit 2)', async () => {
    const ws = await workspace({});
    const r = await keelRun({ cwd: ws, provider: 'nope', prompt: 'x' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ollama/);
  });

  it('writes the session file of a user config via config init and loads it back', async () => {
    const ws = await workspace({});
    const home = await workspace({});
    const env = { XDG_CONFIG_HOME: home };
    const init = captureOutput();
    expect(await inKeelEnv({ env }, () => configInitCommand({ cwd: ws, output: 'text' }, init))).toBe(0);
    expect(await readFile(join(home, 'keel', 'config.yaml'), 'utf8')).toMatch(/max_turns/);
    await writeFile(join(ws, '.keel.yaml'), 'provider:\n  ollama:\n    model: from-project\n');
    const show = captureOutput();
    const shown = await inKeelEnv({ env: { ...env, OLLAMA_HOST: 'example.test:1234' } }, () =>
      configShowCommand({ cwd: ws, output: 'text' }, show),
    );
    expect(shown).toBe(0);
    expect(show.out).toMatch(/model: from-project.*project/);
    expect(show.out).toMatch(/http:\/\/example\.test:1234.*OLLAMA_HOST/);
    expect(show.out).toMatch(/max_turns: 100.*(user|config\.yaml)/);
    const again = captureOutput();
    expect(await inKeelEnv({ env }, () => configInitCommand({ cwd: ws, output: 'text' }, again))).toBe(2);
    expect(again.err).toMatch(/--force/);
  });
});

describe('chat', () => {
  it('keeps one conversation across lines, takes !<command> output as context for the next message, and quits on exit', async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const s = await server([
      { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'It says A.' },
      { text: 'You asked about a.txt.' },
    ]);
    const r = await runCli(['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws], {
      input: 'what is in a.txt?\n!cat a.txt\nwhat did I ask?\nexit\nthis line is never sent\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('It says A.');
    expect(r.stdout).toContain('You asked about a.txt.');
    // `!cat a.txt` ran through the policy (read-only: allowed) without a model turn of its own.
    expect(s.requests).toHaveLength(3);
    expect(s.requests[2]!.rawBody).toContain('what is in a.txt?');
    expect(s.requests[2]!.rawBody).toContain('It says A.');
    expect(s.requests[2]!.rawBody).toContain('I ran `cat a.txt` myself:');
    // The user sees what the command printed, not only that it ran.
    expect(r.stdout).toContain('It says A.\nA\n');
  });

  it('piped, ends at the first turn the provider refuses, with its exit code (3), telling it once', async () => {
    const ws = await workspace({});
    const s = await server([{ status: 401, errorBody: { error: 'unauthorized' } }, { text: 'never' }]);
    const r = await runCli(['chat', '--base-url', s.ollamaUrl, '--cwd', ws], { input: 'hello\nsecond\n' });
    expect(r.code).toBe(3);
    expect(s.requests).toHaveLength(1);
    expect(r.stderr.match(/error: /g)).toHaveLength(1);
  });

  it("/diff shows git's diff of the uncommitted changes and the new files; outside git, says so", async () => {
    const ws = await workspace({ 'a.txt': 'A\n' });
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    const init = 'git init -q && git add -A && git -c user.email=k@e -c user.name=k commit -qm base';
    await exec('sh', ['-c', `${init} && echo B > a.txt && echo N > new.txt`], { cwd: ws, env });
    const s = await server([]);
    const r = await runCli(['chat', '--base-url', s.ollamaUrl, '--cwd', ws], { input: '/diff\nexit\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-A\n+B\n');
    expect(r.stderr).toContain('new files git does not track yet: new.txt');
    const plain = await workspace({ 'a.txt': 'A\n' });
    const outside = await runCli(['chat', '--base-url', s.ollamaUrl, '--cwd', plain], {
      input: '/diff\nexit\n',
    });
    expect(outside.stderr).toContain('not a git repository');
    expect(s.requests).toHaveLength(0);
  });

  it('asks before running a command beyond the read-only set, and runs it only when approved', async () => {
    const ws = await workspace({});
    const touch = { toolCalls: [{ name: 'execute_command', args: { command: 'touch made.txt' } }] };
    const s = await server([touch, { text: 'made it' }, touch, { text: 'not made' }]);
    const r = await runCli(['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws], {
      steps: [
        { send: 'make a file\n' },
        { until: (o) => questions(o) === 1, send: 'y\n' },
        { until: (o) => o.stdout.includes('made it'), send: 'make it again\n' },
        { until: (o) => questions(o) === 2, send: 'n\n' },
        { until: (o) => o.stdout.includes('not made'), end: true },
      ],
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/touch made\.txt/);
    expect(toolMessages(s.requests[1]!.body).at(-1)).not.toMatch(/^Error/);
    expect(toolMessages(s.requests[3]!.body).at(-1)).toMatch(/^Error/);
    expect(await readFile(join(ws, 'made.txt'), 'utf8')).toBe('');
  });

  it('never takes a line typed before the approval question as its answer', async () => {
    const ws = await workspace({});
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'touch made.txt' } }] },
      { text: 'not made' },
    ]);
    const r = await runCli(['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws], {
      steps: [
        // "y" typed ahead while the agent works, before any question was shown.
        { send: 'make a file\ny\n' },
        { until: (o) => questions(o) === 1, send: 'n\n' },
        { until: (o) => o.stdout.includes('not made'), end: true },
      ],
    });
    expect(r.code).toBe(0);
    expect(questions(r)).toBe(1);
    expect(toolMessages(s.requests[1]!.body).at(-1)).toMatch(/declined/);
    await expect(access(join(ws, 'made.txt'))).rejects.toThrow();
    // The typed-ahead line was dropped, not sent to the model as a message either.
    expect(s.requests).toHaveLength(2);
  });

  it('takes Ctrl-C at an approval question as no and interrupts the turn, then keeps chatting', async () => {
    const ws = await workspace({});
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'touch made.txt' } }] },
      { text: 'still here' },
    ]);
    const r = await runCli(['chat', '--mode', 'interactive', '--base-url', s.ollamaUrl, '--cwd', ws], {
      steps: [
        { send: 'make a file\n' },
        { until: (o) => questions(o) === 1, signal: 'SIGINT' },
        { until: (o) => o.stderr.includes('interrupted'), send: 'are you there?\n' },
        { until: (o) => o.stdout.includes('still here'), end: true },
      ],
    });
    expect(r.code).toBe(0);
    await expect(access(join(ws, 'made.txt'))).rejects.toThrow();
    // The interrupted turn sent no tool result back; the next message started a new turn.
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]!.rawBody).toContain('are you there?');
  });
});
