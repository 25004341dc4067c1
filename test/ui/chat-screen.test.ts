// The chat's screen: the one writer of the chat. Each todo update and notice once, the spinner's waits, a command's
// output tail, the chat's own lines on the right stream, and a json chat's events left to the machine output.
import { PassThrough, Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { type ChatScreen, createChatScreen, outputTail } from '../../src/ui/chat-screen.js';
import type { Spinner } from '../../src/ui/spinner.js';
import { createStyle } from '../../src/ui/style.js';

const plain = createStyle(false);
const opened: ChatScreen[] = [];
afterEach(() => {
  for (const screen of opened.splice(0)) screen.close();
});

/** A stream that keeps what is written; `tty` makes it look like a terminal. */
function sink(tty = false, columns = 100) {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  Object.assign(stream, { isTTY: tty, columns });
  // Colours and terminal modes stripped, so assertions read the text.
  return { stream: stream as NodeJS.WriteStream, text: () => stripVTControlCharacters(text) };
}

function screen(
  options: {
    output?: 'text' | 'json' | 'stream-json';
    terminal?: boolean;
    spinner?: Spinner;
    term?: string;
    columns?: number;
  } = {},
) {
  const stdout = sink(options.terminal, options.columns);
  const stderr = sink(options.terminal, options.columns);
  const chat = createChatScreen({
    stdin: new PassThrough(),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { TERM: options.term ?? 'xterm-256color' },
    interactive: options.terminal === true,
    output: options.output ?? 'text',
    ...(options.spinner ? { spinner: options.spinner } : {}),
  });
  opened.push(chat);
  return { chat, stdout: stdout.text, stderr: stderr.text };
}

const todo = (todos: [string, string, 'pending' | 'in_progress' | 'done'][]): AgentEvent => ({
  type: 'todo',
  todos: todos.map(([id, content, status]) => ({ id, content, status })),
});

const compaction: AgentEvent = {
  type: 'compaction',
  turn: 3,
  trigger: 'manual',
  tokens_before: 12000,
  tokens_after: 1500,
  summary: 's',
  edits: [],
};

const count = (text: string, part: string) => text.split(part).length - 1;

/** The spinner's label after each event (undefined: stopped). */
function labels(events: AgentEvent[]): (string | undefined)[] {
  const log: string[] = [];
  const spinner: Spinner = {
    start: (label) => void log.push(`start ${label}`),
    stop: () => void log.push('stop'),
  };
  const { chat } = screen({ spinner });
  return events.map((event) => {
    log.length = 0;
    chat.sink(event);
    const last = log.at(-1)!;
    return last.startsWith('start ') ? last.slice(6) : undefined;
  });
}

describe('createChatScreen', () => {
  it('prints each todo update once: the whole list, then the changed items', () => {
    const { chat, stderr } = screen();
    chat.sink(
      todo([
        ['1', 'read the code', 'in_progress'],
        ['2', 'fix the bug', 'pending'],
      ]),
    );
    chat.sink(
      todo([
        ['1', 'read the code', 'done'],
        ['2', 'fix the bug', 'in_progress'],
      ]),
    );
    expect(stderr()).toBe(
      'todo list (0/2 done)\n  ◐ 1. read the code\n  ☐ 2. fix the bug\n  ☑ 1. read the code\n  ◐ 2. fix the bug\n',
    );
  });

  it.each(['xterm-256color', 'dumb'])(
    "at a terminal (TERM=%s) wraps the chat's notes at word boundaries to its width",
    (term) => {
      const { chat, stderr } = screen({ terminal: true, term, columns: 40 });
      chat.notice('execute_command needs approval: `git push --force` asks for confirmation in every mode\n');
      const lines = stderr().split('\n').filter(Boolean);
      expect(lines).toEqual([
        'execute_command needs approval: `git',
        'push --force` asks for confirmation in',
        'every mode',
      ]);
    },
  );

  it('prints a compaction notice once', () => {
    const { chat, stderr } = screen();
    chat.sink(compaction);
    expect(count(stderr(), 'compacted')).toBe(1);
    expect(stderr()).toBe('compacted: the conversation is now a summary: 12000 → 1500 tokens\n');
  });

  it('spins while waiting for the model and for a tool, and stops for text, questions and the end', () => {
    expect(
      labels([
        { type: 'turn_start', turn: 1 },
        { type: 'usage', turn: 1, provider: 'p', model: 'm', input_tokens: 1, output_tokens: 1 },
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

  it('keeps the spinner and its time while the answer shows nothing yet, and stops it at the first text shown', () => {
    const log: string[] = [];
    let first: number | undefined;
    const spinner: Spinner = {
      start: (label, since) => {
        first ??= since;
        log.push(`${label}${since === first ? '' : ' (time reset)'}`);
      },
      stop: () => void log.push('stop'),
    };
    const { chat, stdout } = screen({ spinner, terminal: true });
    chat.sink({ type: 'turn_start', turn: 1 });
    // A code block is drawn when it closes: until then nothing shows, and the wait goes on.
    chat.sink({ type: 'text_delta', turn: 1, delta: '```ts\nconst a' });
    chat.sink({ type: 'text_delta', turn: 1, delta: ' = 1;\n' });
    expect(stdout()).toBe('');
    expect(log).toEqual(['thinking', 'thinking', 'thinking']);
    // The block closes and a paragraph starts: both show, the spinner's line cleared before either is written.
    chat.sink({ type: 'text_delta', turn: 1, delta: '```\nOne long paragraph without' });
    expect(log[3]).toBe('stop');
    expect(log.slice(3)).not.toContain('thinking');
    expect(stdout()).toContain('const a = 1;');
    expect(stdout()).toContain('One long paragraph without');
    // More of the line: no spinner in the middle of the answer's text.
    chat.sink({ type: 'text_delta', turn: 1, delta: ' any newline' });
    expect(log.includes('thinking', 3)).toBe(false);
  });

  it("shows a command's last lines under its tool line at a terminal and keeps the whole for /output", () => {
    const { chat, stderr } = screen({ terminal: true });
    const content = `exit code: 0\nstdout:\n${Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join('\n')}`;
    chat.sink({ type: 'message', role: 'tool', tool_call_id: 'c1', tool_name: 'execute_command', content });
    expect(stderr()).toBe(
      [
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

  it("leaves Keel's notes to the model (turn warnings, loop notes) out of a command's tail and /output", () => {
    const { chat, stderr } = screen({ terminal: true });
    const output = 'exit code: 0\nstdout:\n38\n39\n40';
    const content = `${output}\n\n[Keel: you have made the same call 3 times in a row.]\n\n[Keel: this is the last turn (turn 4 of 4).]`;
    chat.sink({ type: 'message', role: 'tool', tool_call_id: 'c1', tool_name: 'execute_command', content });
    expect(stderr()).toBe(['    38', '    39', '    40', ''].join('\n'));
    expect(chat.lastOutput()).toEqual({ tool: 'execute_command', content: output });
  });

  it("writes the chat's notes and errors to stderr and the output asked for to stdout", () => {
    const { chat, stdout, stderr } = screen();
    chat.notice('new session started\n');
    chat.attachments([{ path: 'notes.txt', bytes: 18, cut: false }], [{ path: 'gone', reason: 'not found' }]);
    chat.status('ollama/m · context 1% of 32.0k · 10 in / 2 out');
    chat.print('no turns yet in this chat\n');
    expect(stderr()).toBe(
      'new session started\nattached notes.txt (18 bytes)\n@gone: not found; sent as text\nollama/m · context 1% of 32.0k · 10 in / 2 out\n',
    );
    expect(stdout()).toBe('no turns yet in this chat\n');
  });

  it('leaves the events of a stream-json chat to the machine output, still following them for /output', () => {
    const { chat, stdout, stderr } = screen({ output: 'stream-json' });
    chat.sink(todo([['1', 'read the code', 'pending']]));
    chat.sink(compaction);
    chat.sink({ type: 'text_delta', turn: 1, delta: 'hi' });
    chat.sink({ type: 'message', role: 'tool', tool_call_id: 'c1', tool_name: 'read_file', content: 'x' });
    expect(stdout() + stderr()).toBe('');
    expect(chat.lastOutput()).toEqual({ tool: 'read_file', content: 'x' });
  });
});

describe('outputTail', () => {
  const numbers = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => String(from + i)).join('\n');
  const tail = (lines: string[], more?: number) =>
    [...(more ? [`… ${more} more line${more === 1 ? '' : 's'} (/output shows all)`] : []), ...lines]
      .map((l) => `    ${l}\n`)
      .join('');

  it.each([
    [
      'a short output whole, without the exit code and label',
      'exit code: 0\nstdout:\na\nb\n',
      tail(['a', 'b']),
    ],
    ['nothing when nothing was printed', 'exit code: 0', ''],
    ['nothing for an empty result', '', ''],
    [
      'seq 1 50: five lines and the 45 printed above them',
      `exit code: 0\nstdout:\n${numbers(1, 50)}\n`,
      tail(['46', '47', '48', '49', '50'], 45),
    ],
    ['six lines: one more', `exit code: 0\nstdout:\n${numbers(1, 6)}`, tail(['2', '3', '4', '5', '6'], 1)],
    [
      'a failed command: the error line and notes before the output are not counted',
      `Error: command exited with code 2\nexit code: 2\n[1 process the command left running in the background was stopped]\nstdout:\n${numbers(1, 8)}`,
      tail(['4', '5', '6', '7', '8'], 3),
    ],
    [
      'both streams: labels kept, not counted',
      `exit code: 1\nstdout:\n${numbers(1, 4)}\nstderr:\nwarn 1\nwarn 2`,
      tail(['3', '4', 'stderr:', 'warn 1', 'warn 2'], 2),
    ],
    [
      'a background command read with command_output',
      `bg1: running\nstdout:\n${numbers(1, 7)}`,
      tail(['3', '4', '5', '6', '7'], 2),
    ],
  ])('shows %s', (_, content, shown) => {
    expect(outputTail(content, 5, plain)).toBe(shown);
  });
});
