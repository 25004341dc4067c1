// The session a run or chat writes to: a new one named by its start time, or the one --continue / --resume take up
// (read back whole, so the model gets the same history); none under --no-session.
import { dataDir } from '../config/paths.js';
import type { Model } from '../core/model.js';
import type { Redactor } from '../safety/redact.js';
import { type ResumeRequest, sessionToResume } from '../session/resume.js';
import { readSession, SessionError, type SessionRecord, sessionPath } from '../session/session-file.js';
import { loadSessionImages } from '../session/session-images.js';
import { sessionDir } from '../session/session-list.js';
import { createSessionStore, type SessionStore } from '../session/session-store.js';
import { summarize } from '../session/session-summary.js';

/** `20261123-101908`: sorts by time; names runs, their saved outputs and checkpoints. */
export function runStamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

let lastStamp = '';
let sameSecond = 0;

/**
 * `<stamp>-<pid>`, and `-2`, `-3`… for further runs of this process in the same second (the library, keel acp and
 * sub-agents open several): two runs must never share a session, its checkpoints or its undo.
 */
export function newRunId(): string {
  const stamp = runStamp();
  sameSecond = stamp === lastStamp ? sameSecond + 1 : 0;
  lastStamp = stamp;
  return `${stamp}-${process.pid}${sameSecond > 0 ? `-${sameSecond + 1}` : ''}`;
}

/** Whether a run is saved (false: --no-session), and under which id: a saved session it takes up, or a new one. */
export interface SessionRequest extends ResumeRequest {
  save: boolean;
  /**
   * A new session's id instead of the run's: one a program already holds (keel acp's session or the chat's, whose
   * mode or model changed before anything was saved).
   */
  id?: string;
  /**
   * The session went on in this process before, in a run now replaced (the chat's /model or mode switch, keel acp's
   * mode change): its session_start hooks ran then, so they do not run again.
   */
  started?: boolean;
}

export interface OpenedSession {
  /** This process's run id (saved outputs, checkpoints); a new session is saved under it. */
  runId: string;
  /** The id the session is saved under: the resumed one's, else the one asked for, else runId. */
  id: string;
  resumed?: SessionRecord;
  store?: SessionStore;
}

export async function openSession(options: {
  workspace: string;
  env: NodeJS.ProcessEnv;
  model: Model;
  redact: Redactor;
  session?: SessionRequest;
}): Promise<OpenedSession> {
  const runId = newRunId();
  const dir = sessionDir(dataDir(options.env), options.workspace);
  const resumeId = options.session ? await sessionToResume(dir, options.session) : undefined;
  const resumed = resumeId === undefined ? undefined : await readSession(sessionPath(dir, resumeId));
  if (resumeId !== undefined && !resumed) throw new SessionError(`session ${resumeId} cannot be read`);
  if (resumed && resumeId !== undefined) await loadSessionImages(resumed, sessionPath(dir, resumeId));
  const id = resumeId ?? options.session?.id ?? runId;
  const { model } = options;
  const store =
    options.session?.save === false
      ? undefined
      : createSessionStore({
          file: sessionPath(dir, id),
          resumed: resumed !== undefined,
          ...(resumed ? { summary: summarize(resumed) } : {}),
          redact: options.redact,
          // No price: each request's usage event carries its own cost, at the price of the model that served it.
          meta: { id, workspace: options.workspace, provider: model.provider, model: model.modelId },
        });
  return { runId, id, ...(resumed ? { resumed } : {}), ...(store ? { store } : {}) };
}
