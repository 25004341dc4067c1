// `keel sessions fork <id> [--at <n>]` and the chat's /fork [n]: a new session from a saved one's conversation up
// to and including the user's message n and the replies to it (default: all of it); the original stays as it was.
// Prints the new id on stdout; `keel chat --resume <id>` continues it.
import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { preview, userTurns } from '../agent/rewind.js';
import { dataDir } from '../config/paths.js';
import { ExitCode, UsageError } from '../core/errors.js';
import type { Message } from '../core/messages.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { newRunId } from '../runtime/session.js';
import { writeFork } from '../session/fork.js';
import {
  findSession,
  readSession,
  SessionError,
  sessionMessages,
  sessionPath,
} from '../session/session-file.js';
import { sessionDir } from '../session/session-list.js';
import { type CommandOutput, processOutput } from '../ui/command-output.js';
import { sanitize } from '../ui/sanitize.js';
import type { GlobalOptions } from './global-options.js';
import { reportFailure } from './report.js';

/** How many messages a fork at the user's message `at` (1-based; default the last) keeps: up to the next one. */
export function forkPoint(
  messages: readonly Message[],
  at?: number,
): { keep: number; at: number; of: number } {
  const turns = userTurns(messages);
  if (turns.length === 0) throw new UsageError('the session has no message of yours to fork from');
  const n = at ?? turns.length;
  if (!Number.isInteger(n) || n < 1 || n > turns.length) {
    throw new UsageError(`no message ${at} in this session: it has ${turns.length} (1 to ${turns.length})`, {
      hint: 'keel sessions show <id> prints the conversation',
    });
  }
  const next = turns[n];
  return { keep: next ? next.index : messages.length, at: n, of: turns.length };
}

/** Forks the session saved in `file`; prints the new id (stdout) and what it holds (notice). */
export async function forkSessionFile(
  file: string,
  at: number | undefined,
  out: CommandOutput,
  json = false,
): Promise<string> {
  const record = await readSession(file);
  if (!record) throw new SessionError(`session ${file} cannot be read`);
  const messages = sessionMessages(record);
  const point = forkPoint(messages, at);
  const turn = userTurns(messages)[point.at - 1];
  const id = await writeFork(dirname(file), record, point.keep, newRunId());
  out.print(json ? `${JSON.stringify({ id, from: record.meta.id, at: point.at })}\n` : `${id}\n`);
  out.notice(
    sanitize(
      `forked session ${record.meta.id} up to your message ${point.at} of ${point.of} ("${preview(turn?.text ?? '', 50)}") and its replies; continue it with keel chat --resume ${id}\n`,
    ),
  );
  return id;
}

export async function sessionsForkCommand(
  id: string,
  options: GlobalOptions & { at?: number },
  out: CommandOutput = processOutput,
): Promise<number> {
  try {
    const dir = sessionDir(dataDir(process.env), await realpath(await resolveWorkspaceDir(options.cwd)));
    const found = await findSession(dir, id);
    await forkSessionFile(sessionPath(dir, found), options.at, out, options.output !== 'text');
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, { debug: options.debug, json: options.output !== 'text', out });
  }
}
