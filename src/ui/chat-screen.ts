// The chat's screen and its one owner: every byte the chat writes to stdout or stderr goes through here — each
// event of a turn (formatted by the text renderer keel run uses, so a todo update or a notice prints once, in one
// format), the spinner, a command's last output lines, the prompt and approval questions, and the notes, output,
// errors and status lines of the chat and its slash commands.
import type { Approve } from '../core/approval.js';
import type { AskUser } from '../core/ask-user.js';
import type { AgentEvent, EventSink } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { subagentRuns } from '../session/subagent-runs.js';
import { printedOutput } from '../tools/command-text.js';
import { createApprovalPrompt } from './approval-prompt.js';
import type { CommandOutput } from './command-output.js';
import { editText } from './editor.js';
import { type Completer, LineReader } from './line-reader.js';
import { createQuestionPrompt } from './question-prompt.js';
import { sanitize } from './sanitize.js';
import { renderHistory } from './session-history.js';
import { createSpinner, noSpinner, type Spinner, waitAfter } from './spinner.js';
import { richTerminal, type Style, streamStyle } from './style.js';
import { createTextRenderer } from './text-renderer.js';
import { asciiTerminal } from './todo-list.js';
import { wrappingStream } from './wrap.js';

/** Lines of a command's output shown under its tool line; /output shows the whole. */
const OUTPUT_TAIL = 5;
/** Tools whose result is a command's output. */
const COMMAND_TOOLS = new Set(['execute_command', 'command_output']);

export interface ChatScreenOptions {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** A person types: stdin is a terminal. */
  interactive: boolean;
  /**
   * --output. `text`: the screen prints the events. `json` and `stream-json`: the events are machine output
   * printed elsewhere; the screen only follows them (the spinner, /output) and prints the chat's own lines.
   */
  output: 'text' | 'json' | 'stream-json';
  completer?: Completer;
  /** Earlier input, newest first. */
  history?: string[];
  /** Replaces the terminal's spinner (tests). */
  spinner?: Spinner;
}

export interface ChatScreen extends CommandOutput {
  /** Consumes the event stream: prints it (text output) and keeps the spinner and /output current. */
  sink: EventSink;
  /** The input: messages, answers and Ctrl-C; its prompt and echo are on this screen. */
  reader: LineReader;
  /** Asks the approval questions of tool calls the policy flagged. */
  approve: Approve;
  /** Puts ask_user's questions to the user, options numbered. */
  askUser: AskUser;
  /** The first lines of an interactive chat: the model and the workspace, then the keys. */
  banner(model: string, workspace: string): void;
  /** A resumed session: its id and its past turns, shortly. */
  /** `events`: the saved session's, whose sub-agent tool calls are listed under their task. */
  resumed(id: string, messages: readonly Message[], events?: readonly AgentEvent[]): void;
  /** The files `@path` attached to a message, and the mentions sent as plain text. */
  attachments(
    attached: readonly { path: string; bytes: number; cut: boolean }[],
    skipped: readonly { path: string; reason: string }[],
  ): void;
  /** The dim line after each turn. */
  status(line: string): void;
  /** The spinner with `label` while the chat waits on work of its own (a command expanding, compaction). */
  wait(label: string): void;
  idle(): void;
  /** Leaving: the shell's prompt goes on a line of its own. */
  endLine(): void;
  /** The chat ends with an error while its prompt may be up: the prompt's line is wiped and the input ends. */
  dropPrompt(): void;
  /** The last tool result as the model read it, for /output. */
  lastOutput(): { tool: string; content: string } | undefined;
  close(): void;
}

/**
 * The last `count` lines a command printed (its result without the exit code line and section labels the model
 * reads), indented and dim, with how many printed lines were left out.
 */
/**
 * A tool result without the notes Keel appended to it for the model (`\n\n[Keel: …]`: turn warnings, loop notes),
 * which are not what the tool printed; the chat shows turn warnings as warning lines of their own.
 */
export function withoutKeelNotes(content: string): string {
  let text = content;
  for (
    let at = text.lastIndexOf('\n\n[Keel: ');
    at >= 0 && text.endsWith(']');
    at = text.lastIndexOf('\n\n[Keel: ')
  )
    text = text.slice(0, at);
  return text;
}

export function outputTail(content: string, count: number, style: Style): string {
  const printed = printedOutput(sanitize(content));
  if (printed === '') return '';
  const lines = printed.split('\n');
  const shown = lines.slice(-count).map((l) => `    ${style.dim(l)}`);
  // Both streams keep their labels: those above the tail are not lines the command printed.
  const hidden = lines.slice(0, -count).filter((l) => l !== 'stdout:' && l !== 'stderr:').length;
  const more =
    hidden > 0
      ? [`    ${style.dim(`… ${hidden} more line${hidden === 1 ? '' : 's'} (/output shows all)`)}`]
      : [];
  return `${[...more, ...shown].join('\n')}\n`;
}

export function createChatScreen(options: ChatScreenOptions): ChatScreen {
  const { stdout, stderr, env, interactive } = options;
  // The chat's own look (spinner, compact tool lines, output tails) needs a person at a capable terminal.
  const rich = interactive && richTerminal(stderr, env);
  const style = streamStyle(stderr, env);
  const reader = new LineReader(options.stdin, stderr, interactive, {
    ...(options.completer ? { completer: options.completer } : {}),
    ...(options.history ? { history: options.history } : {}),
  });
  // Lines typed while a turn runs are not echoed (line-reader.ts): the spinner's line says what waits.
  const spinner =
    options.spinner ??
    (rich ? createSpinner(stderr, style.dim, () => sanitize(reader.typedAhead())) : noSpinner);
  // Whatever the chat writes clears the spinner's line first, and counts as shown (see show()).
  let printed = false;
  const owned = (stream: NodeJS.WriteStream) =>
    ({
      write: (text: string) => {
        spinner.stop();
        printed = true;
        return stream.write(text);
      },
    }) as unknown as NodeJS.WritableStream;
  const out = owned(stdout);
  const errOut = owned(stderr);
  // At a person's terminal, what the chat writes wraps at word boundaries to its width, read at each line; a dumb
  // terminal has a width too (only the answer is left as the model wrote it there).
  const columns = interactive && stderr.isTTY ? () => stderr.columns || 80 : undefined;
  const notes = columns ? wrappingStream(errOut, columns) : errOut;
  const approve = createApprovalPrompt({
    reader,
    stderr: notes,
    ...(columns ? { columns } : {}),
    style,
    // `e`: the terminal goes to $EDITOR until it exits; the chat's input is paused meanwhile.
    edit: (text, file) => reader.handOver(() => editText(text, { file, env })),
  });
  const askUser = createQuestionPrompt({ reader, stderr, style });
  const render =
    options.output === 'text'
      ? createTextRenderer({
          stdout: out,
          stderr: errOut,
          style,
          streamText: true,
          showReasoning: Boolean(stderr.isTTY),
          ascii: asciiTerminal(env),
          // TERM=dumb and a pipe get the answer exactly as the model wrote it (NO_COLOR only drops the colour).
          ...(richTerminal(stdout, env) ? { markdown: { width: () => stdout.columns || 80 } } : {}),
          compactTools: rich,
          ...(columns ? { columns } : {}),
        })
      : undefined;
  let last: { tool: string; content: string } | undefined;
  let waiting: { label: string; since: number } | undefined;
  const err = (text: string) => void notes.write(text);

  // Anything an event prints clears the spinner's line first (owned()); the wait it leaves brings the spinner back
  // below, or keeps it turning when nothing was printed.
  const show = (event: AgentEvent) => {
    const next = waitAfter(event);
    printed = false;
    render?.(event);
    if (event.type === 'message' && event.role === 'tool' && event.parent === undefined) {
      last = { tool: event.tool_name, content: withoutKeelNotes(event.content) };
      if (render && rich && COMMAND_TOOLS.has(event.tool_name))
        notes.write(outputTail(last.content, OUTPUT_TAIL, style));
    }
    // Streamed text the screen still holds (a table or code block until it closes) shows nothing: the wait goes on.
    const held =
      render !== undefined && !printed && (event.type === 'text_delta' || event.type === 'reasoning_delta');
    if (next === null && !held) waiting = undefined;
    else if (typeof next === 'string') waiting = { label: next, since: Date.now() };
    if (waiting) spinner.start(waiting.label, waiting.since);
    else spinner.stop();
  };
  // An event while the prompt waits (a warning of the run assembled as the user types) goes above it.
  const sink = (event: AgentEvent) => reader.above(() => show(event));

  return {
    sink,
    reader,
    approve,
    askUser,
    notice: err,
    print: (text) => void out.write(text),
    banner: (model, workspace) => {
      err(`keel chat · ${sanitize(model)} · ${sanitize(workspace)}\n`);
      err(style.dim('/help for commands · @path attaches a file · Ctrl-D quits\n'));
    },
    resumed: (id, messages, events) =>
      err(`resuming session ${sanitize(id)}\n${renderHistory(messages, style, subagentRuns(events ?? []))}`),
    attachments: (attached, skipped) => {
      for (const a of attached)
        err(style.dim(`attached ${sanitize(a.path)} (${a.bytes} bytes${a.cut ? ', cut' : ''})\n`));
      for (const s of skipped) err(style.dim(`@${sanitize(s.path)}: ${sanitize(s.reason)}; sent as text\n`));
    },
    status: (line) => err(`${style.dim(line)}\n`),
    wait: (label) => {
      waiting = undefined;
      spinner.start(label);
    },
    idle: () => {
      waiting = undefined;
      spinner.stop();
    },
    endLine: () => err('\n'),
    dropPrompt: () => reader.close(true),
    lastOutput: () => last,
    close: () => {
      spinner.stop();
      reader.close();
    },
  };
}
