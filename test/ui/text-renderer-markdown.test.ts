// The text renderer's terminal forms: the answer as Markdown when asked (a colour terminal), exactly as written
// otherwise, and the chat's one line per tool call.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/events.js';
import { createStyle } from '../../src/ui/style.js';
import { createTextRenderer, type TextRendererOptions } from '../../src/ui/text-renderer.js';
import { terminalScreen } from '../support/terminal-screen.js';

function render(events: AgentEvent[], options: Partial<TextRendererOptions> = {}) {
  let stdout = '';
  let stderr = '';
  const stream = (append: (t: string) => void) =>
    ({
      write: (t: string) => {
        append(t);
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  const emit = createTextRenderer({
    stdout: stream((t) => {
      stdout += t;
    }),
    stderr: stream((t) => {
      stderr += t;
    }),
    style: createStyle(true),
    streamText: true,
    showReasoning: true,
    ...options,
  });
  for (const event of events) emit(event);
  return { stdout, stderr };
}

const answer = (deltas: string[]): AgentEvent[] => [
  { type: 'turn_start', turn: 1 },
  ...deltas.map((delta) => ({ type: 'text_delta', turn: 1, delta }) as AgentEvent),
  { type: 'turn_end', turn: 1, tool_calls: 0 },
];

describe('text renderer', () => {
  it('renders the streamed answer as Markdown when asked, ending its last line', () => {
    const { stdout } = render(answer(['# Hi\n\nsome **bo', 'ld** text']), { markdown: { width: () => 80 } });
    expect(terminalScreen(stdout)).toBe(
      terminalScreen('\x1b[1m\x1b[4mHi\x1b[24m\x1b[22m\n\nsome \x1b[1mbold\x1b[22m text\n'),
    );
    expect(stdout.endsWith('\n')).toBe(true);
  });

  it('writes a note that comes while a line streams above that line, which the next text draws again', () => {
    let screen = '';
    const terminal = {
      write: (t: string) => {
        screen += t;
        return true;
      },
    } as unknown as NodeJS.WritableStream;
    const emit = createTextRenderer({
      stdout: terminal,
      stderr: terminal,
      style: createStyle(false),
      streamText: true,
      showReasoning: true,
      markdown: { width: () => 80 },
    });
    emit({ type: 'turn_start', turn: 1 });
    emit({ type: 'text_delta', turn: 1, delta: 'Half a line' });
    expect(terminalScreen(screen)).toBe('Half a line');
    emit({ type: 'warning', message: 'slow down' });
    expect(terminalScreen(screen)).toBe('warning: slow down');
    emit({ type: 'text_delta', turn: 1, delta: ' and the rest' });
    emit({ type: 'turn_end', turn: 1, tool_calls: 0 });
    expect(terminalScreen(screen)).toBe('warning: slow down\nHalf a line and the rest');
  });

  it('under NO_COLOR (colour off) keeps the structure and bold headings: no raw # or |---|, no colour', () => {
    const table = '# Plan\n\nsome **bold** and `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
    const { stdout } = render(answer([table]), {
      markdown: { width: () => 80 },
      style: createStyle('attributes'),
    });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes written are what is checked
    const sgr = /\x1b\[([\d;]*)m/g;
    // No colour: no foreground (30–39, 90–97) or background (40–49, 100–107) code, 256-colour or truecolour.
    const codes = [...stdout.matchAll(sgr)].flatMap((m) => (m[1] ?? '').split(';'));
    expect(codes.filter((c) => /^(3\d|4\d|9\d|10\d)$/.test(c) && c !== '39')).toEqual([]);
    expect(stdout).toContain('\x1b[1m\x1b[4mPlan\x1b[24m\x1b[22m');
    expect(stdout).toContain('\x1b[1mbold\x1b[22m');
    expect(stdout).not.toContain('# Plan');
    expect(stdout).not.toContain('|---|');
    const plain = stdout.replace(sgr, '');
    expect(plain).toMatch(/^Plan\n/);
    expect(plain).toMatch(/a +│ b/);
  });

  it('without Markdown prints the answer exactly as the model wrote it', () => {
    const { stdout } = render(answer(['# Hi\n\nsome **bo', 'ld** text']));
    expect(stdout).toBe('# Hi\n\nsome **bold** text\n');
  });

  it('in the compact form writes one line per tool call when it ends, and a diff coloured under it', () => {
    const { stderr } = render(
      [
        { type: 'tool_call', turn: 1, id: 'a', name: 'read_file', args: { path: 'a.ts' } },
        {
          type: 'tool_result',
          turn: 1,
          id: 'a',
          name: 'read_file',
          success: true,
          display: 'read a.ts (3 lines)',
          truncated: false,
          metadata: {},
          duration_ms: 3,
        },
        { type: 'tool_call', turn: 1, id: 'b', name: 'edit_file', args: { path: 'a.ts' } },
        {
          type: 'tool_result',
          turn: 1,
          id: 'b',
          name: 'edit_file',
          success: true,
          display: '@@ -1 +1 @@\n-old\n+new',
          truncated: false,
          metadata: {},
          duration_ms: 1500,
        },
      ],
      { compactTools: true, style: createStyle(false) },
    );
    expect(stderr).toBe(
      [
        '✓ read_file path=a.ts → read a.ts (3 lines)',
        '✓ edit_file path=a.ts 1.5 s',
        '    @@ -1 +1 @@',
        '    -old',
        '    +new',
        '',
      ].join('\n'),
    );
  });
});
