// What a run is built from (RunOptions) and what the one assembly (assemble.ts) hands back (Run).
import type { Conversation } from '../agent/conversation.js';
import type { LoopResult } from '../agent/loop.js';
import type { CheckpointChange } from '../checkpoint/checkpointer.js';
import type { GitSpawn } from '../checkpoint/shadow-git.js';
import type { LoadedConfig } from '../config/load.js';
import type { McpServerConfig } from '../config/mcp-schema.js';
import type { Approve } from '../core/approval.js';
import type { AskUser } from '../core/ask-user.js';
import type { AgentEvent, EventSink, EventStream } from '../core/events.js';
import type { FileAccess } from '../core/file-access.js';
import type { Model } from '../core/model.js';
import type { PromptCommand } from '../core/prompt-command.js';
import type { CommandRunner } from '../core/runner.js';
import type { Subagents } from '../core/subagents.js';
import type { TodoItem } from '../core/todos.js';
import type { McpServers } from '../mcp/start.js';
import type { ApprovalMemory } from '../safety/approval-memory.js';
import type { HintWords } from '../safety/modes.js';
import type { ExecutionMode } from '../safety/policy.js';
import type { Redactor } from '../safety/redact.js';
import type { Workspace } from '../safety/workspace.js';
import type { SessionRecord } from '../session/session-file.js';
import type { SessionStore } from '../session/session-store.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/tool.js';
import type { RunSource } from './config.js';
import type { Executor } from './executor.js';
import type { SessionRequest } from './session.js';

export interface RunOptions extends RunSource {
  /** The execution mode, chosen once the config is loaded (its default_mode may decide it). */
  mode: (loaded: LoadedConfig) => ExecutionMode | Promise<ExecutionMode>;
  loaded?: LoadedConfig; // when the caller loaded it already for this source and env (keel run's provider check)
  /** Allow rules for this run (--allow). */
  allow?: readonly string[];
  /** Asked when the policy says "ask"; absent: a headless run, where "ask" means "deny". */
  approve?: Approve;
  /** Answers ask_user (the chat's prompt); absent: the tool tells the model nobody can answer. */
  askUser?: AskUser;
  /** false (--no-ask-user): ask_user is not offered at all. */
  askUserTool?: boolean;
  /** The "always" answers a restarted chat carries over; default: new, with the workspace's kept ones. */
  approvals?: ApprovalMemory;
  /** --dry-run: changes are reported, not made, so no checkpoint is taken either. */
  dryRun?: boolean;
  /** --sandbox (true) or --no-sandbox (false); absent: safety.sandbox, else the mode's default. */
  sandbox?: boolean;
  /** The tools offered (default: the built-in ones, the custom ones and the MCP servers'); keel init offers none. */
  tools?: Tool[];
  /**
   * false: the first request needs nothing the provider would be asked about first (Ollama's /api/show: tool support,
   * context length), so it is not asked (a short question without tools, keel ask).
   */
  probeModel?: boolean;
  /** Replaces the coding agent's system prompt (keel init asks for a file's content, not actions). */
  systemPrompt?: string;
  /** Save the session (false: --no-session), and which saved one to continue. */
  session?: SessionRequest;
  /** A plan file's instructions: seeded on the todo board (ids 1, 2, …). */
  plan?: readonly string[];
  /** How refusals name the ways to allow a call (the library's options); default: the command line's flags. */
  hintWords?: HintWords;
  /** What renders the run (the CLI's outputs; the runtime prints nothing); machine-readable ones pass `redact`. */
  outputs?: (model: Model, redact: Redactor) => EventSink;
  /** Sees every event before the outputs (the chat's screen, following a json or stream-json chat). */
  observe?: EventSink;
  /** The environment Keel runs in (credentials, XDG dirs, what commands inherit); default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** An editor's view of the files (keel acp), which the file tools read and write through; default: the disk. */
  files?: FileAccess;
  terminal?: CommandRunner; // an editor's terminals (keel acp), for commands that would not run in the sandbox
  /** MCP servers beside mcp.servers (those an editor gives a keel acp session); a configured name keeps its own. */
  mcpServers?: Record<string, McpServerConfig>;
  /** keel run --agent: the run is this agent (its tools, model, mode never wider than the run's, and prompt). */
  agent?: string;
  /** How the checkpoint store's git processes start; default: spawned from this process. */
  startGit?: GitSpawn;
}

export interface Run {
  loaded: LoadedConfig;
  /** The execution mode the policy applies. */
  mode: ExecutionMode;
  /** The chat's "always" answers (this session's and the workspace's kept ones); undefined when headless. */
  approvals?: ApprovalMemory;
  /** Whether shell commands run in the sandbox. */
  sandboxed: boolean;
  workspace: Workspace;
  model: Model;
  registry: ToolRegistry;
  /** The one path of every tool call: policy, approvals, hooks, checkpoints, caps, events. */
  executor: Executor;
  conversation: Conversation;
  /** The run's events: what `outputs` and `observe` see, the audit log and the session store. */
  events: EventStream;
  /** What the run redacts from all it saves or prints for machines; an entry point's own text goes through it. */
  redact: Redactor;
  emit: (event: AgentEvent) => void;
  /** Runs every shell command of the agent; killAll stops them (and the MCP servers) when Keel exits on a signal. */
  runner: CommandRunner;
  /** The MCP servers of mcp.servers (their prompts are slash commands); undefined when none is enabled. */
  mcp?: McpServers;
  /** The session's id (what hooks are told), saved or not. */
  sessionId: string;
  /** Where this run or chat is saved; undefined under --no-session. */
  session?: SessionStore;
  /** The agents the task tool may run (built-in, user, project); undefined when the run offers no task tool. */
  subagents?: Subagents;
  /** The session taken up by --continue or --resume, as it was saved. */
  resumed?: SessionRecord;
  /** The todo list as it stands (todo_write's, a plan's steps, or a resumed session's). */
  todos: () => TodoItem[];
  /** Runs the loop on the conversation as it stands. */
  run(signal: AbortSignal): Promise<LoopResult>;
  /** A checkpoint `keel undo` can go back to, before a change Keel makes outside a tool (keel init's write). */
  checkpoint(change: CheckpointChange): Promise<void>;
  /**
   * `/compact [focus]`: the model summarises the conversation, which continues from the summary. false: nothing to
   * compact (no message yet), nothing asked of the model.
   */
  compact(focus: string | undefined, signal: AbortSignal): Promise<boolean>;
  /** Slash commands that become a user message (MCP prompts; the chat adds custom command files). */
  promptCommands: () => PromptCommand[];
  /** Ends the run's commands and MCP servers and closes the session cleanly (its active marker goes). */
  close(): Promise<void>;
}
