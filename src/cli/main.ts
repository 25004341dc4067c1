// Keel's entry point: turns how people start agents into subcommands (entry-argv.ts), parses them with commander
// (program.ts), and maps every failure to one clear message and its exit code.
import { CommanderError } from 'commander';
import { UsageError } from '../core/errors.js';
import { outputClosed, watchClosedOutput } from './closed-output.js';
import { contradictoryFlag, entryArgs } from './entry-argv.js';
import { buildProgram } from './program.js';
import { reportFailure } from './report.js';

async function main(argv: string[]): Promise<void> {
  watchClosedOutput();
  const program = buildProgram();
  try {
    const contradiction = contradictoryFlag(argv.slice(2));
    if (contradiction) {
      const flag = `--${contradiction.slice('--no-'.length)}`;
      throw new UsageError(`${flag} and ${contradiction} contradict each other`, {
        hint: 'pass only one of them',
      });
    }
    const terminal = { stdin: Boolean(process.stdin.isTTY), stdout: Boolean(process.stdout.isTTY) };
    await program.parseAsync([...argv.slice(0, 2), ...entryArgs(argv.slice(2), program, terminal)]);
    // `keel … | head -1`: the reader had what it wanted, so the pipeline succeeded (0, like other tools).
    if (outputClosed.aborted) process.exitCode = 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every other parse problem is a usage error (exit 2).
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    process.exitCode = reportFailure(error, { debug: argv.includes('--debug') });
  }
}

void main(process.argv);
