// Tool calls for models without native tool calling (provider.<name>.tool_protocol), through Keel's command line
// run in process (runCli: the binary's argument handling and exit codes, no spawn) against the scripted model server:
// the tools described in the system prompt, calls parsed from the streamed replies.
import { describe, expect, it } from 'vitest';
import { type CliOptions, runCli } from '../support/cli-in-process.js';
import { useE2E, wireProviders } from '../support/e2e.js';
import type { ModelServer, ReceivedRequest } from '../support/model-server.js';

const { server, workspace } = useE2E();

/** `keel run --base-url <s's Ollama route> --cwd ws …args`, in process. */
const runOllama = (s: ModelServer, ws: string, args: string[], options?: CliOptions) =>
  runCli(['run', '--base-url', s.ollamaUrl, '--cwd', ws, ...args], options);

/** An Ollama model whose /api/show reports no `tools` capability. */
const tinyModels = [
  { name: 'tiny:latest', architecture: 'gemma', contextLength: 8192, capabilities: ['completion'] },
];

type WireMessage = { role: string; content: string; tool_calls?: unknown[] };
const messagesOf = (r: ReceivedRequest) => r.body.messages as WireMessage[];
const lastUser = (r: ReceivedRequest) => messagesOf(r).findLast((m) => m.role === 'user')!.content;
const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });

describe('tool_protocol', () => {
  it('auto on an Ollama model without tools: calls in all three syntaxes with chatter run and their results go back', async () => {
    const ws = await workspace({ 'a.txt': 'AAA-content\n', 'b.txt': 'BBB-content\n' });
    const s = await server({
      ollamaModels: tinyModels,
      script: [
        {
          text: 'Let me read it.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>\nI will wait.',
        },
        { text: 'Now listing.\n```json\n{"name": "execute_command", "arguments": {"command": "ls"}}\n```\n' },
        { text: 'One more:\n{"tool": "read_file", "args": {"path": "b.txt"}}\nthanks' },
        { text: 'All done: both files read.' },
      ],
    });
    const r = await runOllama(s, ws, [
      '--model',
      'tiny',
      '--prompt',
      'read the files',
      '--output',
      'stream-json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(s.rejections).toEqual([]);
    expect(s.requests).toHaveLength(4);

    // No native tools: the system prompt describes them and the syntax to call them.
    const first = s.requests[0]!;
    expect(first.body.tools ?? []).toEqual([]);
    const system = messagesOf(first)[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('# Tools');
    expect(system.content).toContain('<tool_call>\n{"name": "<tool name>", "arguments":');
    expect(system.content).toMatch(/- read_file: .+\n {2}\{"type":"object"/);
    // Start-up budget: the tools cost about what native tools would.
    expect(first.rawBody.length).toBeLessThan(10 * 1024);

    // Each result goes back as a user-role message; the call is written back as the canonical tag.
    for (const request of s.requests.slice(1)) {
      expect(messagesOf(request).some((m) => m.role === 'tool' || m.tool_calls)).toBe(false);
    }
    expect(lastUser(s.requests[1]!)).toMatch(/^<tool_result name="read_file">\n[\s\S]*AAA-content/);
    const echoed = messagesOf(s.requests[1]!).findLast((m) => m.role === 'assistant')!.content;
    expect(echoed).toBe(
      'Let me read it.\nI will wait.\n\n<tool_call>\n{"name":"read_file","arguments":{"path":"a.txt"}}\n</tool_call>',
    );
    expect(lastUser(s.requests[2]!)).toMatch(
      /<tool_result name="execute_command">[\s\S]*a\.txt[\s\S]*b\.txt/,
    );
    expect(lastUser(s.requests[3]!)).toContain('BBB-content');

    // The session sees ordinary tool calls; the answer text never shows the call JSON.
    const all = events(r.stdout);
    const calls = all.filter((e) => e.type === 'tool_call').map((e) => [e.name, e.args]);
    expect(calls).toEqual([
      ['read_file', { path: 'a.txt' }],
      ['execute_command', { command: 'ls' }],
      ['read_file', { path: 'b.txt' }],
    ]);
    expect(all.filter((e) => e.type === 'tool_result').every((e) => e.success)).toBe(true);
    const shown = all
      .filter((e) => e.type === 'text_delta')
      .map((e) => e.delta)
      .join('');
    expect(shown).toContain('Let me read it.');
    expect(shown).toContain('thanks');
    expect(shown).not.toMatch(/"arguments"|"args"|tool_call/);
    expect(all.at(-1)).toMatchObject({ type: 'run_end', reason: 'done', tool_calls: 3 });
  });

  it('a broken call gets a correction with what was wrong and the exact syntax, and the run goes on', async () => {
    const ws = await workspace({ 'a.txt': 'AAA-content\n' });
    const s = await server({
      ollamaModels: tinyModels,
      script: [
        { text: 'Reading.\n<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}</tool_call>' },
        { text: '<tool_call>{"name": "read_fil", "arguments": {"path": "a.txt"}}</tool_call>' },
        { text: '<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>' },
        { text: 'Got it.' },
      ],
    });
    const r = await runOllama(s, ws, ['--model', 'tiny', '--prompt', 'read a.txt']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Got it.');
    const invalidJson = lastUser(s.requests[1]!);
    expect(invalidJson).toMatch(/<tool_result name="read_file" error="true">\n.*not valid JSON/);
    expect(invalidJson).toMatch(/\[Keel: that tool call could not be used: the call is not valid JSON/);
    expect(invalidJson).toContain('Write each call exactly like this:\n<tool_call>\n{"name": "<tool name>"');
    // The model reads its own broken block back as it wrote it.
    expect(messagesOf(s.requests[1]!).findLast((m) => m.role === 'assistant')!.content).toContain(
      '<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}</tool_call>',
    );
    expect(lastUser(s.requests[2]!)).toMatch(
      /unknown tool "read_fil"[\s\S]*there is no tool named "read_fil"/,
    );
    expect(lastUser(s.requests[3]!)).toContain('AAA-content');
  });

  it('a resumed session sends the same text-protocol history, broken call and correction included', async () => {
    const ws = await workspace({ 'a.txt': 'AAA-content\n' });
    const data = await workspace();
    const env = { XDG_DATA_HOME: data };
    const first = await server({
      ollamaModels: tinyModels,
      script: [
        { text: '<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}</tool_call>' },
        { text: 'Ok.\n<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>' },
        { text: 'It says AAA.' },
      ],
    });
    expect((await runOllama(first, ws, ['--model', 'tiny', '--prompt', 'read a.txt'], { env })).code).toBe(0);
    const second = await server({ ollamaModels: tinyModels, script: [{ text: 'Nothing more.' }] });
    const resumed = await runOllama(second, ws, ['--model', 'tiny', '--continue', '--prompt', 'more?'], {
      env,
    });
    expect(resumed.code).toBe(0);
    const before = messagesOf(first.requests[2]!);
    expect(messagesOf(second.requests[0]!)).toEqual([
      ...before,
      { role: 'assistant', content: 'It says AAA.' },
      { role: 'user', content: 'more?' },
    ]);
    expect(JSON.stringify(before)).toContain('could not be used: the call is not valid JSON');
  });

  it('fails clearly after three corrections in a row', async () => {
    const ws = await workspace();
    const brokenReply = { text: '<tool_call>{"name": "read_file", "arguments": </tool_call>' };
    const s = await server({
      ollamaModels: tinyModels,
      script: [brokenReply, brokenReply, brokenReply, brokenReply],
    });
    const r = await runOllama(s, ws, ['--model', 'tiny', '--prompt', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/model "tiny" wrote 4 broken tool calls in a row/);
    expect(r.stderr).toMatch(/tool_protocol: native/);
    expect(s.requests).toHaveLength(4);
  });

  it('text forced on an OpenAI-compatible provider: no native tools, calls parsed from the reply', async () => {
    const ws = await workspace({
      'a.txt': 'AAA-content\n',
      '.keel.yaml': 'provider:\n  openai-compatible:\n    tool_protocol: text\n',
    });
    const s = await server([
      { text: 'Sure.\n```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```' },
      { text: 'It says AAA.' },
    ]);
    const p = wireProviders.find((w) => w.provider === 'openai-compatible')!;
    const r = await runCli(
      [
        'run',
        '--provider',
        p.provider,
        '--base-url',
        s[p.url],
        '--model',
        'test-model',
        '--cwd',
        ws,
        '--prompt',
        'read a.txt',
      ],
      { env: p.envVar ? { [p.envVar]: 'sk-scripted-test' } : {} },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('It says AAA.');
    expect(r.stdout).not.toContain('"arguments"');
    expect(s.rejections).toEqual([]);
    expect(s.requests[0]!.body.tools).toBeUndefined();
    expect(messagesOf(s.requests[0]!)[0]!.content).toContain('# Tools');
    expect(lastUser(s.requests[1]!)).toContain('AAA-content');
  });

  it('auto falls back to text when the server refuses tools for the model', async () => {
    const ws = await workspace({ 'a.txt': 'AAA-content\n' });
    const s = await server([
      { status: 400, errorBody: { error: 'registry.ollama.ai/library/tiny:latest does not support tools' } },
      { text: '<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>' },
      { text: 'Read it.' },
    ]);
    const r = await runOllama(s, ws, ['--model', 'tiny', '--prompt', 'read a.txt']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Read it.');
    expect(s.requests[0]!.body.tools.length).toBeGreaterThan(0);
    expect(s.requests[1]!.body.tools ?? []).toEqual([]);
    expect(lastUser(s.requests[2]!)).toContain('AAA-content');
  });

  it('native stays unchanged for a model with tools: native tools sent, no tools section in the prompt', async () => {
    const ws = await workspace({ 'a.txt': 'AAA-content\n' });
    const s = await server([
      { text: 'Calling natively.', toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
      { text: 'Done.' },
    ]);
    const r = await runOllama(s, ws, ['--prompt', 'read a.txt']);
    expect(r.code).toBe(0);
    expect(s.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain(
      'read_file',
    );
    expect(messagesOf(s.requests[0]!)[0]!.content).not.toContain('# Tools');
    expect(messagesOf(s.requests[1]!).some((m) => m.role === 'tool')).toBe(true);
  });

  it('an unknown tool_protocol value is a config error naming the key', async () => {
    const ws = await workspace({ '.keel.yaml': 'provider:\n  ollama:\n    tool_protocol: json\n' });
    const r = await runCli(['run', '--cwd', ws, '--prompt', 'hi']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('provider.ollama.tool_protocol');
  });
});
