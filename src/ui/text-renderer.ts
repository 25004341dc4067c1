// Renders the event stream for people: the answer on stdout, tool activity and notes on stderr. keel run, ask and
// init print through it, and the chat's screen (chat-screen.ts) formats its events with it: one format for both.
// Everything that came from the model, a tool or a server goes through sanitize() before it is styled and printed.
import type { AgentEvent, EventSink } from '../core/events.js';
import { clipLine } from '../core/text.js';
import type { TodoItem } from '../core/todos.js';
import { createMarkdownStream, type MarkdownStream } from './markdown-stream.js';
import { planText } from './plan-answer.js';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';
import { renderTodoUpdate } from './todo-list.js';
import { wrappingStream } from './wrap.js';

export interface TextRendererOptions {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  style: Style;
  /** Write text to stdout as it arrives (a terminal, or the chat REPL). Otherwise only the final answer goes to stdout. */
  streamText: boolean;
  showReasoning: boolean;
  /** Checklist marks in ASCII (`[x]`) rather than box glyphs (a dumb terminal). */
  ascii?: boolean;
  /**
   * Render the streamed answer as Markdown (a colour terminal), wrapped to the terminal's width as each answer starts;
   * absent: plain text, as it came.
   */
  markdown?: { width: () => number };
  /** The chat's form: one line per tool call, written when it ends, with a file change's diff coloured. */
  compactTools?: boolean;
  /** A terminal's width, read as each line is written: stderr's lines are wrapped at word boundaries to fit it. */
  columns?: () => number;
  /** Plan mode: the answer is the plan (the last todo list) above the model's rationale. Needs streamText false. */
  planAnswer?: boolean;
}

/** One short line of a tool call's arguments: `path=src/a.ts content=<120 bytes>`. */
export function summariseArgs(args: unknown): string {
  if (typeof args !== 'object' || args === null) return typeof args === 'string' ? clipLine(args, 80) : '';
  return Object.entries(args as Record<string, unknown>)
    .map(([key, value]) => {
      if (typeof value === 'string')
        return value.length > 80 || value.includes('\n')
          ? `${key}=<${value.length} chars>`
          : `${key}=${value}`;
      return `${key}=${clipLine(JSON.stringify(value) ?? '', 40)}`;
    })
    .join(' ');
}

/** `4 s`, `0.5 s`, `30 s`. */
function formatDelay(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds < 10 ? Number(seconds.toFixed(1)) : Math.round(seconds)} s`;
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n    ');
}

/** A unified diff's added lines green, removed red, hunk headers cyan. */
export function colourDiff(diff: string, style: Style): string {
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return style.dim(line);
      if (line.startsWith('+')) return style.green(line);
      if (line.startsWith('-')) return style.red(line);
      if (line.startsWith('@@')) return style.cyan(line);
      return style.dim(line);
    })
    .join('\n');
}

export function createTextRenderer(options: TextRendererOptions): EventSink {
  const { stdout, style } = options;
  const stderr = options.columns ? wrappingStream(options.stderr, options.columns) : options.stderr;
  let turnText = '';
  let atLineStart = true;
  let reasoningOpen = false;
  let citations: { url: string; title?: string }[] = [];
  let continuing = false;
  let todos: TodoItem[] | undefined;
  let markdown: MarkdownStream | undefined;
  const calls = new Map<string, string>();
  const subagent = subagentLines(style);

  const closeReasoning = () => {
    if (reasoningOpen) stderr.write('\n');
    reasoningOpen = false;
  };
  /** A note while the answer streams: above the answer's unfinished line, which the next text draws again below it. */
  const aside = (text: string) => {
    markdown?.lift();
    stderr.write(text);
  };
  const endStreamedLine = () => {
    markdown?.end();
    markdown = undefined;
    if (options.streamText && !atLineStart) stdout.write('\n');
    atLineStart = true;
  };

  return (event: AgentEvent) => {
    // A sub-agent's work folds under its task: one indented line per tool call, its notes; never its answer text.
    if (event.parent !== undefined) {
      const line = subagent(event);
      if (line) {
        closeReasoning();
        endStreamedLine();
        stderr.write(line);
      }
      return;
    }
    switch (event.type) {
      case 'turn_start':
        // A continued answer (cut off by the output limit) keeps accumulating into one. Citations gather over the
        // turns until an answer lists them: a search's results arrive a turn before the answer citing them.
        if (!continuing) turnText = '';
        continuing = false;
        break;
      case 'conversation_pruned':
        aside(`${style.yellow('warning:')} conversation pruned to fit the context: ${event.summary}\n`);
        break;
      case 'compaction':
        aside(
          `${style.cyan('compacted:')} ${event.trigger === 'auto' ? 'the context was nearly full; ' : ''}the conversation is now a summary: ${event.tokens_before} → ${event.tokens_after} tokens\n`,
        );
        break;
      case 'citation':
        if (!citations.some((c) => c.url === event.url))
          citations.push({ url: event.url, title: event.title });
        break;
      case 'reasoning_delta':
        if (!options.showReasoning) break;
        reasoningOpen = true;
        aside(style.dim(sanitize(event.delta)));
        break;
      case 'text_delta':
        closeReasoning();
        turnText += event.delta;
        if (options.streamText && event.delta && options.markdown) {
          markdown ??= createMarkdownStream({
            write: (text) => {
              stdout.write(text);
              atLineStart = text.endsWith('\n');
            },
            style,
            width: options.markdown.width(),
            columns: options.markdown.width,
          });
          markdown.push(event.delta);
        } else if (options.streamText && event.delta) {
          const shown = sanitize(event.delta);
          stdout.write(shown);
          atLineStart = shown.endsWith('\n');
        }
        break;
      case 'tool_call':
        closeReasoning();
        endStreamedLine();
        if (!options.streamText && turnText.trim()) stderr.write(`${style.dim(sanitize(turnText.trim()))}\n`);
        turnText = '';
        if (options.compactTools) {
          calls.set(event.id, summariseArgs(event.args));
          // A task's sub-agent lines follow, so its own line comes first.
          if (event.name === 'task') stderr.write(`${style.cyan('●')} ${taskHeader(event.args, style)}\n`);
          break;
        }
        stderr.write(
          `${style.cyan('●')} ${style.bold(sanitize(event.name))} ${style.dim(sanitize(summariseArgs(event.args)))}\n`,
        );
        break;
      case 'tool_result':
        if (options.compactTools) {
          stderr.write(compactResult(event, calls.get(event.id) ?? '', style));
          calls.delete(event.id);
          break;
        }
        // Multi-line displays (a file change's diff) stay indented under their tool call, coloured as in the chat.
        if (event.success) {
          const [first = '', ...rest] = sanitize(event.display).split('\n');
          const body = rest.length > 0 ? `\n    ${indent(colourDiff(rest.join('\n'), style))}` : '';
          stderr.write(`  ${style.green('✓')} ${style.dim(first)}${body}\n`);
        } else stderr.write(`  ${style.red('✗')} ${indent(sanitize(event.error ?? event.display))}\n`);
        break;
      case 'turn_end':
        closeReasoning();
        if (event.continued) continuing = true;
        else if (event.tool_calls === 0) {
          if (options.streamText) endStreamedLine();
          else {
            const plan = options.planAnswer && todos?.length ? `Plan:\n${planText(todos)}` : '';
            const answer = [plan, turnText.trim()].filter(Boolean).join('\n\n');
            if (answer) stdout.write(`${sanitize(answer)}\n`);
          }
          if (citations.length > 0) stdout.write(formatSources(citations));
          citations = [];
        } else endStreamedLine();
        break;
      case 'retry':
        // Text already streamed to stdout cannot be taken back; end its line so the retried answer starts clean.
        closeReasoning();
        endStreamedLine();
        turnText = '';
        stderr.write(
          `${style.yellow(sanitize(event.reason))}, retrying in ${formatDelay(event.delay_ms)} (${event.attempt}/${event.max})\n`,
        );
        break;
      case 'todo':
        closeReasoning();
        endStreamedLine();
        stderr.write(renderTodoUpdate(todos, event.todos, style, options.ascii === true));
        todos = event.todos;
        break;
      case 'warning':
        aside(`${style.yellow('warning:')} ${sanitize(event.message)}\n`);
        break;
      case 'status':
        aside(`${style.dim(sanitize(event.message))}\n`);
        break;
      case 'error':
        closeReasoning();
        endStreamedLine();
        stderr.write(`${style.red('error:')} ${sanitize(event.message)}\n`);
        if (event.hint) stderr.write(`  ${style.dim(`hint: ${sanitize(event.hint)}`)}\n`);
        break;
      case 'run_end':
        closeReasoning();
        endStreamedLine();
        if (event.reason === 'turn-limit') {
          stderr.write(
            `${style.red('error:')} stopped after ${event.turns} turn${event.turns === 1 ? '' : 's'} without a final answer (the turn limit)\n  ${style.dim('hint: raise it with --max-turns or agent.max_turns, or narrow the task')}\n`,
          );
        } else if (event.reason === 'interrupted') {
          stderr.write(`${style.yellow('interrupted')}\n`);
        }
        break;
      default:
        break;
    }
  };
}

/**
 * A finished tool call on one line: mark, name, arguments, outcome and time; a multi-line display (a file
 * change's diff) follows it, indented and coloured.
 */
function compactResult(
  event: Extract<AgentEvent, { type: 'tool_result' }>,
  args: string,
  style: Style,
): string {
  const mark = event.success ? style.green('✓') : style.red('✗');
  const text = sanitize(event.success ? event.display : (event.error ?? event.display));
  const [first = '', ...rest] = text.split('\n');
  const time = event.duration_ms >= 1000 ? ` ${style.dim(formatDelay(event.duration_ms))}` : '';
  const head = `${mark} ${style.bold(sanitize(event.name))} ${style.dim(clipLine(sanitize(args), 80))}`;
  if (rest.length === 0)
    return `${head} ${style.dim('→')} ${event.success ? first : style.red(first)}${time}\n`;
  const body = event.success ? colourDiff(text, style) : text;
  return `${head}${time}\n    ${body.replace(/\n/g, '\n    ')}\n`;
}

/** The answer's cited sources, numbered: "Sources:" then "[1] title — url". */
export function formatSources(citations: { url: string; title?: string }[]): string {
  const lines = citations.map((c, i) => `[${i + 1}] ${c.title ? `${c.title} — ${c.url}` : c.url}`);
  return sanitize(`\nSources:\n${lines.join('\n')}\n`);
}

/** `task explore: find the config loader`: what a task line says before its sub-agent's lines. */
function taskHeader(args: unknown, style: Style): string {
  const a = (typeof args === 'object' && args !== null ? args : {}) as {
    agent?: unknown;
    description?: unknown;
  };
  const agent = typeof a.agent === 'string' ? a.agent : 'default';
  const what = typeof a.description === 'string' ? a.description : '';
  return `${style.bold('task')} ${style.dim(sanitize(clipLine(`${agent}: ${what}`, 100)))}`;
}

/**
 * A sub-agent's events as lines under its task, indented one step per level of nesting (`T1/T2`): each tool call
 * once it ends, warnings and errors. The sub-agent's text is its answer, which the task's own result shows.
 */
export function subagentLines(style: Style): (event: AgentEvent) => string | undefined {
  const args = new Map<string, string>();
  return (event) => {
    const parent = event.parent ?? '';
    const pad = '    '.repeat(parent.split('/').length);
    switch (event.type) {
      case 'tool_call':
        args.set(`${parent} ${event.id}`, summariseArgs(event.args));
        // A nested task gets its own line first, as the run's do.
        return event.name === 'task'
          ? `${pad}${style.cyan('●')} ${taskHeader(event.args, style)}\n`
          : undefined;
      case 'tool_result': {
        const key = `${parent} ${event.id}`;
        const shown = args.get(key) ?? '';
        args.delete(key);
        const mark = event.success ? style.green('✓') : style.red('✗');
        const text =
          sanitize(event.success ? event.display : (event.error ?? event.display)).split('\n')[0] ?? '';
        const head = `${mark} ${style.bold(sanitize(event.name))} ${style.dim(clipLine(sanitize(shown), 60))}`;
        return `${pad}${head} ${style.dim('→')} ${clipLine(text, 80)}\n`;
      }
      case 'warning':
        return `${pad}${style.yellow('warning:')} ${sanitize(event.message)}\n`;
      case 'error':
        return `${pad}${style.red('error:')} ${sanitize(event.message)}\n`;
      default:
        return undefined;
    }
  };
}
