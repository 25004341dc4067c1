// The one assembly of a run, for every entry point that runs the agent (keel run, chat and its /model and /clear,
// ask, init, keel acp, the library API and sub-agents): from resolved options to a ready agent —
// config, workspace jail, policy, runner, tools, model, session, events with the audit log, hooks, checkpoints,
// the executor and the conversation. Nothing here prints or exits: the caller renders the events it is given.
import { join } from 'node:path';
import { compact } from '../agent/compaction.js';
import type { Conversation } from '../agent/conversation.js';
import { type LoopOptions, runLoop } from '../agent/loop.js';
import { OfferedTools } from '../agent/offered-tools.js';
import { ToolOffer } from '../agent/tool-offer.js';
import { ToolSpend } from '../agent/tool-spend.js';
import { cacheWrites } from '../code/cache-writes.js';
import { cacheDir } from '../config/paths.js';
import { TodoBoard } from '../core/todo-board.js';
import { withServers } from '../mcp/start.js';
import { planTodos } from '../plan/progress.js';
import { createModel } from '../providers/index.js';
import { ApprovalMemory } from '../safety/approval-memory.js';
import { KeptApprovals, keptApprovalsFile } from '../safety/kept-approvals.js';
import { runRedactor } from '../safety/redact.js';
import { resumedTodos } from '../session/resume.js';
import { summarize } from '../session/session-summary.js';
import { cleanStaleTempFiles } from '../tools/temp-files.js';
import { loadRunConfig, resolveWorkspaceDir } from './config.js';
import {
  autoCompaction,
  carryConversation,
  conversationBudget,
  conversationText,
  openConversation,
  promptBuilder,
} from './conversation.js';
import { runEvents } from './events.js';
import { modeMayChangeFiles, planModeExecutor } from './execution-modes.js';
import type { Executor } from './executor.js';
import { firstRequest } from './first-request.js';
import { lazyExecution } from './lazy-execution.js';
import type { Run, RunOptions } from './run-types.js';
import { openSafety } from './safety.js';
import { openSession } from './session.js';
import {
  agentProvider,
  agentRegistry,
  createSubagents,
  openAgents,
  unknownToolsWarning,
} from './subagents.js';
import {
  type ContextFor,
  runLanguages,
  type ToolContextParts,
  toolContexts,
  toolLimits,
} from './tool-context.js';
import { buildRegistry, startRunMcp } from './tools.js';
import { modelCondenser, webAccess } from './web.js';

export type { Run, RunOptions } from './run-types.js';

export async function assembleRun(options: RunOptions): Promise<Run> {
  const env = options.env ?? process.env;
  const loaded = options.loaded ?? (await loadRunConfig(options, env));
  const { config } = loaded;
  // One redactor for everything lasting or printed for machines: sessions, audit log, cassettes, JSON output.
  const redact = runRedactor(env, loaded);
  // The model is made (for Ollama, /api/show answered) while the workspace, agents, safety and tools are set up, so
  // its wait on the server overlaps their work: from here when the configured provider is the run's (no --agent,
  // whose model may differ). A failure is reported where it is awaited, after theirs, as before.
  const makeModel = (provider: typeof config.provider) => {
    const made = createModel(provider, {
      record: options.record,
      env,
      redact,
      ...(options.probeModel === false ? { probe: false } : {}),
    });
    made.catch(() => {});
    return made;
  };
  const early = options.agent === undefined ? makeModel(config.provider) : undefined;
  const dir = await resolveWorkspaceDir(options.cwd);
  const chosen = await openAgents({
    workspace: dir,
    env,
    agent: options.agent,
    mode: await options.mode(loaded),
    // Agent files matter only to the task tool, which a run choosing its own tools (ask, init) never offers.
    load: options.tools === undefined,
  });
  const { agents, runAgent, mode } = chosen;
  const dryRun = options.dryRun === true;
  const making =
    early ?? makeModel(runAgent?.model ? agentProvider(config, runAgent.model) : config.provider);
  const { state, outputRoot, workspace, commands, policy, policyFor } = await openSafety(loaded, {
    dir,
    mode,
    sandbox: options.sandbox,
    allow: options.allow,
    env,
    terminal: options.terminal,
    words: options.hintWords,
  });
  void cleanStaleTempFiles(state); // temp files of writes killed before their rename (in the background)
  const registry = await buildRegistry(loaded, workspace.root, { tools: options.tools, nativeSearch: true });
  // ask_user where someone may answer (the chat, a caller's askUser) or in interactive and plan runs; --no-ask-user: none.
  if (options.askUserTool === false || (!options.askUser && mode !== 'interactive' && mode !== 'plan'))
    registry.remove('ask_user');
  // An agent run keeps its agent's tools; the task tool joins the coding agent's (not keel init's or ask's).
  const unknownTools = runAgent && unknownToolsWarning(runAgent, registry);
  const tasks = agentRegistry(registry, agents, runAgent, options.tools === undefined);
  const model = await making;
  const opened = await openSession({
    workspace: workspace.root,
    env,
    model,
    redact,
    session: options.session,
  });
  const { runId, resumed, store: session } = opened;
  const sent = firstRequest();
  const events = runEvents({
    consumers: [
      sent.seen,
      ...(options.observe ? [options.observe] : []),
      ...(options.outputs ? [options.outputs(model, redact)] : []),
    ],
    durable: session ? [session.sink] : [],
    audit: { stateDir: state, cwd: workspace.root, registry, redact },
  });
  const emit = events.emit;
  // MCP servers start now, in the background, their tools joining the registry when ready (the first request waits
  // for them, bounded: toolsReady); they end with the runner. Not for keel init and ask, which choose their tools.
  const mcp = options.tools
    ? undefined
    : startRunMcp(loaded, registry, workspace.root, env, emit, options.mcpServers);
  for (const message of [...loaded.warnings, ...chosen.warnings, ...(unknownTools ? [unknownTools] : [])])
    emit({ type: 'warning', message });
  // A plan's steps, else the resumed session's list; the first run shows it before its first request.
  const todos = new TodoBoard(emit);
  if (options.plan) todos.restore(planTodos(options.plan));
  else if (resumed) todos.restore(resumedTodos(resumed));
  if (commands.warning) emit({ type: 'warning', message: commands.warning });
  // A model with a smaller window than the configured budget prunes before the server would cut the prompt.
  const maxTokens = conversationBudget(config, model.capabilities);
  let conversation: Conversation | undefined;
  const languages = runLanguages(workspace.root, config, registry);
  // What the tools spend on model requests of their own (sub-agents, page condensing): in each run's totals.
  const toolSpend = new ToolSpend();
  const toolParts: ToolContextParts = {
    workspace,
    runner: commands.runner,
    limits: toolLimits(config, maxTokens),
    emit,
    stateDir: state,
    cacheDir: cacheDir(env),
    todos,
    conversationText: () => conversationText(conversation?.messages ?? []),
    languages,
    diagnostics: config.code.diagnostics,
    ...(options.askUser ? { askUser: options.askUser } : {}),
    web: webAccess(config, env, model),
    condense: modelCondenser(model, toolSpend, emit),
    ...(options.files ? { files: options.files } : {}),
  };
  // Sub-agents share the executor's context, so the tool contexts gain them once it exists.
  let contexts: ContextFor = toolContexts(toolParts);
  const contextFor: ContextFor = (signal, callEmit) => contexts(signal, callEmit);
  // Answers kept for the workspace (`A`) apply only where someone is asked: never to a headless run.
  const approvals = options.approve
    ? (options.approvals ??
      new ApprovalMemory(new KeptApprovals(keptApprovalsFile(state, workspace.root), workspace.root)))
    : undefined;
  // The execution side loads once the first request is out (or at a call before that): that request needs only the
  // tools' specs. Configured hooks load it at once, as the session-start hook runs before the first request.
  const execution = lazyExecution({
    config,
    registry,
    policy,
    workspaceRoot: workspace.root,
    stateDir: state,
    outputRoot,
    runId,
    sessionId: opened.id,
    sources: loaded.sources,
    env,
    emit,
    contextFor,
    approve: options.approve,
    approvals,
    dryRun,
    ...(options.startGit ? { startGit: options.startGit } : {}),
  });
  const executor: Executor =
    mode === 'plan' ? planModeExecutor(execution.executor, registry) : execution.executor;
  const subagents = tasks
    ? createSubagents({
        config,
        env,
        workspace: workspace.root,
        mode,
        allow: options.allow,
        sandboxed: commands.sandboxed,
        dryRun,
        policyFor,
        held: execution.held,
        toolParts,
        model,
        registry,
        agents,
        flush: events.flush,
        outputDir: join(outputRoot, runId),
        spend: toolSpend,
      })
    : undefined;
  if (subagents) contexts = toolContexts({ ...toolParts, subagents });
  // The first checkpoint's slow part (hashing a big tree) runs while the model thinks, the first change awaits it;
  // from when the first request is out, so none of its git processes come before that request. A run whose mode
  // changes no file, or that offers only tools that change none (keel ask), loads the execution side only at a call.
  const mayChange =
    modeMayChangeFiles(mode) &&
    (options.tools === undefined || registry.list().some((tool) => tool.safety !== 'safe'));
  // A failure to load is the first call's to report; in the background it is left alone.
  const loadedLater = () => execution.load().catch(() => undefined);
  if (mayChange) sent.after(() => void loadedLater().then((opened) => opened?.checkpoints?.prepare()));
  if (options.session?.started !== true && Object.values(config.hooks).some((list) => list.length > 0))
    await (await execution.load()).hooks?.sessionStart();
  const buildSystemPrompt = promptBuilder({
    config,
    workspace: workspace.root,
    mode,
    allow: options.allow,
    sandboxed: commands.sandboxed,
    dryRun,
    env,
    replacement: options.systemPrompt,
    ...(runAgent?.prompt ? { addition: runAgent.prompt } : {}),
    warn: (message) => emit({ type: 'warning', message }),
  });
  const current = openConversation(await buildSystemPrompt(), config, maxTokens, resumed);
  conversation = current;
  // A session another provider wrote (--provider with --continue, /model <provider>/<model>) is converted for this one.
  if (resumed) carryConversation(current, summarize(resumed).provider, model.provider, emit);
  const compactor = {
    model,
    conversation: current,
    systemPrompt: buildSystemPrompt,
    todos: () => todos.items(),
    emit,
  };
  const autoCompact = autoCompaction(config, compactor);
  const loopOptions: Omit<LoopOptions, 'signal'> = {
    model,
    executor,
    toolSpend,
    // keel init's own prompt asks for a file, not a task to steer; plan mode's prompt asks for a plan, which a note
    // such as "implement. … verify" or "test. Run the tests; … fix failures" would contradict.
    intent: options.systemPrompt === undefined && mode !== 'plan',
    // The state a turn's calls left is recorded as the next request goes out, while the model thinks: the run's end
    // then finds it recorded rather than waiting for it.
    emit: (event) => {
      emit(event);
      // A turn with calls loaded the execution side.
      if (event.type === 'turn_end' && event.tool_calls > 0) void execution.current()?.checkpoints?.settle();
    },
    flush: events.flush,
    workspace: workspace.root,
    maxTurns: config.agent.max_turns,
    timeoutMs: config.agent.timeout_seconds * 1000,
    // Never more than half the conversation budget (4 bytes a token): one call must not outgrow the window.
    maxToolArgumentBytes: Math.min(config.agent.max_tool_argument_kb * 1024, maxTokens * 2),
    // One per run or chat: a tool that joins after a request (an MCP server ready late) is pointed out once.
    offered: new OfferedTools(),
    // The built-in tools a request offers grow with what the messages and calls need (agent/tool-offer.ts).
    ...(options.systemPrompt === undefined && options.tools === undefined && mode !== 'plan' && !runAgent
      ? { offer: new ToolOffer() }
      : {}),
    ...(mcp
      ? { toolsReady: (signal) => mcp.ready(signal, (message) => emit({ type: 'status', message })) }
      : {}),
    ...(autoCompact ? { autoCompact } : {}),
  };
  const runner = withServers(commands.runner, mcp);
  let runs = 0;
  return {
    loaded,
    mode,
    sandboxed: commands.sandboxed,
    ...(approvals ? { approvals } : {}),
    workspace,
    model,
    registry,
    executor,
    conversation: current,
    events,
    redact,
    emit,
    runner,
    ...(mcp ? { mcp } : {}),
    sessionId: opened.id,
    ...(session ? { session } : {}),
    ...(resumed ? { resumed } : {}),
    ...(subagents ? { subagents } : {}),
    todos: () => todos.items(),
    // MCP prompts of the servers ready now: the chat lists them as slash commands.
    promptCommands: () => mcp?.prompts() ?? [],
    run: (signal) => {
      // Each run, or each chat turn, is one step `keel undo` can take back.
      runs += 1;
      const turnRun = runs === 1 ? runId : `${runId}-${runs}`;
      // Each change of this run is recorded under its id: set before any call runs, as calls wait for the loading.
      execution.whenOpen(({ checkpoints }) => checkpoints?.startRun(turnRun, session?.id));
      if (mayChange) sent.after(() => void loadedLater().then((opened) => opened?.checkpoints?.warm()));
      const result = runLoop(current, {
        ...loopOptions,
        signal,
        // The first run shows a plan's or a resumed session's list, after its run_start.
        ...(runs === 1 ? { started: () => todos.announce() } : {}),
      }).then(async (ended) => {
        // Loaded once the first request was out: a run that never sent one has nothing to settle.
        const checkpoints = (await execution.started()?.catch(() => undefined))?.checkpoints;
        await checkpoints?.settle();
        // git.auto_commit: the run's or turn's changes, committed with a written message (not after an interrupt).
        if (config.git.auto_commit && checkpoints && !dryRun && ended.reason !== 'interrupted') {
          const { autoCommit } = await import('./git-work.js');
          await autoCommit({ loaded, model, workspace, env, signal }, turnRun, emit);
        }
        return ended;
      });
      // Configured hooks loaded the execution side before the first request.
      const hooks = execution.current()?.hooks;
      if (!hooks) return result;
      return result.then(async (ended) => {
        await hooks.stop({ reason: ended.reason, turns: ended.turns });
        return ended;
      });
    },
    checkpoint: async (change) => {
      await (await execution.load()).checkpoints?.take(change);
    },
    compact: async (focus, signal) => {
      if (!(await compact(compactor, { trigger: 'manual', focus, turn: 0, signal }))) return false;
      // The compacted conversation is on disk before the user's next message.
      await events.flush();
      return true;
    },
    close: async () => {
      sent.dispose();
      runner.killAll();
      // The code map's caches, begun when the map was answered: a run exits when it closes (cli/main.ts), and a
      // write cut short would make the next run's map cold.
      const caches = cacheWrites().catch(() => {});
      await languages.close();
      const opened = await execution.started()?.catch(() => undefined);
      const checkpoints = opened?.checkpoints;
      await checkpoints?.settle();
      // A finished `keel run` exits without waiting for what is left running (cli/main.ts): nothing may be
      // half-written to the store, and the audit log has every line.
      await checkpoints?.drained();
      checkpoints?.close(); // the tree watch's handles (unref'd: they never keep the process alive)
      // What a background command wrote after the last call returned is put back before the next run can read it.
      const late = (await opened?.tripwire?.settle()) ?? [];
      if (late.length > 0) {
        const { describeTripped } = await import('../safety/tripwire.js');
        emit({
          type: 'warning',
          message: `tripwire: a background command changed protected files: ${describeTripped(late)}`,
        });
        await events.flush();
      }
      await events.flush().catch(() => {});
      await session?.close();
      await caches;
    },
  };
}
