// Wires the pieces for run and chat: config, workspace, policy, tools, model, conversation and outputs.
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { compact } from '../agent/compaction.js';
import { findContextFiles } from '../agent/context-files.js';
import { Conversation } from '../agent/conversation.js';
import { type LoopOptions, runLoop } from '../agent/loop.js';
import { systemPrompt } from '../agent/system-prompt.js';
import { type CheckpointChange, createCheckpointer } from '../checkpoint/checkpointer.js';
import { type LoadedConfig, loadConfig } from '../config/load.js';
import { cacheDir, userContextFilePath } from '../config/paths.js';
import { configSecrets } from '../config/secrets.js';
import type { Approve } from '../core/approval.js';
import { UsageError } from '../core/errors.js';
import type { AgentEvent, EventSink } from '../core/events.js';
import { createEventStream } from '../core/events.js';
import type { Message, ToolCall } from '../core/messages.js';
import type { Model } from '../core/model.js';
import type { PromptCommand } from '../core/prompt-command.js';
import type { CommandRunner } from '../core/runner.js';
import { TodoBoard } from '../core/todo-board.js';
import type { TodoItem } from '../core/todos.js';
import { createHooks } from '../extend/hooks.js';
import { type McpServers, startMcpServers, withServers } from '../mcp/start.js';
import { planTodos } from '../plan/progress.js';
import { promptBudget } from '../providers/capabilities.js';
import { createModel } from '../providers/index.js';
import { ApprovalMemory } from '../safety/approval-memory.js';
import { auditLogPath, createAuditLog } from '../safety/audit.js';
import { COMMAND_TOOL, type ExecutionMode } from '../safety/policy.js';
import { createReadJail } from '../safety/read-jail.js';
import { createRedactor } from '../safety/redact.js';
import { createTripwire } from '../safety/tripwire.js';
import type { Workspace } from '../safety/workspace.js';
import { resumedConversation, resumedTodos } from '../session/resume.js';
import type { SessionRecord } from '../session/session-file.js';
import type { SessionStore } from '../session/session-store.js';
import { assessToolCall, executeToolCall, formatForModel, type PreparedCall } from '../tools/executor.js';
import { createOutputStore, removeOldOutputs } from '../tools/output-cap.js';
import { createRegistry, defaultTools, type ToolRegistry } from '../tools/registry.js';
import { cleanStaleTempFiles } from '../tools/temp-files.js';
import type { Tool, ToolContext, ToolLimits } from '../tools/tool.js';
import type { GlobalOptions } from './global-options.js';
import { outputSink } from './outputs.js';
import { openSafety } from './safety-setup.js';
import { openSession } from './session-setup.js';

export interface Agent {
  loaded: LoadedConfig;
  workspace: Workspace;
  model: Model;
  registry: ToolRegistry;
  conversation: Conversation;
  emit: (event: AgentEvent) => void;
  /** Runs every shell command of the agent; killAll stops them when Keel exits on a signal. */
  runner: CommandRunner;
  /** The MCP servers of mcp.servers (their prompts are slash commands); undefined when none is enabled. */
  mcp?: McpServers;
  /** Where this run or chat is saved; undefined under --no-session. */
  session?: SessionStore;
  /** The session taken up by --continue or --resume, as it was saved. */
  resumed?: SessionRecord;
  /** The todo list as it stands (todo_write's, a plan's steps, or a resumed session's). */
  todos: () => TodoItem[];
  /** Runs the loop on the conversation as it stands. */
  run(signal: AbortSignal): ReturnType<typeof runLoop>;
  /** A checkpoint `keel undo` can go back to, before a change Keel makes outside a tool (keel init's write). */
  checkpoint(change: CheckpointChange): Promise<void>;
  /** `/compact [focus]`: the model summarises the conversation, which continues from the summary. */
  compact?: (focus: string | undefined, signal: AbortSignal) => Promise<void>;
  /** Slash commands that become a user message (custom command files, MCP prompts), for the chat. */
  promptCommands?: () => PromptCommand[];
}

export interface SetupOptions {
  mode: (loaded: LoadedConfig) => ExecutionMode;
  /** Allow rules for this run (--allow). */
  allow?: readonly string[];
  /** Write answer text to stdout as it streams. */
  streamText: boolean;
  /** false: reasoning is never shown (`keel ask --no-reasoning`); otherwise it is, dimmed, on a terminal. */
  reasoning?: boolean;
  approve?: Approve;
  /** --dry-run: changes are reported, not made, so no checkpoint is taken either. */
  dryRun?: boolean;
  /** --sandbox (true) or --no-sandbox (false); absent: safety.sandbox, else the mode's default. */
  sandbox?: boolean;
  /** The tools offered (default: the built-in ones); keel init offers none. */
  tools?: Tool[];
  /** Replaces the coding agent's system prompt (keel init asks for a file's content, not actions). */
  systemPrompt?: string;
  /** false: the final answer is not printed (the command does something else with it). */
  printAnswer?: boolean;
  /** Save the session (false: --no-session), and which saved one to continue. */
  session?: { save: boolean; continue?: boolean; resume?: string };
  /** End a text-mode run with one summary line on stderr (`keel run`). */
  summary?: boolean;
  /** A plan file's instructions: seeded on the todo board (ids 1, 2, …), their progress reported to the end. */
  plan?: readonly string[];
  /** Prints the events in place of the --output choice: the chat's screen, which owns every byte it shows. */
  output?: EventSink;
  /** Sees every event before the outputs print it (the chat's screen, following a json or stream-json chat). */
  observe?: EventSink;
}

/** What the model reads of one tool result at most: an eighth of the conversation budget (4 bytes a token), never more than configured. */
export function outputCap(configured: number, budgetTokens: number): number {
  return Math.min(configured, Math.max(4096, Math.floor(budgetTokens / 8) * 4));
}

export async function resolveWorkspaceDir(cwd: string | undefined): Promise<string> {
  const dir = resolve(cwd ?? process.cwd());
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined) {
    throw new UsageError(`workspace directory not found: ${dir}`, {
      hint: 'pass an existing directory with --cwd',
    });
  }
  if (!info.isDirectory()) {
    throw new UsageError(`--cwd is not a directory: ${dir}`, {
      hint: 'pass the directory to work in, not a file',
    });
  }
  return dir;
}

export async function loadConfigFor(options: GlobalOptions): Promise<LoadedConfig> {
  const workspace = await resolveWorkspaceDir(options.cwd);
  return loadConfig({
    workspace,
    // Paths given on the command line are relative to where keel was started, not to the workspace.
    configFile: options.config === undefined ? undefined : resolve(options.config),
    env: process.env,
    flags: {
      provider: options.provider,
      model: options.model,
      baseUrl: options.baseUrl,
      maxTurns: options.maxTurns,
      cassette: options.cassette === undefined ? undefined : resolve(options.cassette),
    },
  });
}

export async function setupAgent(options: GlobalOptions, setup: SetupOptions): Promise<Agent> {
  const loaded = await loadConfigFor(options);
  const { config } = loaded;
  const mode = setup.mode(loaded);
  const { state, outputRoot, workspace, commands, policy } = await openSafety(loaded, {
    dir: await resolveWorkspaceDir(options.cwd),
    mode,
    sandbox: setup.sandbox,
    allow: setup.allow,
  });
  const runner = commands.runner;
  // A write killed between its temp file and the rename leaves the temp file; remove dead runs' leftovers
  // in the background (it never throws, and touches only journaled temp files of processes that are gone).
  void cleanStaleTempFiles(state);
  const registry = createRegistry(setup.tools ?? defaultTools());
  // Without command execution the shell tool goes, and with it the tools that follow background commands.
  if (!config.safety.allow_command_execution) {
    for (const name of [COMMAND_TOOL, 'command_output', 'kill_command']) registry.remove(name);
  }
  // Tools defined in config (tools.custom); their loader brings the bash parser, so only when there are some.
  if (setup.tools === undefined && Object.keys(config.tools.custom).length > 0) {
    const { addConfigTools } = await import('../extend/config-tools.js');
    await addConfigTools(registry, loaded, workspace.root);
  }
  // One redactor for everything lasting or printed for machines: sessions, audit log, cassettes, JSON output.
  const redact = createRedactor(process.env, [...configSecrets(config), ...(loaded.secrets ?? [])]);
  const model = await createModel(config.provider, {
    record: options.record === undefined ? undefined : resolve(options.record),
    env: process.env,
    redact,
  });
  // Every command and file change, run or refused, is appended to the audit log (read-only tools are not).
  const audit = createAuditLog({
    file: auditLogPath(state),
    cwd: workspace.root,
    redact,
    audited: (name) => {
      const tool = registry.get(name);
      return tool !== undefined && tool.safety !== 'safe';
    },
    onError: (error) =>
      queueMicrotask(() =>
        emit({
          type: 'warning',
          message: `audit log not written: ${error instanceof Error ? error.message : String(error)}`,
        }),
      ),
  });
  const opened = await openSession({ workspace: workspace.root, model, redact, session: setup.session });
  const { runId: sessionId, resumed, store: session } = opened;
  const events = createEventStream(
    ...(setup.observe ? [setup.observe] : []),
    setup.output ?? outputSink(options, model, setup, redact),
    audit,
    ...(session ? [session.sink] : []),
  );
  const emit = events.emit;
  for (const message of loaded.warnings) emit({ type: 'warning', message });
  // A plan's steps, else the resumed session's list; the first run shows it before its first request.
  const todos = new TodoBoard(emit);
  if (setup.plan) todos.restore(planTodos(setup.plan));
  else if (resumed) todos.restore(resumedTodos(resumed));
  if (commands.warning) emit({ type: 'warning', message: commands.warning });
  const readJail = createReadJail(process.env);
  const hooks = createHooks(config.hooks, {
    workspace: workspace.root,
    sessionId: opened.id,
    env: process.env,
    emit,
    jail: { reads: readJail, sources: loaded.sources },
  });
  await hooks?.sessionStart();
  // A model with a smaller window than the configured budget prunes before the server would cut the prompt.
  const budget = promptBudget(model.capabilities);
  const maxTokens = Math.min(config.agent.conversation.max_tokens, budget ?? Number.POSITIVE_INFINITY);
  const dryRun = setup.dryRun === true;
  const sandbox = commands.sandboxed ? { network: config.safety.sandbox_network } : undefined;
  // Context files go through the read jail; a skipped one is named once per run, not at each compaction.
  const warned = new Set<string>();
  const warnOnce = (message: string) =>
    warned.size < warned.add(message).size && emit({ type: 'warning', message });
  // Built again after compaction, so context files edited since start-up are read and sent again.
  const buildSystemPrompt = async () =>
    setup.systemPrompt ??
    systemPrompt({
      workspace: workspace.root,
      mode,
      commands: config.safety.allow_command_execution,
      allowRules: [...config.safety.commands.allow, ...(setup.allow ?? [])],
      sandbox,
      dryRun,
      planTool: registry.get('todo_write') !== undefined,
      contextFiles: await findContextFiles({
        workspace: workspace.root,
        userFile: userContextFilePath(process.env),
        jail: readJail,
        warn: warnOnce,
      }),
    });
  const conversation = new Conversation(await buildSystemPrompt(), {
    maxTokens,
    minRetainTurns: config.agent.conversation.min_retain_turns,
    pruneThreshold: config.agent.conversation.prune_threshold,
  });
  if (resumed) {
    // The model reads the saved conversation exactly as before; calls a crash left unanswered get a result.
    const { messages, repairs } = resumedConversation(resumed);
    conversation.restore(messages);
    for (const message of repairs) conversation.push(message);
  }
  const limits: ToolLimits = {
    maxOutputSize: outputCap(config.agent.tools.max_output_size, maxTokens),
    maxFileReadSize: config.agent.tools.max_file_read_size,
    commandTimeoutMs: config.agent.terminal.timeout_seconds * 1000,
    maxStdoutBytes: config.agent.terminal.max_stdout_bytes,
    maxStderrBytes: config.agent.terminal.max_stderr_bytes,
  };
  const saveOutput = createOutputStore(join(outputRoot, sessionId));
  // Before each call that may change the workspace, a snapshot `keel undo` can go back to.
  const checkpoints = dryRun
    ? undefined
    : createCheckpointer({
        root: workspace.root,
        stateDir: state,
        env: process.env,
        maxIgnoredKb: config.checkpoints.max_ignored_file_kb,
        warn: (message) => emit({ type: 'warning', message }),
      });
  // Protected files (git's config and hooks, Keel's and other agents' settings) put back after any call changes them.
  const tripwire = createTripwire({
    root: workspace.root,
    globs: config.safety.protected_paths,
    env: process.env,
  });
  let runs = 0;
  // Saved outputs are kept a week (this workspace's runs, and other workspaces' folders left as long); clearing
  // them never delays the run.
  for (const dir of [outputRoot, dirname(outputRoot)])
    void removeOldOutputs(dir, 7 * 24 * 3600 * 1000).catch(() => {});
  // The "always" answers of this session (a chat lasts one setupAgent).
  const approvals = new ApprovalMemory();
  const toolContext = (turn: number, signal: AbortSignal, callEmit = emit): ToolContext => ({
    workspace,
    policy,
    signal,
    emit: callEmit,
    limits,
    runner,
    stateDir: state,
    tripwire,
    cacheDir: cacheDir(process.env),
    conversationText: () => conversationText(conversation.messages),
    saveOutput,
    todos,
    ...(hooks ? { hooks } : {}),
    ...(setup.approve ? { approve: setup.approve, approvals } : {}),
    ...(dryRun ? { dryRun } : {}),
    ...(checkpoints ? { beforeChange: (change) => checkpoints.take({ ...change, turn }) } : {}),
  });
  // A read-only call run in the concurrent group, before anything of its turn changed, is not previewed and
  // decided again; any other call is (an earlier call of the turn may have changed what the policy would say).
  const prepared = new WeakMap<ToolCall, PreparedCall>();
  const assessTool: LoopOptions['assessTool'] = async (call, turn, signal) => {
    const assessment = await assessToolCall(call, registry, toolContext(turn, signal));
    if (assessment.prepared) prepared.set(call, assessment.prepared);
    return assessment;
  };
  const runTool: LoopOptions['runTool'] = async (call, turn, signal, concurrent) => {
    const ready = concurrent ? prepared.get(call) : undefined;
    const ctx = toolContext(turn, signal, concurrent?.emit);
    const result = await executeToolCall(call, turn, registry, ctx, ready);
    return { content: formatForModel(result), isError: !result.success };
  };
  const compactor = {
    model,
    conversation,
    systemPrompt: buildSystemPrompt,
    todos: () => todos.items(),
    emit,
  };
  const loopOptions: Omit<LoopOptions, 'signal'> = {
    model,
    tools: () => registry.specs(),
    runTool,
    assessTool,
    // keel init's own prompt asks for a file, not a task to steer.
    intent: setup.systemPrompt === undefined,
    emit,
    flush: events.flush,
    workspace: workspace.root,
    maxTurns: config.agent.max_turns,
    timeoutMs: config.agent.timeout_seconds * 1000,
    // Never more than half the conversation budget (4 bytes a token): one call must not outgrow the window.
    maxToolArgumentBytes: Math.min(config.agent.max_tool_argument_kb * 1024, maxTokens * 2),
    ...(config.agent.conversation.auto_compact
      ? {
          autoCompact: {
            threshold: config.agent.conversation.compact_at,
            compact: async (turn: number, signal: AbortSignal) =>
              (await compact(compactor, { trigger: 'auto', turn, signal })).usage,
          },
        }
      : {}),
  };
  // MCP servers start in the background, their tools joining the registry when ready; they end with the
  // runner. Not for a caller choosing its own tools (keel init).
  const mcp = setup.tools
    ? undefined
    : startMcpServers({
        servers: config.mcp.servers,
        registry,
        env: process.env,
        workspace: workspace.root,
        warn: (message) => emit({ type: 'warning', message }),
        jail: {
          reads: readJail,
          project: loaded.sources['mcp.servers']?.startsWith('project file') === true,
        },
      });
  return {
    loaded,
    workspace,
    model,
    registry,
    conversation,
    emit,
    runner: withServers(runner, mcp),
    ...(mcp ? { mcp } : {}),
    ...(session ? { session } : {}),
    ...(resumed ? { resumed } : {}),
    todos: () => todos.items(),
    // MCP prompts of the servers ready now: the chat lists them as slash commands.
    promptCommands: () => mcp?.prompts() ?? [],
    run: (signal) => {
      // Each run, or each chat turn, is one step `keel undo` can take back.
      runs += 1;
      checkpoints?.startRun(runs === 1 ? sessionId : `${sessionId}-${runs}`);
      if (runs === 1) todos.announce();
      const result = runLoop(conversation, { ...loopOptions, signal });
      if (!hooks) return result;
      return result.then(async (ended) => {
        await hooks.stop({ reason: ended.reason, turns: ended.turns });
        return ended;
      });
    },
    checkpoint: async (change) => {
      await checkpoints?.take(change);
    },
    compact: async (focus, signal) => {
      await compact(compactor, { trigger: 'manual', focus, turn: 0, signal });
      // The compacted conversation is on disk before the user's next message.
      await events.flush();
    },
  };
}

/** What the user and the model said and the arguments of the model's tool calls: files and names they mention. */
function conversationText(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (m.role === 'user') parts.push(m.content);
    if (m.role === 'assistant') parts.push(m.content, ...(m.toolCalls ?? []).map((c) => c.input));
  }
  return parts.join('\n');
}
