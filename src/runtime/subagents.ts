// Sub-agents for the `task` tool, built from the run's own pieces: the same workspace, runner, hooks, checkpoints,
// tripwire, approvals and event stream (so the audit log and the session record them), a policy in a mode never
// wider than the run's, and a conversation, tool registry and budget of their own. Their events carry the task
// call's id as `parent`; the parent's conversation receives only the task's result.
import { join } from 'node:path';
import type { Conversation } from '../agent/conversation.js';
import { runLoop } from '../agent/loop.js';
import { ToolSpend } from '../agent/tool-spend.js';
import { providerNames } from '../config/provider-schema.js';
import type { KeelConfig } from '../config/schema.js';
import { UsageError } from '../core/errors.js';
import type { AgentEvent } from '../core/events.js';
import { usageCounts } from '../core/events.js';
import type { Model } from '../core/model.js';
import type { AgentSummary, Subagents, TaskOutcome, TaskRequest } from '../core/subagents.js';
import { type AgentDefinition, loadAgents } from '../extend/agent-files.js';
import { createModel } from '../providers/index.js';
import { MODES } from '../safety/modes.js';
import type { ExecutionMode, Policy } from '../safety/policy.js';
import type { ExecutorContext } from '../tools/executor.js';
import { createOutputStore } from '../tools/output-cap.js';
import { createRegistry, readOnlyTools, type ToolRegistry } from '../tools/registry.js';
import { taskTool } from '../tools/task.js';
import type { Tool } from '../tools/tool.js';
import {
  autoCompaction,
  conversationBudget,
  conversationText,
  openConversation,
  promptBuilder,
} from './conversation.js';
import { type ToolContextParts, toolContexts, toolLimits } from './tool-context.js';

/** How deep sub-agents nest: the run's sub-agents (depth 1) may start their own (depth 2), those none. */
export const MAX_TASK_DEPTH = 2;

/** What a sub-agent reads first, before its agent's own prompt. */
const SUBAGENT_NOTE =
  'You are a sub-agent: another agent gave you the task in the next message and reads only your final answer. ' +
  'Nobody can answer questions: work on your own, then answer with exactly what the task asks for, concisely.';

/** The tools a sub-agent gets when its agent names none: those that only read. */
const READ_ONLY = new Set(readOnlyTools().map((tool) => tool.name));

export interface SubagentParts {
  config: KeelConfig;
  env: NodeJS.ProcessEnv;
  workspace: string;
  /** The run's mode: no sub-agent runs in a wider one. */
  mode: ExecutionMode;
  allow?: readonly string[];
  sandboxed: boolean;
  dryRun: boolean;
  /** The run's policy for its own mode, a new one for a narrower mode. */
  policyFor(mode: ExecutionMode): Policy;
  /** The run's executor context, loaded with its execution side: approvals, hooks, checkpoints, tripwire, dry run. */
  held(): Promise<ExecutorContext>;
  /** The run's side of every tool context (workspace, runner, state and cache dirs, language services). */
  toolParts: ToolContextParts;
  model: Model;
  /** The run's tools, MCP servers' included as they join: a sub-agent's are chosen from them. */
  registry: ToolRegistry;
  agents: readonly AgentDefinition[];
  flush: () => Promise<void>;
  /** The run's folder of oversized results; a sub-agent's go in a folder of their own (its call ids may repeat the run's). */
  outputDir?: string;
  /** Where the run counts what its tools spend on model requests: each sub-agent run's usage and cost. */
  spend?: ToolSpend;
}

/** Whether `mode` lets through anything `than` would not (the modes, least to most autonomous). */
export const wider = (mode: ExecutionMode, than: ExecutionMode): boolean =>
  MODES.indexOf(mode) > MODES.indexOf(than);

/** The mode a sub-agent runs in, and the note when its agent asked for a wider one (narrowed, not refused). */
export function subagentMode(
  agent: Pick<AgentDefinition, 'name' | 'mode'>,
  parent: ExecutionMode,
): { mode: ExecutionMode; note?: string } {
  if (agent.mode === undefined) return { mode: parent };
  if (!wider(agent.mode, parent)) return { mode: agent.mode };
  return {
    mode: parent,
    note: `agent ${agent.name} asks for ${agent.mode} mode, wider than this run's ${parent}: it ran in ${parent} mode`,
  };
}

/** `provider/model` or a model of the run's provider, as the provider config createModel takes. */
export function agentProvider(config: KeelConfig, model: string): KeelConfig['provider'] {
  const slash = model.indexOf('/');
  const prefix = slash < 0 ? '' : model.slice(0, slash);
  const type = (providerNames as readonly string[]).includes(prefix)
    ? (prefix as KeelConfig['provider']['type'])
    : config.provider.type;
  const id = type === prefix ? model.slice(slash + 1) : model;
  return { ...config.provider, type, [type]: { ...config.provider[type], model: id } };
}

/** The names of the tools an agent may use, from the run's tools (a name the run does not have is left out). */
export function agentTools(agent: AgentDefinition | undefined, registry: ToolRegistry): string[] {
  const names = registry.list().map((tool) => tool.name);
  return agent?.tools ? names.filter((n) => agent.tools!.includes(n)) : names.filter((n) => READ_ONLY.has(n));
}

/**
 * The names in an agent file's `tools` that no tool of the run has (a typo, a tool this run does not offer): one
 * warning naming them, else undefined. `task` is added apart, and an MCP tool (`server__tool`) may join later.
 */
export function unknownToolsWarning(agent: AgentDefinition, registry: ToolRegistry): string | undefined {
  const unknown = (agent.tools ?? []).filter(
    (name) => name !== 'task' && !name.includes('__') && registry.get(name) === undefined,
  );
  if (unknown.length === 0) return undefined;
  const names = registry.list().map((tool) => tool.name);
  return `agent ${agent.name}: no tool named ${unknown.join(', ')} in this run, left out of its tools (fix its file's tools list; this run's tools: ${names.join(', ')})`;
}

/** Runs `jobs` with at most `limit` in flight. */
function limiter(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await job();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** The sub-agents of the run (depth 0), or of a sub-agent (`path`: its task call's id, `T1`). */
export function createSubagents(
  parts: SubagentParts,
  depth = 0,
  path = '',
  spend: ToolSpend | undefined = parts.spend,
): Subagents {
  const summaries: AgentSummary[] = parts.agents.map((a) => ({ name: a.name, description: a.description }));
  const find = (name: string | undefined) =>
    name === undefined ? undefined : parts.agents.find((a) => a.name === name);
  const bounded = limiter(parts.config.agent.max_parallel_tasks);
  const models = new Map<string, Promise<Model>>();

  const modelOf = (agent: AgentDefinition | undefined): Promise<Model> => {
    if (!agent?.model) return Promise.resolve(parts.model);
    const model = agent.model;
    let made = models.get(model);
    if (!made) {
      made = createModel(agentProvider(parts.config, model), { env: parts.env });
      models.set(model, made);
    }
    return made;
  };

  async function run(request: TaskRequest, call: { signal: AbortSignal; emit: (event: AgentEvent) => void }) {
    if (depth >= MAX_TASK_DEPTH)
      throw new Error(
        `sub-agents cannot start sub-agents beyond depth ${MAX_TASK_DEPTH}; do this task yourself`,
      );
    const agent = find(request.agent);
    if (request.agent !== undefined && !agent) {
      const names = parts.agents.map((a) => a.name).join(', ');
      throw new Error(`unknown agent "${request.agent}"; agents: ${names || 'none'} (or omit agent)`);
    }
    const parent = path ? `${path}/${request.callId}` : request.callId;
    // The innermost task's id stays: a sub-agent's own sub-agent already tagged its events.
    const emit = (event: AgentEvent) => call.emit(event.parent === undefined ? { ...event, parent } : event);
    const { mode, note } = agent ? subagentMode(agent, parts.mode) : { mode: parts.mode };
    if (note) emit({ type: 'warning', message: note });
    const unknown = agent && unknownToolsWarning(agent, parts.registry);
    if (unknown) emit({ type: 'warning', message: unknown });
    const model = await modelOf(agent);
    const names = agentTools(agent, parts.registry);
    const childDepth = depth + 1;
    const tools: Tool[] = names
      .filter((name) => name !== 'task')
      .map((name) => parts.registry.get(name)!)
      .filter(Boolean);
    // What this sub-agent's own sub-agents spend is in its totals, and through them in the run's.
    const childSpend = new ToolSpend();
    const child =
      names.includes('task') && childDepth < MAX_TASK_DEPTH
        ? createSubagents(parts, childDepth, parent, childSpend)
        : undefined;
    if (child) tools.push(taskTool(summaries) as Tool);
    const registry = createRegistry(tools);
    const budget = conversationBudget(parts.config, model.capabilities);
    const basePrompt = promptBuilder({
      config: parts.config,
      workspace: parts.workspace,
      mode,
      allow: parts.allow,
      sandboxed: parts.sandboxed,
      dryRun: parts.dryRun,
      env: parts.env,
      warn: (message) => emit({ type: 'warning', message }),
    });
    // Built again after a compaction, as the run's is: context files edited since are read anew.
    const systemPrompt = async () =>
      [await basePrompt(), SUBAGENT_NOTE, agent?.prompt].filter((p) => p?.trim()).join('\n\n');
    let conversation: Conversation | undefined;
    const contextFor = toolContexts({
      ...parts.toolParts,
      emit,
      limits: toolLimits(parts.config, budget),
      todos: undefined,
      conversationText: () => conversationText(conversation?.messages ?? []),
      subagents: child,
    });
    // The execution side, loaded lazily by the run (runtime/lazy-execution.ts), is loaded by the time a task runs.
    const [held, { createExecutor }] = await Promise.all([parts.held(), import('./executor.js')]);
    // Outputs are saved where the run saves its own.
    const saveOutput =
      parts.outputDir && held.saveOutput
        ? createOutputStore(join(parts.outputDir, `task-${parent.replace(/[^\w-]/g, '_')}`))
        : undefined;
    const executor = createExecutor(
      {
        ...held,
        registry,
        policy: mode === parts.mode ? held.policy : parts.policyFor(mode),
        ...(saveOutput ? { saveOutput } : {}),
      },
      contextFor,
    );
    conversation = openConversation(await systemPrompt(), parts.config, budget, undefined);
    conversation.push({ role: 'user', content: request.prompt });
    // agent.conversation.auto_compact holds for a sub-agent's conversation as for the run's.
    const autoCompact = autoCompaction(parts.config, { model, conversation, systemPrompt, emit });
    const ended = await runLoop(conversation, {
      model,
      executor,
      emit,
      flush: parts.flush,
      workspace: parts.workspace,
      maxTurns: parts.config.agent.max_turns,
      signal: call.signal,
      maxToolArgumentBytes: Math.min(parts.config.agent.max_tool_argument_kb * 1024, budget * 2),
      toolSpend: childSpend,
      ...(autoCompact ? { autoCompact } : {}),
    });
    spend?.add(ended.usage, ended.costUsd);
    const outcome: TaskOutcome = {
      agent: agent?.name ?? 'default',
      reason: ended.reason,
      answer: ended.answer,
      turns: ended.turns,
      toolCalls: ended.toolCalls,
      usage: usageCounts(ended.usage),
      ...(note ? { note } : {}),
    };
    return outcome;
  }

  return {
    agents: summaries,
    readOnly(name) {
      const agent = find(name);
      if (name !== undefined && !agent) return undefined;
      // A tool it names that has not joined yet (an MCP server's, `server__tool`) may change files once it has:
      // tasks started then (past max_parallel_tasks) would change files at once, their checkpoints mixed.
      if (agent?.tools?.some((n) => n.includes('__') && parts.registry.get(n) === undefined)) return false;
      const names = agentTools(agent, parts.registry);
      return names.every((n) => n !== 'task' && parts.registry.get(n)?.safety === 'safe');
    },
    run: (request, call) => bounded(() => run(request, call)),
  };
}

/**
 * The agents of a run (built-in, the user's, a trusted project's: a few directory reads) and, for keel run --agent,
 * the run's agent with its mode (never wider than `mode`). A name no agent has is a usage error naming them.
 */
export async function openAgents(options: {
  workspace: string;
  env: NodeJS.ProcessEnv;
  agent?: string;
  mode: ExecutionMode;
  /** false: the run offers no task tool and runs as no agent (keel ask, keel init), so no agent file is read. */
  load?: boolean;
}): Promise<{
  agents: AgentDefinition[];
  warnings: string[];
  runAgent?: AgentDefinition;
  mode: ExecutionMode;
}> {
  if (options.load === false && options.agent === undefined)
    return { agents: [], warnings: [], mode: options.mode };
  const { agents, warnings } = await loadAgents(options);
  if (options.agent === undefined) return { agents, warnings, mode: options.mode };
  const runAgent = agents.find((a) => a.name === options.agent);
  if (!runAgent) {
    throw new UsageError(`unknown agent "${options.agent}"`, {
      hint: `agents: ${agents.map((a) => a.name).join(', ')} (keel agents list)`,
    });
  }
  const { mode, note } = subagentMode(runAgent, options.mode);
  return { agents, warnings: note ? [...warnings, note] : warnings, runAgent, mode };
}

/**
 * The run's tools for its agent: `keel run --agent`'s keep only theirs; the task tool joins when `builtIn` (the
 * coding agent's tools, not keel init's or ask's) and the run's agent, if any, names it. Whether it joined.
 */
export function agentRegistry(
  registry: ToolRegistry,
  agents: readonly AgentDefinition[],
  runAgent: AgentDefinition | undefined,
  builtIn: boolean,
): boolean {
  // Its tools only, also among those joining later (an MCP server's): the run never lifts it.
  if (runAgent) registry.restrict(runAgent.tools ?? [...READ_ONLY]);
  const tasks = builtIn && (!runAgent || runAgent.tools?.includes('task') === true);
  if (tasks) registry.add(taskTool(agents.map((a) => ({ name: a.name, description: a.description }))));
  return tasks;
}
