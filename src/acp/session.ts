// One ACP session: one Keel run assembled by the runtime (the CLI's flags with the session's cwd), whose
// conversation each `session/prompt` continues with `run.run(signal)`, as the chat does with each typed message.
// Its events reach the editor as `session/update`s in order; the policy's questions as permission requests.
import { stat } from 'node:fs/promises';
import type { SessionModeState, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { LoopResult } from '../agent/loop.js';
import type { McpServerConfig } from '../config/mcp-schema.js';
import type { Approve } from '../core/approval.js';
import type { AgentEvent, EventSink } from '../core/events.js';
import type { FileAccess } from '../core/file-access.js';
import type { CommandRunner } from '../core/runner.js';
import type { Run } from '../runtime/assemble.js';
import type { SessionRequest } from '../runtime/session.js';
import type { ApprovalMemory } from '../safety/approval-memory.js';
import { type ExecutionMode, MODE_SUMMARY, MODES } from '../safety/modes.js';
import type { UserPrompt } from './prompt.js';
import { replacedText } from './replaced-text.js';
import { eventUpdates, newFileCalls, planEntries, replayUpdates } from './updates.js';

/** What a session asks of its host to assemble a run. */
export interface OpenRequest {
  cwd: string;
  /** Absent: the mode the CLI's flags and the config choose. */
  mode?: ExecutionMode;
  /** A saved session to take up, by its whole id (`session/load`, or the same session in another mode). */
  resume?: string;
  /** A new session's id: the one the editor already holds, when its mode changes before anything was saved. */
  id?: string;
  /** The session goes on in another mode: its session_start hooks ran already. */
  started?: boolean;
  approve: Approve;
  /** The "always" answers a session keeps when its mode changes. */
  approvals?: ApprovalMemory;
  /** Every event of the run (the host passes them through the run's redactor first). */
  sink: EventSink;
  /** The editor's files, when it offers them. */
  files?: FileAccess;
  /** The editor's terminals, when it offers them. */
  terminal?: CommandRunner;
  /** The MCP servers the editor gave the session, beside mcp.servers. */
  mcpServers?: Record<string, McpServerConfig>;
}

export type OpenRun = (request: OpenRequest) => Promise<Run>;

/** The saved session a request's run writes: always saved; the editor holds whole ids, so a load names one exactly. */
export function sessionRequestOf(request: OpenRequest): SessionRequest {
  return {
    save: true,
    ...(request.resume !== undefined ? { resume: request.resume, exact: true } : {}),
    ...(request.id !== undefined ? { id: request.id } : {}),
    ...(request.started ? { started: true } : {}),
  };
}

/** What the session needs of the connection. */
export interface SessionPeer {
  update(sessionId: string, update: SessionUpdate): Promise<void>;
  /** Asks the editor; answers deny when it cancels or the signal aborts. */
  approve(sessionId: string): Approve;
  /** The editor's files for this session, when it offers them. */
  files(sessionId: () => string): FileAccess | undefined;
  /** The editor's terminals for this session's commands, when it offers them. */
  terminal(sessionId: () => string): CommandRunner | undefined;
  log(message: string): void;
}

export function modeState(current: ExecutionMode): SessionModeState {
  return {
    currentModeId: current,
    availableModes: MODES.map((mode) => ({ id: mode, name: mode, description: MODE_SUMMARY[mode] })),
  };
}

export function isMode(id: string): id is ExecutionMode {
  return (MODES as readonly string[]).includes(id);
}

export function stopReason(result: LoopResult, cancelled: boolean): StopReason {
  if (cancelled || result.reason === 'interrupted') return 'cancelled';
  if (result.reason === 'turn-limit') return 'max_turn_requests';
  return 'end_turn';
}

export class AcpSession {
  private turn: AbortController | undefined;
  /** The updates sent so far, in order: a prompt's answer waits for them. */
  private sent: Promise<void> = Promise.resolve();
  private root: string;
  private readonly files: FileAccess | undefined;
  private readonly terminal: CommandRunner | undefined;

  private constructor(
    private run: Run,
    readonly id: string,
    private readonly cwd: string,
    private readonly open: OpenRun,
    private readonly peer: SessionPeer,
    private readonly mcpServers: Record<string, McpServerConfig> | undefined,
  ) {
    this.root = run.workspace.root;
    this.files = peer.files(() => this.id);
    this.terminal = peer.terminal(() => this.id);
  }

  /** A new session, or (resume) a saved one whose conversation is shown again before this resolves. */
  static async start(
    open: OpenRun,
    peer: SessionPeer,
    cwd: string,
    resume?: string,
    mcpServers?: Record<string, McpServerConfig>,
  ): Promise<AcpSession> {
    let session: AcpSession | undefined;
    const pending: AgentEvent[] = [];
    // Events raised while the run is assembled (warnings) wait for the session to know its id.
    const sink: EventSink = (event) => {
      if (session) session.follow(event);
      else pending.push(event);
    };
    let sessionId = resume;
    const id = () => sessionId ?? '';
    const files = peer.files(id);
    const terminal = peer.terminal(id);
    const run = await open({
      cwd,
      sink,
      approve: (request, signal) =>
        session ? session.ask(request, signal) : peer.approve(id())(request, signal),
      ...(files ? { files } : {}),
      ...(terminal ? { terminal } : {}),
      ...(resume !== undefined ? { resume } : {}),
      ...(mcpServers ? { mcpServers } : {}),
    });
    // The id the editor holds (or is about to be given) stays the session's through loads and mode changes.
    sessionId = resume ?? run.session?.id ?? `${Date.now()}`;
    session = new AcpSession(run, sessionId, cwd, open, peer, mcpServers);
    for (const event of pending) session.follow(event);
    if (resume !== undefined) {
      const newFiles = newFileCalls(run.resumed?.events ?? []);
      session.queue(replayUpdates(run.conversation.messages, run.workspace.root, newFiles));
      const todos = run.todos();
      if (todos.length > 0) session.send({ sessionUpdate: 'plan', entries: planEntries(todos) });
      await session.sent;
    }
    return session;
  }

  get modes(): SessionModeState {
    return modeState(this.run.mode);
  }

  private send(update: SessionUpdate): void {
    this.queue([update]);
  }

  /** Updates sent after every earlier one, in order; those still to be worked out wait their turn. */
  private queue(updates: SessionUpdate[] | Promise<SessionUpdate[]>): void {
    const failed = (error: unknown) => this.peer.log(`session/update failed: ${String(error)}`);
    this.sent = this.sent
      .then(async () => {
        for (const update of await updates) await this.peer.update(this.id, update).catch(failed);
      })
      .catch(failed);
  }

  private follow(event: AgentEvent): void {
    if (event.type === 'warning') this.peer.log(`warning: ${event.message}`);
    // An overwrite is shown against the text it replaces, read now: the call is announced before the tool runs.
    if (event.type === 'tool_call' && event.name === 'write_file') {
      const signal = this.turn?.signal ?? new AbortController().signal;
      const replaced = replacedText(this.run, this.files, event.args, signal);
      this.queue(replaced.then((text) => eventUpdates(event, this.root, text)));
      return;
    }
    this.queue(eventUpdates(event, this.root));
  }

  /** The editor is asked once it has every update before the question (the call's, with its diff). */
  private readonly ask: Approve = async (request, signal) => {
    await this.sent;
    return this.peer.approve(this.id)(request, signal);
  };

  /** One user turn: the prompt as the user's message, the loop until it answers, is cancelled or stops. */
  async prompt({ content, images }: UserPrompt): Promise<StopReason> {
    if (this.turn) throw new Error('a prompt is already running in this session');
    const turn = new AbortController();
    this.turn = turn;
    try {
      this.run.conversation.push({ role: 'user', content, ...(images.length > 0 ? { images } : {}) });
      const result = await this.run.run(turn.signal);
      await this.sent;
      return stopReason(result, turn.signal.aborted);
    } finally {
      this.turn = undefined;
    }
  }

  cancel(): void {
    this.turn?.abort();
  }

  /** Another mode: the run is assembled again on the same conversation (as the chat's Shift+Tab does). */
  async setMode(mode: ExecutionMode): Promise<void> {
    if (this.turn) throw new Error('the mode cannot change while a prompt runs');
    if (mode === this.run.mode) return;
    const old = this.run;
    // The same session either way: taken up when saved, else a new one under its id with the messages in memory.
    const saved =
      old.session !== undefined && (await stat(old.session.file).catch(() => undefined)) !== undefined;
    const next = await this.open({
      cwd: this.cwd,
      mode,
      sink: (event) => this.follow(event),
      approve: this.ask,
      ...(this.files ? { files: this.files } : {}),
      ...(this.terminal ? { terminal: this.terminal } : {}),
      ...(old.approvals ? { approvals: old.approvals } : {}),
      ...(this.mcpServers ? { mcpServers: this.mcpServers } : {}),
      ...(saved ? { resume: this.id } : { id: this.id }),
      started: true,
    });
    if (!saved) next.conversation.restore(old.conversation.messages);
    this.run = next;
    this.root = next.workspace.root;
    await old.close().catch(() => {});
  }

  async close(): Promise<void> {
    this.cancel();
    await this.run.close();
  }
}
