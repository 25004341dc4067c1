// A run's tool executor as one value: the registry, the policy and what surrounds every call (approvals and
// their "always" memory, dry run, checkpoints, the tripwire, the user's hooks, saved outputs), with each call's
// ToolContext from tool-context.ts. The agent loop, `keel mcp serve` and the tool evals all run calls through it.
import { dirname, join } from 'node:path';
import type { LoopExecutor } from '../agent/loop.js';
import { type Checkpointer, createCheckpointer } from '../checkpoint/checkpointer.js';
import type { GitSpawn } from '../checkpoint/shadow-git.js';
import type { KeelConfig } from '../config/schema.js';
import type { Approve } from '../core/approval.js';
import type { AgentEvent } from '../core/events.js';
import type { ToolCall } from '../core/messages.js';
import { createHooks, type Hooks } from '../extend/hooks.js';
import { ApprovalMemory } from '../safety/approval-memory.js';
import type { Policy } from '../safety/policy.js';
import { createReadJail } from '../safety/read-jail.js';
import { createTripwire, type Tripwire } from '../safety/tripwire.js';
import {
  assessToolCall,
  type ExecutorContext,
  executeToolCall,
  formatForModel,
  type PreparedCall,
} from '../tools/executor.js';
import { capTurn, createOutputStore, removeOldOutputs } from '../tools/output-cap.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolResult } from '../tools/tool.js';
import type { ContextFor } from './tool-context.js';

export { modeMayChangeFiles, planModeExecutor } from './execution-modes.js';

export interface Executor extends LoopExecutor {
  readonly registry: ToolRegistry;
  /** Runs one call through every step and returns the whole result (keel mcp serve, tool evals). */
  execute(call: ToolCall, turn: number, signal: AbortSignal): Promise<ToolResult>;
}

export function createExecutor(held: ExecutorContext, contextFor: ContextFor): Executor {
  // A read-only call run in the concurrent group, before anything of its turn changed, is not previewed and
  // decided again; any other call is (an earlier call of the turn may have changed what the policy would say).
  const prepared = new WeakMap<ToolCall, PreparedCall>();
  return {
    registry: held.registry,
    specs: () => held.registry.specs(),
    async assess(call, _turn, signal) {
      const assessment = await assessToolCall(call, held, contextFor(signal));
      if (assessment.prepared) prepared.set(call, assessment.prepared);
      return assessment;
    },
    async run(call, turn, signal, concurrent) {
      const ready = concurrent ? prepared.get(call) : undefined;
      const result = await executeToolCall(call, turn, held, contextFor(signal, concurrent?.emit), ready);
      const { saved_output: path, original_size: size } = result.metadata;
      return {
        content: formatForModel(result),
        isError: !result.success,
        ...(result.images?.length ? { images: result.images } : {}),
        ...(typeof path === 'string' && typeof size === 'number' ? { saved: { path, size } } : {}),
      };
    },
    async capTurn(calls, outcomes, signal) {
      const limit = contextFor(signal).limits.maxTurnOutputSize;
      if (limit === undefined) return [...outcomes];
      const contents = await capTurn(
        outcomes.map((outcome, i) => ({
          callId: calls[i]!.id,
          content: outcome.content,
          ...(outcome.saved ? { saved: outcome.saved } : {}),
        })),
        limit,
        held.saveOutput,
      );
      return outcomes.map((outcome, i) => ({ ...outcome, content: contents[i]! }));
    },
    execute: (call, turn, signal) => executeToolCall(call, turn, held, contextFor(signal)),
  };
}

export interface ExecutionOptions {
  config: KeelConfig;
  registry: ToolRegistry;
  policy: Policy;
  workspaceRoot: string;
  stateDir: string;
  /** Where results too large for the model are saved (a read-only root of the workspace jail). */
  outputRoot: string;
  /** Names this process's saved outputs. */
  runId: string;
  /** What hooks are told the session is. */
  sessionId: string;
  /** Where each config key came from (config key → source): a project file's hooks go through the read jail. */
  sources?: Record<string, string>;
  env: NodeJS.ProcessEnv;
  emit: (event: AgentEvent) => void;
  contextFor: ContextFor;
  approve?: Approve;
  /** The chat's "always" answers, kept across its restarts (/model, /mode); default: new for this run. */
  approvals?: ApprovalMemory;
  /** --dry-run: changes are reported, not made, so no checkpoint is taken either. */
  dryRun?: boolean;
  /** false: no checkpoints, tripwire, hooks or saved outputs (policy check, tool evals). */
  guarded?: boolean;
  /** How the checkpoint store's git processes start; default: spawned from this process. */
  startGit?: GitSpawn;
}

export interface Execution {
  executor: Executor;
  /** What surrounds every call (policy, approvals, hooks, checkpoints): sub-agents' executors share it. */
  held: ExecutorContext;
  hooks?: Hooks;
  checkpoints?: Checkpointer;
  tripwire?: Tripwire;
}

/** The executor with the run's hooks, checkpoints (before each change, for `keel undo`), saved outputs and approvals. */
export function openExecution(options: ExecutionOptions): Execution {
  const { emit, env } = options;
  const guarded = options.guarded !== false;
  const hooks = guarded
    ? createHooks(options.config.hooks, {
        workspace: options.workspaceRoot,
        sessionId: options.sessionId,
        env,
        emit,
        // A project file's hooks whose script links out of the workspace are skipped as they are about to run.
        ...(options.sources ? { jail: { reads: createReadJail(env), sources: options.sources } } : {}),
      })
    : undefined;
  // KEEL_CHECKPOINTS=off: a throwaway environment (a CI container, the end-to-end tests) where no one will undo,
  // so no git process runs before each change.
  const checkpoints =
    guarded && options.dryRun !== true && env.KEEL_CHECKPOINTS !== 'off'
      ? createCheckpointer({
          root: options.workspaceRoot,
          stateDir: options.stateDir,
          env,
          maxIgnoredKb: options.config.checkpoints.max_ignored_file_kb,
          maxFileMb: options.config.checkpoints.max_file_mb,
          ...(options.startGit ? { startGit: options.startGit } : {}),
          warn: (message) => emit({ type: 'warning', message }),
        })
      : undefined;
  // Protected files (git's config and hooks, Keel's and other agents' settings) put back after any call changes them.
  const tripwire = guarded
    ? createTripwire({ root: options.workspaceRoot, globs: options.config.safety.protected_paths, env })
    : undefined;
  if (guarded) {
    // Saved outputs are kept a week (this workspace's runs, and other workspaces' folders left as long); clearing
    // them never delays the run.
    for (const dir of [options.outputRoot, dirname(options.outputRoot)]) {
      void removeOldOutputs(dir, 7 * 24 * 3600 * 1000).catch(() => {});
    }
  }
  const held: ExecutorContext = {
    registry: options.registry,
    policy: options.policy,
    ...(options.approve
      ? { approve: options.approve, approvals: options.approvals ?? new ApprovalMemory() }
      : {}),
    ...(options.dryRun ? { dryRun: true } : {}),
    ...(checkpoints ? { beforeChange: (change) => checkpoints.take(change) } : {}),
    ...(tripwire ? { tripwire } : {}),
    ...(hooks ? { hooks } : {}),
    ...(guarded ? { saveOutput: createOutputStore(join(options.outputRoot, options.runId)) } : {}),
  };
  return {
    executor: createExecutor(held, options.contextFor),
    held,
    ...(hooks ? { hooks } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    ...(tripwire ? { tripwire } : {}),
  };
}
