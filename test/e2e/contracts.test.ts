// The loop's contracts through keel run (in-process through runCommand, the binary only for signals): answers cut by the output limit are continued, the
// content filter fails the run, events alone rebuild the conversation the model received, one large result
// cannot overflow the context (and stays readable in full), and a double Ctrl-C leaves no process behind.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentEvent, replayConversation } from '../../src/core/events.js';
import type { Message } from '../../src/core/messages.js';
import { runOllama, toolMessages, useE2E } from '../support/e2e.js';
import { processesWith } from '../support/processes.js';
import { keelRun, ollamaRun } from '../support/run-in-process.js';

const { server, workspace } = useE2E();

const events = (stdout: string): AgentEvent[] =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AgentEvent);

describe('finish reasons', () => {
  it('continues an answer cut off by the output limit and prints it whole', async () => {
    const s = await server([{ text: 'Hello, wor', finish: 'length' }, { text: 'ld!' }]);
    const ws = await workspace();
    const r = await ollamaRun(s, ws, { prompt: 'greet' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Hello, world!\n');
    const second = s.requests[1]!.body.messages as { role: string; content: string }[];
    expect(second.at(-2)).toMatchObject({ role: 'assistant', content: 'Hello, wor' });
    expect(second.at(-1)).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/cut off by the output limit/),
    });
  });

  it('fails the run when the content filter stops the answer', async () => {
    const s = await server([{ text: 'partial', finish: 'content_filter' }]);
    const ws = await workspace();
    const r = await keelRun({ provider: 'openai-compatible', baseUrl: s.openaiUrl, cwd: ws, prompt: 'x' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/stopped the answer with its content filter/);
  });
});

/** Keel's messages in the OpenAI chat wire format, to compare with what the server received. */
function asOpenAi(messages: Message[]): unknown[] {
  return messages.map((m) => {
    switch (m.role) {
      case 'assistant':
        return {
          role: 'assistant',
          // The wire sends an empty text beside tool calls as null.
          content: m.toolCalls && !m.content ? null : m.content,
          ...(m.toolCalls
            ? {
                tool_calls: m.toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: c.input },
                })),
              }
            : {}),
        };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      default:
        return { role: m.role, content: m.content };
    }
  });
}

describe('events carry the conversation', () => {
  it("a run's stream-json events alone rebuild the exact messages of the model's last request", async () => {
    const s = await server([
      { toolCalls: [{ name: 'list_files', args: {} }] },
      {
        toolCalls: [
          { name: 'read_file', args: { path: 'a.txt' } },
          { name: 'read_file', args: { path: 'missing.txt' } },
        ],
      },
      { toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'copied\n' } }] },
      { text: 'done' },
    ]);
    const ws = await workspace({ 'a.txt': 'alpha\n' });
    const r = await keelRun({
      provider: 'openai-compatible',
      baseUrl: s.openaiUrl,
      cwd: ws,
      output: 'stream-json',
      prompt: 'copy a.txt to b.txt',
    });
    expect(r.code).toBe(0);
    const stream = events(r.stdout);
    expect(stream[0]!.type).toBe('run_start');
    expect(stream.at(-1)!.type).toBe('run_end');
    const rebuilt = replayConversation(stream);
    // The last request holds everything but the final answer, which the rebuilt list ends with.
    expect(rebuilt.at(-1)).toEqual({ role: 'assistant', content: 'done' });
    expect(asOpenAi(rebuilt.slice(0, -1))).toEqual(s.requests[3]!.body.messages);
    expect(rebuilt.find((m) => m.role === 'tool' && m.isError)?.content).toMatch(/^Error: no such file/);
  });
});

describe('one tool result cannot overflow the context', () => {
  it('caps a 5 MB output under a small window, keeps every request in budget, and saves the whole', async () => {
    const line = (i: number) => `line ${String(i).padStart(7, '0')} ${'x'.repeat(40)}\n`;
    const big = Array.from({ length: 100_000 }, (_, i) => line(i)).join('');
    expect(big.length).toBeGreaterThan(5_000_000);
    const ws = await workspace();
    await writeFile(join(ws, 'big.txt'), big);
    await writeFile(
      join(ws, 'keel.yaml'),
      'agent:\n  conversation:\n    max_tokens: 8000\n  terminal:\n    default_mode: full\n',
    );
    let saved = '';
    const s = await server([
      { toolCalls: [{ name: 'execute_command', args: { command: 'cat big.txt' } }] },
      (request) => {
        saved = /saved in (\S+):/.exec(toolMessages(request.body)[0]!)?.[1] ?? '';
        return { toolCalls: [{ name: 'read_file', args: { path: saved, offset: 50_000, limit: 2 } }] };
      },
      { toolCalls: [{ name: 'read_file', args: { path: 'big.txt' } }] },
      { text: 'read it' },
    ]);
    const r = await ollamaRun(s, ws, { config: join(ws, 'keel.yaml'), prompt: 'read big.txt' });
    expect(r.code).toBe(0);
    expect(saved).toMatch(/tool-output/);
    // Budget: 8000 tokens at about four characters each.
    for (const request of s.requests) expect(request.rawBody.length).toBeLessThan(8000 * 4);
    const [capped] = toolMessages(s.requests[1]!.body);
    expect(capped).toMatch(/^exit code: 0\nstdout:\nline 0000000/);
    expect(capped).toMatch(/output truncated to \d+ of 5\d{6} bytes/);
    expect(capped).toContain('line 0099999');
    // The saved copy is the whole output (after its two header lines): any line can be read back.
    const readBack = toolMessages(s.requests[2]!.body).at(-1);
    expect(readBack).toBe(
      `[${saved}: lines 50000-50001 of 100002]\n${line(49_997)}${line(49_998)}`.trimEnd(),
    );
    // read_file of the big file itself pages instead of overflowing.
    const paged = toolMessages(s.requests[3]!.body).at(-1);
    expect(paged).toMatch(/^\[big\.txt: lines 1-\d+ of 100000; continue with offset \d+\]/);
  });
});

describe('one turn of many tool results cannot overflow the context', () => {
  it('cuts the largest of 12 parallel results to share the turn cap, each naming its saved whole, and stays in budget', async () => {
    const line = (file: number, i: number) =>
      `file${file} line ${String(i).padStart(5, '0')} ${'z'.repeat(30)}\n`;
    const files = Object.fromEntries(
      Array.from({ length: 12 }, (_, f) => [
        `big${f}.txt`,
        Array.from({ length: 2000 }, (_, i) => line(f, i)).join(''),
      ]),
    );
    const ws = await workspace({
      ...files,
      'keel.yaml': 'agent:\n  conversation:\n    max_tokens: 8000\n    auto_compact: false\n',
    });
    let saved = '';
    const s = await server([
      {
        toolCalls: Array.from({ length: 12 }, (_, f) => ({
          name: 'execute_command',
          args: { command: `cat big${f}.txt` },
        })),
      },
      (request) => {
        saved = /saved in (\S+) \(/.exec(toolMessages(request.body)[5]!)?.[1] ?? '';
        return { toolCalls: [{ name: 'read_file', args: { path: saved, offset: 1000, limit: 1 } }] };
      },
      { text: 'read them' },
    ]);
    const r = await ollamaRun(s, ws, { config: join(ws, 'keel.yaml'), prompt: 'read every big file' });
    expect(r.code, r.stderr).toBe(0);
    // Budget: 8000 tokens at about four characters each; the turn's results share a quarter of it.
    for (const request of s.requests) expect(request.rawBody.length).toBeLessThan(8000 * 4);
    const results = toolMessages(s.requests[1]!.body);
    expect(results).toHaveLength(12);
    expect(results.join('').length).toBeLessThan(8000 + 12 * 400);
    for (const [f, text] of results.entries()) {
      expect(text).toMatch(new RegExp(`^exit code: 0\nstdout:\nfile${f} line 00000`));
      expect(text).toMatch(
        /this turn's 12 results were over 8000 bytes together; the whole \d+ bytes are saved in /,
      );
    }
    // Each was over the per-result cap, whose saved file (the whole output after its two header lines) is named.
    expect(saved).toMatch(/tool-output/);
    expect(toolMessages(s.requests[2]!.body).at(-1)).toContain(line(5, 997).trim());
  });
});

describe('process safety', () => {
  const marker = `${1000 + Math.floor(Math.random() * 1000)}.123`;
  // Read from /proc, not pgrep: no process spawned to look.
  const survivors = () => processesWith(`sleep ${marker}`).join('\n');

  it.each([
    ['a double Ctrl-C', ['SIGINT', 'SIGINT'], 130],
    ['SIGTERM', ['SIGTERM'], 143],
    ['SIGHUP', ['SIGHUP'], 129],
  ] as const)('%s kills running commands before Keel exits', async (_name, signals, code) => {
    const s = await server([
      // The command ignores SIGTERM, so only Keel's kill of the whole group ends it. `started` says it is running.
      {
        toolCalls: [
          {
            name: 'execute_command',
            args: { command: `trap '' TERM; sleep ${marker} & touch started; wait` },
          },
        ],
      },
      { text: 'never reached' },
    ]);
    const ws = await workspace();
    const r = await runOllama(s, ws, ['--allow-dangerous', '--prompt', 'sleep'], {
      onSpawn: (child) => {
        // A stat per tick until the command has started, then /proc until its sleep is there.
        const poll = setInterval(() => {
          if (!existsSync(join(ws, 'started')) || !survivors()) return;
          clearInterval(poll);
          for (const signal of signals) child.kill(signal);
        }, 50);
        child.on('close', () => clearInterval(poll));
      },
    });
    expect(r.code).toBe(code);
    expect(survivors()).toBe('');
  });
});

describe('the first request', () => {
  // Issue 20's sizes, where they are largest: without a sandbox the default is restricted mode, whose prompt names
  // the read-only programs. A message the intent classifier cannot read gets every default tool.
  it('fits 3.5 KB with the basic tools and 8 KB with every default tool, without a sandbox', async () => {
    const s = await server([{ text: 'done' }, { text: 'hello' }]);
    const ws = await workspace();
    const basic = await ollamaRun(s, ws, {
      prompt: 'Read notes.txt and write NOTES_UPPER.txt with its text in upper case.',
      sandbox: false,
    });
    const every = await ollamaRun(s, ws, { prompt: 'hello', sandbox: false });
    expect([basic.code, every.code]).toEqual([0, 0]);
    const [first, second] = s.requests.map((request) => request.rawBody);
    expect(first).toContain('runs only read-only commands');
    expect(Buffer.byteLength(first!)).toBeLessThanOrEqual(3500);
    expect(JSON.parse(second!).tools.length).toBeGreaterThan(15);
    expect(Buffer.byteLength(second!)).toBeLessThanOrEqual(8000);
  });
});
