// How the chat's runs start: before the first prompt, a crashed session offered for resuming and the banner's facts
// read from the config, so the prompt is drawn while the run is assembled (chat.ts awaits the run only when an input
// needs it); after `/model`, the options of the next run.
import { realpath } from 'node:fs/promises';
import type { LoadedConfig } from '../config/load.js';
import { dataDir } from '../config/paths.js';
import { configuredModelName } from '../providers/index.js';
import { resolveWorkspaceDir } from '../runtime/config.js';
import type { ExecutionMode } from '../safety/modes.js';
import { crashedSessions, dismissCrashed } from '../session/marker.js';
import { sessionDir } from '../session/session-list.js';
import type { ChatScreen } from '../ui/chat-screen.js';
import { modelSwitch } from './chat-commands.js';

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
  screen.notice(
    `the last session ended unexpectedly; resume it with keel chat --continue (session ${crashed[0]})\n`,
  );
  if (!interactive) return undefined;
  const answer = await screen.reader.read('resume it now? [y/N] ');
  return answer !== null && /^y(es)?$/i.test(answer.trim()) ? crashed[0] : undefined;
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
