// What the chat shows beyond the text renderer: the spinner while the model or a tool works, the todo list, a
// compaction notice, the last lines of a command's output, and the status line after each turn. It sees each
// event before the renderer prints it, so the spinner's line is cleared before anything else is written.
import type { AgentEvent } from '../core/events.js';
import type { TodoItem } from '../core/todos.js';
import { sanitize } from './sanitize.js';
import type { Spinner } from './spinner.js';
import type { Style } from './style.js';

/** Lines of a command's output shown under its tool line; /output shows the whole. */
const OUTPUT_TAIL = 5;
/** Tools whose result is a command's output. */
const COMMAND_TOOLS = new Set(['execute_command', 'command_output']);

export interface ChatViewOptions {
  stderr: NodeJS.WritableStream;
  style: Style;
  spinner: Spinner;
  /** Show the tail of command output (the compact tool lines are on). */
  outputTails: boolean;
}

export interface ChatView {
  sink: (event: AgentEvent) => void;
  /** The last tool result as the model read it, for /output. */
  lastOutput(): { tool: string; content: string } | undefined;
}

/** The todo list, one item a line: done ones dim and ticked, the current one bold. */
export function formatTodos(todos: readonly TodoItem[], style: Style): string {
  if (todos.length === 0) return `${style.dim('todo list cleared')}\n`;
  const lines = todos.map((t) => {
    const text = sanitize(t.content);
    if (t.status === 'done') return `  ${style.green('✓')} ${style.dim(text)}`;
    if (t.status === 'in_progress') return `  ${style.cyan('▸')} ${style.bold(text)}`;
    return `  ${style.dim('○')} ${text}`;
  });
  const done = todos.filter((t) => t.status === 'done').length;
  return `${style.dim(`todo ${done}/${todos.length}`)}\n${lines.join('\n')}\n`;
}

/** The last `count` lines of a command result, indented and dim, with how many were left out. */
export function outputTail(content: string, count: number, style: Style): string {
  const lines = sanitize(content).replace(/\n+$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return '';
  const shown = lines.slice(-count).map((l) => `    ${style.dim(l)}`);
  const hidden = lines.length - count;
  const more =
    hidden > 0
      ? [`    ${style.dim(`… ${hidden} more line${hidden === 1 ? '' : 's'} (/output shows all)`)}`]
      : [];
  return `${[...more, ...shown].join('\n')}\n`;
}

export function createChatView(options: ChatViewOptions): ChatView {
  const { stderr, style, spinner } = options;
  let last: { tool: string; content: string } | undefined;
  // What the chat waits for, if anything: the spinner shows it.
  let waiting: { label: string; since: number } | undefined;
  const wait = (label: string) => {
    waiting = { label, since: Date.now() };
  };

  const sink = (event: AgentEvent) => {
    // Whatever comes next prints: the spinner's line goes first, and comes back below it if still waiting.
    spinner.stop();
    switch (event.type) {
      case 'turn_start':
        wait('thinking');
        break;
      case 'tool_call':
        wait(`running ${sanitize(event.name)}`);
        break;
      case 'approval_answered':
        if (event.approved) wait('running');
        break;
      case 'text_delta':
      case 'reasoning_delta':
      case 'approval_requested':
      case 'tool_result':
      case 'turn_end':
      case 'run_end':
      case 'error':
        waiting = undefined;
        break;
      case 'message':
        if (event.role !== 'tool') break;
        last = { tool: event.tool_name, content: event.content };
        if (options.outputTails && COMMAND_TOOLS.has(event.tool_name))
          stderr.write(outputTail(event.content, OUTPUT_TAIL, style));
        break;
      case 'todo':
        stderr.write(formatTodos(event.todos, style));
        break;
      case 'compaction':
        stderr.write(
          `${style.cyan('compacted')} the conversation${event.trigger === 'auto' ? ' (near the context limit)' : ''}: ${event.tokens_before} → ${event.tokens_after} tokens\n`,
        );
        break;
      default:
        break;
    }
    if (waiting) spinner.start(waiting.label, waiting.since);
  };
  return { sink, lastOutput: () => last };
}
