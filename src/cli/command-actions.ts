// How Keel's commands are declared for commander: an action whose module loads only when it runs, and the option
// parsers several commands share.
import { type Command, InvalidArgumentError } from 'commander';
import type { GlobalOptions } from './global-options.js';

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive integer.');
  return n;
}

/**
 * A subcommand's action: its module loads only when it runs. The handler gets the positional arguments, then the
 * command's options over the global ones; what it returns is the exit code.
 */
export function lazyAction(load: () => Promise<(...args: never[]) => Promise<number>>) {
  return async (...args: unknown[]): Promise<void> => {
    const command = args.at(-1) as Command;
    const options = args.at(-2) as Record<string, unknown>;
    const handler = (await load()) as (...args: unknown[]) => Promise<number>;
    process.exitCode = await handler(...args.slice(0, -2), {
      ...command.optsWithGlobals<GlobalOptions>(),
      ...options,
    });
  };
}
