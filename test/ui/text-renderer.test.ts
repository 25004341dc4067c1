// The text renderer writes untrusted text (model, tools, servers) escaped, with Keel's own styling intact.
import { describe, expect, test } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { createStyle } from '../../src/ui/style.js';
import { createTextRenderer } from '../../src/ui/text-renderer.js';

/** A stream that records every byte written to it. */
function sink() {
  const stream = {
    text: '',
    write(chunk: string | Uint8Array) {
      stream.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    },
  };
  return stream;
}

function render(events: AgentEvent[], options: { streamText?: boolean; color?: boolean } = {}) {
  const stdout = sink();
  const stderr = sink();
  const emit = createTextRenderer({
    stdout: stdout as unknown as NodeJS.WritableStream,
    stderr: stderr as unknown as NodeJS.WritableStream,
    style: createStyle(options.color ?? false),
    streamText: options.streamText ?? true,
    showReasoning: true,
  });
  for (const event of events) emit(event);
  return { stdout: stdout.text, stderr: stderr.text };
}

const turnEnd = (toolCalls: number) => ({ type: 'turn_end', turn: 1, tool_calls: toolCalls }) as AgentEvent;

describe('text renderer output is sanitized', () => {
  test('an ESC at the end of one streamed delta and [2J at the start of the next never form a sequence', () => {
    const out = render([
      { type: 'turn_start', turn: 1 } as AgentEvent,
      { type: 'text_delta', delta: 'hello\x1b' } as AgentEvent,
      { type: 'text_delta', delta: '[2Jworld\r\n' } as AgentEvent,
      turnEnd(0),
    ]);
    expect(out.stdout).toBe('hello\\x1b[2Jworld\n');
  });

  test('the final answer printed at the end (no streaming) is escaped', () => {
    const out = render(
      [
        { type: 'turn_start', turn: 1 } as AgentEvent,
        { type: 'text_delta', delta: 'done\x1b]52;c;ZXZpbA==\x07 \u202eok' } as AgentEvent,
        turnEnd(0),
      ],
      { streamText: false },
    );
    expect(out.stdout).toBe('done\\x1b]52;c;ZXZpbA==\\x07 \\u202eok\n');
  });

  test('reasoning is escaped inside our own dim styling', () => {
    const out = render([{ type: 'reasoning_delta', delta: 'think\x1b[1A' } as AgentEvent, turnEnd(0)], {
      color: true,
    });
    expect(out.stderr).toBe('\x1b[2mthink\\x1b[1A\x1b[22m\n');
  });

  test('a tool call name and argument summary are escaped; the styling around them is ours', () => {
    const out = render(
      [
        {
          type: 'tool_call',
          id: 'c1',
          turn: 1,
          name: 'x\x1b[31m',
          args: { command: 'ls\rrm -rf /' },
        } as AgentEvent,
      ],
      { color: true },
    );
    expect(out.stderr).toBe(
      '\x1b[36m●\x1b[39m \x1b[1mx\\x1b[31m\x1b[22m \x1b[2mcommand=ls\\rrm -rf /\x1b[22m\n',
    );
  });

  test('tool result displays and errors are escaped, keeping their line breaks', () => {
    const out = render([
      { type: 'tool_result', id: 'c1', success: true, display: 'line1\x07\nline2\x1b[K' } as AgentEvent,
      { type: 'tool_result', id: 'c2', success: false, display: '', error: 'bad\x08\x08ok' } as AgentEvent,
    ]);
    expect(out.stderr).toBe('  ✓ line1\\x07\n    line2\\x1b[K\n  ✗ bad\\x08\\x08ok\n');
  });

  test("a file change's diff under its tool call is coloured at a colour terminal, as the chat colours it", () => {
    const display = 'edited a.txt (+1 -1)\n--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three';
    const out = render([{ type: 'tool_result', id: 'c1', success: true, display } as AgentEvent], {
      color: true,
    });
    expect(out.stderr.split('\n')).toEqual([
      '  \x1b[32m✓\x1b[39m \x1b[2medited a.txt (+1 -1)\x1b[22m',
      '    \x1b[2m--- a.txt\x1b[22m',
      '    \x1b[2m+++ a.txt\x1b[22m',
      '    \x1b[36m@@ -1,3 +1,3 @@\x1b[39m',
      '    \x1b[2m one\x1b[22m',
      '    \x1b[31m-two\x1b[39m',
      '    \x1b[32m+TWO\x1b[39m',
      '    \x1b[2m three\x1b[22m',
      '',
    ]);
  });

  test('warnings, errors, hints, retry reasons and cited sources are escaped', () => {
    const out = render([
      { type: 'turn_start', turn: 1 } as AgentEvent,
      { type: 'citation', url: 'https://a.example/\x1b]8;;x\x07', title: 'T\u009b2J' } as AgentEvent,
      { type: 'text_delta', delta: 'answer\n' } as AgentEvent,
      turnEnd(0),
      { type: 'warning', message: 'w\x1b[2J' } as AgentEvent,
      { type: 'retry', reason: 'HTTP 503\x07', delay_ms: 1000, attempt: 1, max: 3 } as AgentEvent,
      { type: 'error', code: 'x', message: 'm\r', hint: 'h\x1b' } as AgentEvent,
    ]);
    expect(out.stdout).toBe('answer\n\nSources:\n[1] T\\x9b2J — https://a.example/\\x1b]8;;x\\x07\n');
    expect(out.stderr).toBe(
      'warning: w\\x1b[2J\nHTTP 503\\x07, retrying in 1 s (1/3)\nerror: m\\r\n  hint: h\\x1b\n',
    );
  });
});

describe('text renderer sources', () => {
  test("a search's results in one turn are listed under the answer of the next, once", () => {
    const out = render([
      { type: 'turn_start', turn: 1 } as AgentEvent,
      { type: 'citation', turn: 1, url: 'https://a.example/', title: 'A' } as AgentEvent,
      turnEnd(1),
      { type: 'turn_start', turn: 2 } as AgentEvent,
      { type: 'text_delta', delta: 'answer' } as AgentEvent,
      turnEnd(0),
      { type: 'turn_start', turn: 3 } as AgentEvent,
      { type: 'text_delta', delta: 'again' } as AgentEvent,
      turnEnd(0),
    ]);
    expect(out.stdout).toBe('answer\n\nSources:\n[1] A — https://a.example/\nagain\n');
  });
});

describe('text renderer notices', () => {
  test('the turn limit names the turns run, one turn in the singular', () => {
    const limit = (turns: number): AgentEvent =>
      ({ type: 'run_end', reason: 'turn-limit', answer: '', turns, tool_calls: 0, usage: {} }) as AgentEvent;
    expect(render([limit(1)]).stderr).toMatch(/^error: stopped after 1 turn without a final answer/);
    expect(render([limit(3)]).stderr).toMatch(/^error: stopped after 3 turns without a final answer/);
  });

  test('a compaction is one line on stderr with the tokens before and after, nothing on stdout', () => {
    const compaction = (trigger: 'auto' | 'manual'): AgentEvent => ({
      type: 'compaction',
      turn: 3,
      trigger,
      tokens_before: 41230,
      tokens_after: 2210,
      summary: '## Goal\n…',
      edits: [],
    });
    const out = render([compaction('auto'), compaction('manual')]);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      'compacted: the context was nearly full; the conversation is now a summary: 41230 → 2210 tokens\n' +
        'compacted: the conversation is now a summary: 41230 → 2210 tokens\n',
    );
  });
});
