// How the chat's runs start: before the first prompt, a crashed session offered for resuming and the banner's facts
// read from the config, so the prompt is drawn while the run is assembled (chat.ts awaits the run only when an input
// needs it); each run's options; after `/model`, a mode change or `/resume`, the next run and its options.
import { realpath, stat } from 'node:fs/promises';
import type { LoadedConfig } from '../config/load.js';
import { dataDir } from '../config/paths.js';
import type { Approve } from '../core/approval.js';
import type { AskUser } from '../core/ask-user.js';
import type { EventSink } from '../core/events.js';
import { configuredModelName } from '../providers/index.js';
import type { Run } from '../runtime/assemble.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import { carryConversation } from '../runtime/conversation.js';
import type { ApprovalMemory } from '../safety/approval-memory.js';
import type { ExecutionMode } from '../safety/modes.js';
import { crashedSessions, dismissCrashed } from '../session/marker.js';
import { sessionDir } from '../session/session-list.js';
import type { ChatScreen } from '../ui/chat-screen.js';
import { modelSwitch } from './chat-commands.js';
import type { GlobalOptions } from './global-options.js';
import { type ModeFlags, resolveMode } from './mode-options.js';
import { startRun } from './run-options.js';

export interface ChatOptions extends GlobalOptions, ModeFlags {
  dryRun?: boolean;
  /** --sandbox / --no-sandbox. */
  sandbox?: boolean;
  /** False under --no-session. */
  session?: boolean;
  continue?: boolean;
  resume?: string;
  /** A first message, sent as if typed (`keel "…"`, `keel chat "…"`). */
  message?: string[];
}

/**
 * A session whose process died (its active marker left behind) is reported once; on a terminal the user may
 * resume it at once. Returns the id to resume, if they said yes.
 */
export async function offerCrashed(
  options: { cwd?: string; continue?: boolean; resume?: string },
  screen: ChatScreen,
  interactive: boolean,
): Promise<string | undefined> {
  if (options.continue || options.resume !== undefined) return undefined;
  const dir = sessionDir(dataDir(process.env), await realpath(await resolveWorkspaceDir(options.cwd)));
  const crashed = await crashedSessions(dir);
  if (crashed.length === 0) return undefined;
  for (const id of crashed) await dismissCrashed(dir, id);
  // Only a session that can be read can be resumed: one cut short before its first record holds nothing.
  const { listSessions } = await import('../session/session-sidecar.js');
  const sessions = await listSessions(dir);
  const id = crashed.find((c) => sessions.some((s) => s.id === c));
  if (id === undefined) return undefined;
  // --continue takes the latest session, which a later run may have made another one.
  const how = sessions[0]?.id === id ? 'keel chat --continue' : `keel chat --resume ${id}`;
  // --resume names the session already; --continue does not.
  const which = how === 'keel chat --continue' ? ` (session ${id})` : '';
  screen.notice(`the last session ended unexpectedly; resume it with ${how}${which}\n`);
  if (!interactive) return undefined;
  const answer = await screen.reader.read('resume it now? [y/N] ');
  return answer !== null && /^y(es)?$/i.test(answer.trim()) ? id : undefined;
}

/** The banner's first line: `keel chat · <model> · <mode> mode · <workspace>` without the `keel chat`. */
export interface Headline {
  model: string;
  workspace: string;
}

/**
 * The banner of a chat whose prompt may come before its run is assembled: a person types, the screen prints the
 * events (no machine output to keep in order), no saved session's history is shown first, and the config names the
 * model (a replay's cassette names it only when read). Undefined: the chat assembles its run first, as it always did.
 */
export async function earlyHeadline(
  chat: { cwd?: string; continue?: boolean; output: string; interactive: boolean },
  resume: string | undefined,
  loaded: LoadedConfig,
  mode: ExecutionMode,
): Promise<Headline | undefined> {
  if (!chat.interactive || chat.output !== 'text' || chat.continue || resume !== undefined) return undefined;
  const model = configuredModelName(loaded.config.provider);
  if (model === undefined) return undefined;
  // The workspace's root as the run's jail resolves it: the directory, symlinks resolved.
  return { model: `${model} · ${mode} mode`, workspace: await realpath(await resolveWorkspaceDir(chat.cwd)) };
}

/** The options after `/model <arg>`: another provider drops the old one's --base-url. */
export function switchedOptions<T extends { provider?: string; model?: string; baseUrl?: string }>(
  current: T,
  arg: string,
  provider: string,
): T {
  const next = modelSwitch(arg, provider);
  if (next.provider === undefined || next.provider === provider)
    return next.model === undefined ? current : { ...current, model: next.model };
  const { baseUrl: _, model: __, ...rest } = current;
  return { ...rest, provider: next.provider, ...(next.model ? { model: next.model } : {}) } as T;
}

/** What a chat's run asks and tells through the chat's screen: approvals, ask_user's questions, and its events. */
export interface ChatRunIo {
  approve: Approve;
  askUser: AskUser;
  follow: EventSink;
}

/**
 * Starts one of the chat's runs. `approvals`: this session's "always" answers, kept when the conversation goes on;
 * `known`: the config and mode already read for the banner.
 */
export type ChatRunStart = (
  opts: ChatOptions,
  session: { continue?: boolean; resume?: string; id?: string; started?: true },
  approvals?: ApprovalMemory,
  known?: { loaded: LoadedConfig; mode: ExecutionMode },
) => Promise<Run>;

export function startChatRun(
  opts: ChatOptions,
  io: ChatRunIo,
  session: { continue?: boolean; resume?: string; id?: string; started?: true },
  approvals?: ApprovalMemory,
  known?: { loaded: LoadedConfig; mode: ExecutionMode },
): Promise<Run> {
  return startRun(opts, {
    ...(known ? { loaded: known.loaded } : {}),
    mode: async (loaded) => known?.mode ?? resolveMode(opts, loaded.config, 'interactive'),
    ...(approvals ? { approvals } : {}),
    allow: opts.allow,
    streamText: opts.output === 'text',
    approve: io.approve,
    askUser: io.askUser,
    dryRun: opts.dryRun,
    sandbox: opts.sandbox,
    session: { save: opts.session !== false, ...session },
    // The screen prints the events; a json or stream-json chat prints them as machine output, the screen follows.
    ...(opts.output === 'text' ? { output: io.follow } : { observe: io.follow }),
  });
}

/**
 * The run that takes the chat over after `change` (another model, mode or saved session; none: a new conversation),
 * with the options it started from.
 */
export async function switchRun(
  old: Run,
  current: ChatOptions,
  change: { model?: string; mode?: ExecutionMode; resume?: string },
  start: ChatRunStart,
): Promise<{ next: Run; options: ChatOptions; same: boolean }> {
  let opts =
    change.model === undefined ? current : switchedOptions(current, change.model, old.model.provider);
  // --allow-dangerous means full: another mode replaces it.
  if (change.mode !== undefined) opts = { ...opts, mode: change.mode, allowDangerous: false };
  // Another model or mode continues the same conversation: the saved session (once it has a first line),
  // or the messages in memory; this session's "always" answers stay.
  const saved =
    old.session && (await stat(old.session.file).catch(() => undefined)) ? old.session : undefined;
  const session = nextSession(change, { id: old.sessionId, saved: saved !== undefined });
  const same = session.started === true;
  const next = await start(opts, session, same ? old.approvals : undefined);
  if (same && !saved) {
    next.conversation.restore(old.conversation.messages);
    carryConversation(next.conversation, old.model.provider, next.model.provider, next.emit);
  }
  return { next, options: opts, same };
}

/** What a restarted chat asks of its next run's session (the options' `session`). */
export interface NextSession {
  resume?: string;
  id?: string;
  /** The same session goes on: its session_start hooks ran already, and its usage counts on. */
  started?: true;
}

/**
 * The session after `/model` or a mode switch (the same one: taken up when saved, else kept under its id with the
 * messages in memory), `/resume <id>` (that one) or `/clear` (a new one).
 */
export function nextSession(
  change: { model?: string; mode?: ExecutionMode; resume?: string },
  current: { id: string; saved: boolean },
): NextSession {
  if (change.resume !== undefined) return { resume: change.resume };
  if (change.model === undefined && change.mode === undefined) return {};
  return { ...(current.saved ? { resume: current.id } : { id: current.id }), started: true };
}
