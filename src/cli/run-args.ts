// One command line, start to exit code: how people start agents turned into subcommands (entry-argv.ts), parsed
// by commander (program.ts), every failure mapped to one clear message and its exit code. main.ts runs it for the
// process; the tests run it in process (test/support/cli-in-process.ts).
import { CommanderError } from 'commander';
import { UsageError } from '../core/errors.js';
import { contradictoryFlag, entryArgs } from './entry-argv.js';
import { buildProgram } from './program.js';
import { reportFailure } from './report.js';

/**
 * Runs `argv` (node's form: the runtime and script first) and sets process.exitCode; `parsed` runs after a
 * command finished without throwing. Whether stdin and stdout are terminals decides what a bare `keel` means.
 * Resolves with the name of the command that ran to its end (`run`, `chat`, …), if one did.
 */
export async function runArgs(
  argv: readonly string[],
  terminal: { stdin: boolean; stdout: boolean },
  parsed?: () => void,
): Promise<string | undefined> {
  const program = buildProgram();
  const args = argv.slice(2);
  let ran: string | undefined;
  program.hook('postAction', (_program, action) => {
    ran = action.name();
  });
  try {
    const contradiction = contradictoryFlag(args);
    if (contradiction) {
      const flag = `--${contradiction.slice('--no-'.length)}`;
      throw new UsageError(`${flag} and ${contradiction} contradict each other`, {
        hint: 'pass only one of them',
      });
    }
    await program.parseAsync([...argv.slice(0, 2), ...entryArgs(args, program, terminal)]);
    parsed?.();
    return ran;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every other parse problem is a usage error (exit 2).
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return undefined;
    }
    process.exitCode = reportFailure(error, { debug: args.includes('--debug') });
    return undefined;
  }
}
