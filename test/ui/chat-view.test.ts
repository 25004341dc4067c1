// The chat view: when the spinner runs (waiting for the model or a tool) and stops (anything printed), the todo
// list, the compaction notice and a command's output tail.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { createChatView, formatTodos, outputTail } from '../../src/ui/chat-view.js';
import type { Spinner } from '../../src/ui/spinner.js';
import { createStyle } from '../../src/ui/style.js';

const plain = createStyle(false);

function view() {
  const log: string[] = [];
  let out = '';
  const spinner: Spinner = {
    start: (label) => void log.push(`start ${label}`),
    stop: () => void log.push('stop'),
  };
  const stderr = {
    write: (t: string) => {
      out += t;
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  const chat = createChatView({ stderr, style: plain, spinner, outputTails: true });
  return { chat, log, output: () => out };
}

/** The spinner's label after each event (undefined: stopped). */
function labels(events: AgentEvent[]): (string | undefined)[] {
  const { chat, log } = view();
  return events.map((event) => {
    log.length = 0;
    chat.sink(event);
    const last = log.at(-1)!;
    return last.startsWith('start ') ? last.slice(6) : undefined;
  });
}

describe('createChatView', () => {
  it('spins while waiting for the model and for a tool, and stops for text, questions and the end', () => {
    expect(
      labels([
        { type: 'turn_start', turn: 1 },
        { type: 'usage', turn: 1, input_tokens: 1, output_tokens: 1 },
        { type: 'tool_call', turn: 1, id: 'c1', name: 'execute_command', args: {} },
        { type: 'approval_requested', id: 'c1', name: 'execute_command', reason: 'asks' },
        { type: 'approval_answered', id: 'c1', approved: true, decision: 'once' },
        { type: 'warning', message: 'slow' },
        {
          type: 'tool_result',
          turn: 1,
          id: 'c1',
          name: 'execute_command',
          success: true,
          display: 'ok',
          truncated: false,
          metadata: {},
          duration_ms: 5,
        },
        { type: 'turn_start', turn: 2 },
        { type: 'text_delta', turn: 2, delta: 'hi' },
        { type: 'turn_end', turn: 2, tool_calls: 0 },
      ]),
    ).toEqual([
      'thinking',
      'thinking',
      'running execute_command',
      undefined,
      'running',
      'running',
      undefined,
      'thinking',
      undefined,
      undefined,
    ]);
  });

  it('prints the todo list, a compaction notice and the tail of a command; keeps the last output for /output', () => {
    const { chat, output } = view();
    chat.sink({
      type: 'todo',
      todos: [
        { id: '1', content: 'read the code', status: 'done' },
        { id: '2', content: 'fix the bug', status: 'in_progress' },
        { id: '3', content: 'run the tests', status: 'pending' },
      ],
    });
    chat.sink({
      type: 'compaction',
      turn: 3,
      trigger: 'manual',
      tokens_before: 12000,
      tokens_after: 1500,
      summary: 's',
      edits: [],
    });
    const content = Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join('\n');
    chat.sink({ type: 'message', role: 'tool', tool_call_id: 'c1', tool_name: 'execute_command', content });
    expect(output()).toBe(
      [
        'todo 1/3',
        '  ✓ read the code',
        '  ▸ fix the bug',
        '  ○ run the tests',
        'compacted the conversation: 12000 → 1500 tokens',
        '    … 4 more lines (/output shows all)',
        '    line 5',
        '    line 6',
        '    line 7',
        '    line 8',
        '    line 9',
        '',
      ].join('\n'),
    );
    expect(chat.lastOutput()).toEqual({ tool: 'execute_command', content });
  });
});

describe('formatTodos and outputTail', () => {
  it('say when the list is empty and show a short output whole', () => {
    expect(formatTodos([], plain)).toBe('todo list cleared\n');
    expect(outputTail('a\nb\n', 5, plain)).toBe('    a\n    b\n');
    expect(outputTail('', 5, plain)).toBe('');
  });
});
