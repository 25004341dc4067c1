// How Keel stops: Ctrl-C interrupts the run, a second Ctrl-C, SIGTERM or SIGHUP kill running commands and exit.
import type { CommandRunner } from '../core/runner.js';
import { onOutputClosed } from './closed-output.js';

/**
 * SIGTERM and SIGHUP (the terminal closed) end Keel at once, killing every running command's process group
 * first so nothing it started is orphaned; `beforeExit` runs last (synchronously). Returns a function that removes
 * the handlers.
 */
export function exitOnTermination(runner: CommandRunner, beforeExit?: () => void): () => void {
  const handlers = (['SIGTERM', 'SIGHUP'] as const).map((name) => {
    const handler = () => {
      runner.killAll();
      beforeExit?.();
      process.exit(128 + (name === 'SIGTERM' ? 15 : 1));
    };
    process.on(name, handler);
    return () => process.off(name, handler);
  });
  return () => {
    for (const off of handlers) off();
  };
}

/**
 * Aborts on Ctrl-C or when nobody reads our output any more; a second Ctrl-C kills running commands' process
 * groups and exits at once.
 */
export function interruptSignal(runner?: CommandRunner): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) {
      runner?.killAll();
      process.exit(130);
    }
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const offTermination = runner ? exitOnTermination(runner) : () => {};
  const stopWatching = onOutputClosed(() => controller.abort());
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSigint);
      offTermination();
      stopWatching();
    },
  };
}
