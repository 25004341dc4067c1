// The text protocol's parser: calls in tags, fences and bare JSON are found, ordinary JSON and code are left as text,
// and streaming the reply in any pieces gives the same result as parsing it whole.
import { describe, expect, it } from 'vitest';
import { splitToolCalls, ToolCallSplitter } from '../../src/providers/text-call-splitter.js';

const tools = new Set(['read_file', 'write_file', 'execute_command']);
const split = (reply: string) => splitToolCalls(reply, tools);

/** The reply fed in pieces of `size` characters. */
function streamed(reply: string, size: number) {
  const splitter = new ToolCallSplitter(tools);
  const out = { text: '', calls: [] as unknown[] };
  for (let i = 0; i < reply.length; i += size) {
    const step = splitter.push(reply.slice(i, i + size));
    out.text += step.text;
    out.calls.push(...step.calls);
  }
  const last = splitter.end();
  return { text: out.text + last.text, calls: [...out.calls, ...last.calls] };
}

const call = (name: string, args: unknown) => ({ kind: 'call', name, input: JSON.stringify(args) });

describe('splitToolCalls', () => {
  it('finds a <tool_call> with chatter before and after, leaving the chatter as text', () => {
    const r = split(
      'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>\nThen I decide.',
    );
    expect(r.calls).toEqual([call('read_file', { path: 'a.txt' })]);
    expect(r.text).toBe('Let me look.\nThen I decide.');
  });

  it('finds a fenced json call and a bare JSON call', () => {
    expect(
      split('Reading:\n```json\n{"name": "read_file", "arguments": {"path": "x"}}\n```\nok').calls,
    ).toEqual([call('read_file', { path: 'x' })]);
    const bare = split('I will run it.\n{"tool": "execute_command", "args": {"command": "ls"}}\nwaiting');
    expect(bare.calls).toEqual([call('execute_command', { command: 'ls' })]);
    expect(bare.text).toBe('I will run it.\nwaiting');
  });

  it('accepts the common key variants and arguments sent as a JSON string', () => {
    for (const body of [
      '{"name": "read_file", "parameters": {"path": "p"}}',
      '{"tool_name": "read_file", "input": {"path": "p"}}',
      '{"function": {"name": "read_file", "arguments": "{\\"path\\": \\"p\\"}"}}',
      '{"type": "function", "function": {"name": "read_file", "arguments": {"path": "p"}}}',
    ]) {
      expect(split(`<tool_call>${body}</tool_call>`).calls, body).toEqual([call('read_file', { path: 'p' })]);
    }
  });

  it('keeps braces and tags inside JSON strings as part of the arguments', () => {
    const content = 'function f() { return "}"; }\n</tool_call> is just text here {';
    const reply = `{"name": "write_file", "arguments": {"path": "f.js", "content": ${JSON.stringify(content)}}}`;
    expect(split(reply).calls).toEqual([call('write_file', { path: 'f.js', content })]);
    expect(split(`\`\`\`json\n${reply}\n\`\`\``).calls).toEqual([
      call('write_file', { path: 'f.js', content }),
    ]);
  });

  it('finds several calls in one reply, in every syntax, in order', () => {
    const r = split(
      [
        'First two reads:',
        '<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call><tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>',
        '```json',
        '[{"name": "read_file", "arguments": {"path": "c"}}, {"name": "execute_command", "arguments": {"command": "ls"}}]',
        '```',
        '{"name": "read_file", "arguments": {"path": "d"}}',
      ].join('\n'),
    );
    expect(r.calls).toEqual(
      ['a', 'b', 'c', 'ls', 'd'].map((x) =>
        x === 'ls' ? call('execute_command', { command: 'ls' }) : call('read_file', { path: x }),
      ),
    );
    expect(r.text).toBe('First two reads:\n');
  });

  it('leaves JSON that is not a call as text: no name key, an unknown name without arguments, package.json', () => {
    for (const reply of [
      'Config example:\n```json\n{"path": "a", "mode": "fast"}\n```\nDone.',
      'package.json:\n```json\n{"name": "my-app", "version": "1.0.0"}\n```',
      '{"name": "my-app", "private": true}\nthat is the manifest',
      'A list:\n```json\n[1, 2, {"a": "b"}]\n```',
    ]) {
      const r = split(reply);
      expect(r.calls, reply).toEqual([]);
      expect(r.text, reply).toBe(reply);
    }
  });

  it('streams ordinary code fences untouched, even with braces and tags inside', () => {
    const reply =
      'Here:\n```ts\nfunction f() {\n  return {"name": "read_file", "arguments": {}};\n}\n// <tool_call> in a comment\n```\nbye';
    expect(split(reply)).toEqual({ text: reply, calls: [] });
  });

  it('leaves braces in prose and quoted tags alone', () => {
    for (const reply of [
      'Use {a, b} here.\n{ not json at all }\nok',
      'Write calls in `<tool_call>` tags, like the docs say.',
    ]) {
      expect(split(reply), reply).toEqual({ text: reply, calls: [] });
    }
  });

  it.each([
    [
      'Bare: {"name": "read_file", "arguments": {"path": "x"}} and that is it.',
      'Bare: and that is it.',
      [call('read_file', { path: 'x' })],
    ],
    [
      'I will call {"name": "read_file", "arguments": {"path": "x"}} now.',
      'I will call now.',
      [call('read_file', { path: 'x' })],
    ],
    [
      'Run { "tool": "execute_command", "parameters": {"command": "ls"} }',
      'Run ',
      [call('execute_command', { command: 'ls' })],
    ],
    [
      'First {"name": "read_file", "arguments": {"path": "a"}} then {"name": "read_file", "arguments": {"path": "b"}}.',
      'First then .',
      [call('read_file', { path: 'a' }), call('read_file', { path: 'b' })],
    ],
  ])('finds a call to an offered tool mid-line: %s', (reply, text, calls) => {
    expect(split(reply)).toEqual({ text, calls });
  });

  it.each([
    // JSON in prose that is not a whole, valid call to an offered tool: an example, a config, a broken one.
    'The config is {"port": 80, "host": "a"} as usual.',
    'package.json has {"name": "my-app", "version": "1.0.0"} at the top.',
    'Unknown tools stay text: {"name": "delete_all", "arguments": {}} is not offered.',
    'No arguments: {"name": "read_file"} alone is prose.',
    'Arguments not an object: {"name": "read_file", "arguments": [1]} here.',
    'Broken JSON mid-line {"name": "read_file", "arguments": {"path": "x"} is prose.',
    // Quoted as inline code: talk about the syntax.
    'Write `{"name": "read_file", "arguments": {"path": "x"}}` to read a file.',
    'A call looks like `x = {"name": "read_file", "arguments": {}}` in the docs.',
    'Sets use {a, b} and objects { "k": 1 } in prose.',
  ])('leaves JSON mid-line that is not a call as text: %s', (reply) => {
    expect(split(reply)).toEqual({ text: reply, calls: [] });
  });

  it('finds a mid-line call the same way whatever the stream chunking, after inline code on its line', () => {
    const reply =
      'Use `{"name": "read_file"}` form; I will call {"name": "read_file", "arguments": {"path": "a}`b"}} now.\nok';
    const whole = split(reply);
    expect(whole).toEqual({
      text: 'Use `{"name": "read_file"}` form; I will call now.\nok',
      calls: [call('read_file', { path: 'a}`b' })],
    });
    for (const size of [1, 2, 3, 5, 7, 11, 64]) expect(streamed(reply, size), `size ${size}`).toEqual(whole);
  });

  it('shows the text before a mid-line call as it arrives and holds only from the brace', () => {
    const splitter = new ToolCallSplitter(tools);
    expect(splitter.push('I will call {"name": "re').text).toBe('I will call ');
    const done = splitter.push('ad_file", "arguments": {"path": "a"}} now.');
    expect(done).toEqual({ text: 'now.', calls: [call('read_file', { path: 'a' })] });
  });

  it('reports a <tool_call> with invalid JSON as broken, with the raw text and what was wrong', () => {
    const r = split('Trying:\n<tool_call>{"name": "read_file", "arguments": {"path": "a"}</tool_call>');
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      kind: 'broken',
      name: 'read_file',
      problem: expect.stringMatching(/not valid JSON/),
    });
    expect(r.calls[0]).toHaveProperty(
      'raw',
      '<tool_call>{"name": "read_file", "arguments": {"path": "a"}</tool_call>',
    );
    expect(r.text).toBe('Trying:\n');
  });

  it('reports an unknown tool, non-object arguments and a tag without a name as broken', () => {
    expect(split('<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>').calls[0]).toMatchObject({
      kind: 'broken',
      name: 'delete_all',
      input: '{}',
      problem: 'there is no tool named "delete_all"',
    });
    expect(split('```json\n{"name": "read_file", "arguments": [1]}\n```').calls[0]).toMatchObject({
      kind: 'broken',
      problem: '"arguments" must be a JSON object',
    });
    expect(split('<tool_call>{"path": "a"}</tool_call>').calls[0]).toMatchObject({
      kind: 'broken',
      name: 'invalid_tool_call',
    });
  });

  it('takes an unclosed <tool_call> at the end of the reply as a call', () => {
    expect(split('ok\n<tool_call>\n{"name": "read_file", "arguments": {"path": "z"}}').calls).toEqual([
      call('read_file', { path: 'z' }),
    ]);
  });

  it('reports a call-shaped fence with invalid JSON as broken but a broken code example as text', () => {
    expect(split('```json\n{"name": "read_file", "arguments": {"path": }}\n```').calls[0]).toMatchObject({
      kind: 'broken',
    });
    const example = '```json\n{"port": 80,}\n```';
    expect(split(example)).toEqual({ text: example, calls: [] });
  });

  it('gives the same text and calls whatever the stream chunking', () => {
    const reply = [
      'Sure! First {braces} in prose.',
      '```python',
      'x = {"name": "read_file", "arguments": {}}',
      '```',
      '<tool_call>',
      '```json',
      '{"name": "read_file", "arguments": {"path": "a}b"}}',
      '```',
      '</tool_call>',
      '  {"name": "execute_command", "arguments": {"command": "echo \\"}\\""}}',
      '```json',
      '{"not": "a call"}',
      '```',
      'The end <',
    ].join('\n');
    const whole = split(reply);
    expect(whole.calls).toHaveLength(2);
    for (const size of [1, 2, 3, 5, 7, 11, 64]) expect(streamed(reply, size), `size ${size}`).toEqual(whole);
  });

  it('shows text before a possible call as soon as it arrives, holding only what may be a call', () => {
    const splitter = new ToolCallSplitter(tools);
    expect(splitter.push('Hello there. <tool_').text).toBe('Hello there. ');
    expect(splitter.push('call>{"name": "read_file"').text).toBe('');
    const done = splitter.push(', "arguments": {"path": "a"}}</tool_call> after');
    expect(done.calls).toEqual([call('read_file', { path: 'a' })]);
    expect(done.text).toBe('after');
  });
});
