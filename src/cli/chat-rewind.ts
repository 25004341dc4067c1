// The chat's /undo and /rewind: the conversation taken back to before one of the user's messages (recorded in the
// session, so a resumed session does not bring it back) and, for /undo and `/rewind <n> --files`, the files as
// they were when that message was sent (from the checkpoints; the user's own /save exports are kept).
import type { Conversation } from '../agent/conversation.js';
import { preview, rewindConversation, type UserTurn, userTurns } from '../agent/rewind.js';
import type { AgentEvent } from '../core/events.js';
import type { Run } from '../runtime/run-types.js';
import { messageTimes } from '../session/message-times.js';
import { readSession } from '../session/session-file.js';

/** What going back needs of the chat; chat.ts provides it. */
export interface RewindChat {
  conversation: Conversation;
  emit(event: AgentEvent): void;
  flush(): Promise<void>;
  /** The session's file; undefined under --no-session. */
  sessionFile(): string | undefined;
  note(text: string): void;
  print(text: string): void;
  /** Asks on a terminal (null: Ctrl-C or the end of input); undefined when the chat reads piped input. */
  ask?: (prompt: string) => Promise<string | null>;
  /** The workspace back as it was at `time`; false when Keel changed nothing since. */
  restoreFilesAt(time: string): Promise<boolean>;
  /** `keel undo`'s own choice (the newest run), where a message's time is unknown (--no-session). */
  undoLastRun(): Promise<void>;
  /** The message back in the input line for editing. */
  putBack(text: string): void;
}

/** The parts of a RewindChat that come from the run (its conversation, events and session) and the screen. */
export const runRewindParts = (
  run: Run,
  screen: { notice(text: string): void; print(text: string): void },
): Pick<RewindChat, 'conversation' | 'emit' | 'flush' | 'sessionFile' | 'note' | 'print'> => ({
  conversation: run.conversation,
  emit: run.emit,
  flush: run.events.flush,
  sessionFile: () => run.session?.file,
  note: screen.notice,
  print: screen.print,
});

/** When the message at `index` was recorded, from the session (in step with the conversation after a flush). */
async function sentAt(chat: RewindChat, index: number): Promise<string | undefined> {
  const file = chat.sessionFile();
  if (!file) return undefined;
  await chat.flush();
  const record = await readSession(file);
  if (!record) return undefined;
  const times = messageTimes(record);
  return times.length === chat.conversation.messages.length ? times[index] : undefined;
}

/** Files first (a failed restore leaves the conversation as it was), then the conversation. */
async function goBack(chat: RewindChat, turn: UserTurn, files: boolean, reason: 'undo' | 'rewind') {
  if (files) {
    const time = await sentAt(chat, turn.index);
    if (time === undefined) {
      if (reason === 'undo') await chat.undoLastRun();
      else
        chat.note(
          'files left as they are: without a saved session (--no-session) Keel cannot date that message\n',
        );
    } else if (!(await chat.restoreFilesAt(time))) {
      chat.note('files: Keel has changed none since that message\n');
    }
  }
  chat.emit(rewindConversation(chat.conversation, turn.index, reason));
  await chat.flush();
}

/** /undo: the last turn's files and the turn itself, so the model no longer remembers the undone work. */
export async function undoTurn(chat: RewindChat): Promise<void> {
  const last = userTurns(chat.conversation.messages).at(-1);
  if (!last) {
    chat.note(
      'nothing to undo in this conversation; keel undo --list shows the checkpoints of earlier runs\n',
    );
    return;
  }
  await goBack(chat, last, true, 'undo');
  chat.note(`undid the turn "${preview(last.text)}": the conversation continues from before it\n`);
}

/** `/rewind [<n> [--files]]`: argument parsing, the list, the questions. */
export function parseRewind(args: string): { n?: number; files: boolean } | undefined {
  const words = args.split(/\s+/).filter(Boolean);
  const files = words.includes('--files');
  const rest = words.filter((w) => w !== '--files');
  if (rest.length === 0) return files ? undefined : { files };
  if (rest.length > 1 || !/^\d+$/.test(rest[0] ?? '')) return undefined;
  return { n: Number(rest[0]), files };
}

/** The numbered list /rewind shows, oldest first so the newest is next to the prompt. */
export function rewindList(turns: readonly UserTurn[]): string {
  const width = String(turns.length).length;
  const lines = turns.map((t, i) => `  ${String(i + 1).padStart(width)}  ${preview(t.text)}`);
  return `your messages (newest last):\n${lines.join('\n')}\n`;
}

/** The answers to "the conversation only or the files too?". */
const rewindScopes = new Map<string, 'conversation' | 'files'>([
  ['c', 'conversation'],
  ['conversation', 'conversation'],
  ['f', 'files'],
  ['files', 'files'],
]);

export async function rewind(chat: RewindChat, args: string): Promise<void> {
  const parsed = parseRewind(args);
  const usage = 'usage: /rewind [<n> [--files]] (n: a message of the list /rewind shows)\n';
  if (!parsed) return chat.note(usage);
  const turns = userTurns(chat.conversation.messages);
  if (turns.length === 0) return chat.note('nothing to rewind: no message sent yet\n');
  let { n, files } = parsed;
  if (n === undefined) {
    chat.print(rewindList(turns));
    if (!chat.ask) return chat.note(usage);
    const picked = await askUntil(
      chat,
      `go back to before which message? [1-${turns.length}, Enter: cancel] `,
      (answer) =>
        /^\d+$/.test(answer) && Number(answer) >= 1 && Number(answer) <= turns.length
          ? Number(answer)
          : undefined,
      `answer a message number from 1 to ${turns.length}, or Enter to cancel\n`,
    );
    if (picked === undefined) return chat.note('rewind cancelled\n');
    n = picked;
    const how = await askUntil(
      chat,
      'rewind the conversation only (c) or the conversation and files (f)? [c/f, Enter: cancel] ',
      (answer) => rewindScopes.get(answer.toLowerCase()),
      'answer c (the conversation only) or f (the files too), or Enter to cancel\n',
    );
    if (how === undefined) return chat.note('rewind cancelled\n');
    files = how === 'files';
  }
  const turn = turns[n - 1];
  if (!turn || n < 1) return chat.note(`no message ${n}: /rewind lists ${turns.length} (1 is the oldest)\n`);
  await goBack(chat, turn, files, 'rewind');
  chat.note(
    `rewound to before message ${n}${files ? ', files included' : ' (files unchanged)'}: ${turns.length - n + 1} of your messages taken back\n`,
  );
  chat.putBack(turn.text);
}

/**
 * Asks until an answer reads as one of the choices, as the approval question does: an empty answer and Ctrl-C or
 * the end of input (null) cancel (undefined); anything else is said and asked again.
 */
async function askUntil<T>(
  chat: RewindChat,
  prompt: string,
  choice: (answer: string) => T | undefined,
  again: string,
): Promise<T | undefined> {
  for (;;) {
    const answer = (await chat.ask?.(prompt))?.trim();
    if (!answer) return undefined;
    const chosen = choice(answer);
    if (chosen !== undefined) return chosen;
    chat.note(again);
  }
}
