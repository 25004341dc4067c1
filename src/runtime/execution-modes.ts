// What a run's mode says of its execution, apart from the executor itself (runtime/executor.ts), so a run decides it
// without loading the execution side: whether any call may change files, and the tools plan mode offers.
import type { LoopExecutor } from '../agent/loop.js';
import { ACTIONS, type ActionKind, verdictOf } from '../safety/modes.js';
import type { ExecutionMode } from '../safety/policy.js';
import { offeredInPlanMode, type ToolRegistry } from '../tools/registry.js';

/** Whether a mode lets any call change files (only then is a run's first checkpoint prepared at launch). */
export function modeMayChangeFiles(mode: ExecutionMode): boolean {
  return Object.entries(ACTIONS).some(
    ([kind]) =>
      kind !== 'read' && kind !== 'read-only-command' && verdictOf(kind as ActionKind, mode) !== 'deny',
  );
}

/** Plan mode offers only what plans (tools joining later, MCP's among them, included); the policy refuses the rest. */
export function planModeExecutor<E extends LoopExecutor>(execution: E, registry: ToolRegistry): E {
  return {
    ...execution,
    specs: () =>
      execution
        .specs()
        .filter((spec) =>
          offeredInPlanMode(registry.get(spec.name) ?? { name: spec.name, safety: 'dangerous' }),
        ),
  };
}
