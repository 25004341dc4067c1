// Keel's tools without an agent, through the same assembly as a run: `keel mcp serve` (every call with the policy,
// hooks, checkpoints, the output cap and the audit log), `keel policy check` (the policy and a preview's context)
// and the tool evals (a fixture copy, default config, fixed limits).

import type { Checkpointer } from '../checkpoint/checkpointer.js';
import type { LanguageServices } from '../code/language/service.js';
import type { LoadedConfig } from '../config/load.js';
import { cacheDir } from '../config/paths.js';
import { KeelError } from '../core/errors.js';
import type { EventSink, EventStream } from '../core/events.js';
import type { CommandRunner } from '../core/runner.js';
import { TodoBoard } from '../core/todo-board.js';
import type { CaseToolsOpener } from '../evals/tool-evals.js';
import type { ExecutionMode, Policy, PolicyDecision } from '../safety/policy.js';
import { runRedactor } from '../safety/redact.js';
import type { Workspace } from '../safety/workspace.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Tool, ToolContext, ToolLimits } from '../tools/tool.js';
import { defaultConfig } from './config.js';
import { runEvents } from './events.js';
import { type Executor, openExecution } from './executor.js';
import { openSafety } from './safety.js';
import { type ContextFor, runLanguages, toolContexts, toolLimits } from './tool-context.js';
import { buildRegistry } from './tools.js';
import { webAccess } from './web.js';

export interface ToolHostOptions {
  loaded: LoadedConfig;
  /** The workspace directory, checked by resolveWorkspaceDir. */
  dir: string;
  mode: ExecutionMode;
  allow?: readonly string[];
  sandbox?: boolean;
  env: NodeJS.ProcessEnv;
  /** Names saved outputs, and is the session id hooks are told. */
  runId: string;
  /** Add the tools of tools.custom (default: no; the built-in tools only). */
  custom?: boolean;
  /** What watches the events (keel mcp serve prints the warnings). */
  consumers?: readonly EventSink[];
  /** false: no audit log, hooks, checkpoints or saved outputs (policy check, tool evals). */
  guarded?: boolean;
  /** Fixed limits (tool evals); default: from config, the output cap from the conversation budget. */
  limits?: ToolLimits;
  /** Keel's state directory; default: the XDG one. */
  stateDir?: string;
  /** Give todo_write a board of its own (tool evals). */
  todos?: boolean;
  /** Language services to use (tool evals share them across cases); default: the run's own. */
  languages?: LanguageServices;
}

export interface ToolHost {
  workspace: Workspace;
  policy: Policy;
  registry: ToolRegistry;
  runner: CommandRunner;
  events: EventStream;
  executor: Executor;
  /** Each call's tool context (policy check previews with it). */
  contextFor: ContextFor;
  checkpoints?: Checkpointer;
  /** The language services the tools started; close them with the host. */
  languages: LanguageServices;
}

export async function openToolHost(options: ToolHostOptions): Promise<ToolHost> {
  const { loaded, env } = options;
  const { config } = loaded;
  const guarded = options.guarded !== false;
  const { state, outputRoot, workspace, commands, policy } = await openSafety(loaded, {
    dir: options.dir,
    mode: options.mode,
    sandbox: options.sandbox,
    allow: options.allow,
    env,
    ...(options.stateDir ? { stateDir: options.stateDir } : {}),
  });
  const registry = await buildRegistry(loaded, workspace.root, { custom: options.custom === true });
  // An MCP client has its own way to ask its user; the question would find nobody here.
  registry.remove('ask_user');
  const events = runEvents({
    consumers: options.consumers ?? [],
    ...(guarded
      ? { audit: { stateDir: state, cwd: workspace.root, registry, redact: runRedactor(env, loaded) } }
      : {}),
  });
  const { emit } = events;
  if (commands.warning) emit({ type: 'warning', message: commands.warning });
  // Without a model the conversation budget is the configured one.
  const languages = options.languages ?? runLanguages(workspace.root, config, registry);
  const contextFor = toolContexts({
    workspace,
    runner: commands.runner,
    limits: options.limits ?? toolLimits(config, config.agent.conversation.max_tokens),
    emit,
    stateDir: state,
    ...(guarded ? { cacheDir: cacheDir(env) } : {}),
    ...(options.todos ? { todos: new TodoBoard(() => {}) } : {}),
    languages,
    diagnostics: config.code.diagnostics,
    web: webAccess(config, env),
  });
  const { executor, checkpoints } = openExecution({
    config,
    registry,
    policy,
    workspaceRoot: workspace.root,
    stateDir: state,
    outputRoot,
    runId: options.runId,
    sessionId: options.runId,
    env,
    emit,
    contextFor,
    guarded,
  });
  return {
    workspace,
    policy,
    registry,
    runner: commands.runner,
    events,
    executor,
    contextFor,
    ...(checkpoints ? { checkpoints } : {}),
    languages,
  };
}

/** Limits of a tool eval: fixed, so a case's expectations do not depend on anyone's config. */
const EVAL_LIMITS: ToolLimits = {
  maxOutputSize: 256 * 1024,
  maxFileReadSize: 1024 * 1024,
  commandTimeoutMs: 10_000,
  maxStdoutBytes: 256 * 1024,
  maxStderrBytes: 256 * 1024,
  // The first case on a fixture starts its TypeScript service cold: that start must not decide the outcome.
  diagnosticsMs: 60_000,
};

/**
 * The tools of each tool eval case: full mode, default config, no sandbox, nothing guarded. The cases on one
 * workspace share its language services (a cold pyright or rust-analyzer costs seconds), each case seeing them
 * through a view of its own (its own changed files); they hear of the files put back between cases.
 */
export function caseToolsOpener(): CaseToolsOpener {
  const shared = new Map<string, LanguageServices>();
  return {
    async open(workspace, options = {}) {
      const loaded = await defaultConfig();
      loaded.config.code.diagnostics = options.diagnostics === true;
      let owner = shared.get(workspace.root);
      if (!owner) {
        owner = runLanguages(workspace.root, loaded.config);
        shared.set(workspace.root, owner);
      }
      if (workspace.restored.length > 0) owner.changed([...workspace.restored]);
      const host = await openToolHost({
        loaded,
        dir: workspace.root,
        mode: 'full',
        sandbox: false,
        env: process.env,
        runId: 'eval',
        guarded: false,
        limits: EVAL_LIMITS,
        stateDir: workspace.stateDir,
        todos: true,
        languages: owner.view(),
      });
      return { execute: host.executor.execute, close: () => void host.runner.killAll() };
    },
    async close() {
      const owners = [...shared.values()];
      shared.clear();
      await Promise.all(owners.map((o) => o.close()));
    },
  };
}

/**
 * What the policy decides for one call, nothing asked or run (`keel policy check`): the tool's preview, built as the
 * executor builds it, then the policy's decision; a path that escapes the workspace is a deny right there.
 */
export async function decideCall(
  tool: Tool,
  args: unknown,
  policy: Policy,
  ctx: ToolContext,
): Promise<PolicyDecision> {
  try {
    const preview = tool.preview
      ? await tool.preview(args, ctx)
      : { reads: [], writes: [], summary: tool.name };
    return await policy.decide({ tool: tool.name, safety: tool.safety, args, preview });
  } catch (error) {
    return escapeDecision(error);
  }
}

/** A path outside the workspace is a refusal like any other; every other failure is one. */
function escapeDecision(error: unknown): PolicyDecision {
  if (!(error instanceof KeelError) || error.code !== 'path_escape') throw error;
  return { decision: 'deny', reason: error.message, reasons: [error.message] };
}

/**
 * What the policy decides for any call of `tool` on `path`, for a tool that needs more than a path to preview a call
 * (edit_file's old and new text, move_path's two ends): a read of it, and a write unless the tool is read-only.
 */
export async function decidePath(
  tool: Tool,
  path: string,
  policy: Policy,
  ctx: ToolContext,
): Promise<PolicyDecision> {
  try {
    const absolute = await ctx.workspace.resolve(path);
    const writes = tool.safety === 'safe' ? [] : [absolute];
    const summary = `${tool.name} ${ctx.workspace.relative(absolute)}`;
    const preview = { reads: [absolute], writes, summary };
    return await policy.decide({ tool: tool.name, safety: tool.safety, args: { path }, preview });
  } catch (error) {
    return escapeDecision(error);
  }
}
