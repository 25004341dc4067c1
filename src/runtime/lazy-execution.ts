// The run's execution side (runtime/executor.ts: hooks, checkpoints, the tripwire, the policy's command analysis,
// saved outputs), loaded when first needed rather than at launch: the first model request needs only the tools'
// specs, which the registry gives. Calls wait for it; the run loads it once its first request is out.
import type { ExecutorContext } from '../tools/executor.js';
import type { Execution, ExecutionOptions, Executor } from './executor.js';

export interface LazyExecution {
  /** The run's executor: specs at once, each call once the execution side is loaded. */
  executor: Executor;
  /** Loads the execution side (once) and opens it with the run's options. */
  load(): Promise<Execution>;
  /** The execution if loading has begun (to await), else undefined: nothing to settle or close. */
  started(): Promise<Execution> | undefined;
  /** The execution once open, else undefined. */
  current(): Execution | undefined;
  /** Runs `work` on the execution as it opens (at once if open), before any call can use it. */
  whenOpen(work: (execution: Execution) => void): void;
  /** What surrounds every call, for sub-agents' executors. */
  held(): Promise<ExecutorContext>;
}

export function lazyExecution(options: ExecutionOptions): LazyExecution {
  let opened: Promise<Execution> | undefined;
  let execution: Execution | undefined;
  let pending: ((execution: Execution) => void)[] = [];
  const load = (): Promise<Execution> => {
    opened ??= import('./executor.js').then(({ openExecution }) => {
      const open = openExecution(options);
      execution = open;
      for (const work of pending) work(open);
      pending = [];
      return open;
    });
    return opened;
  };
  const executor: Executor = {
    registry: options.registry,
    specs: () => options.registry.specs(),
    assess: async (call, turn, signal) => {
      const { assess } = (await load()).executor;
      if (!assess) throw new Error('the executor assesses no call');
      return assess(call, turn, signal);
    },
    run: async (call, turn, signal, concurrent) =>
      (await load()).executor.run(call, turn, signal, concurrent),
    capTurn: async (calls, outcomes, signal) => {
      const { capTurn } = (await load()).executor;
      return capTurn ? capTurn(calls, outcomes, signal) : [...outcomes];
    },
    execute: async (call, turn, signal) => (await load()).executor.execute(call, turn, signal),
  };
  return {
    executor,
    load,
    started: () => opened,
    current: () => execution,
    whenOpen(work) {
      if (execution) work(execution);
      else pending.push(work);
    },
    held: async () => (await load()).held,
  };
}
