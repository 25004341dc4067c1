// Keel's entry point: runs the process's command line (run-args.ts) and watches for a reader that closed stdout.
import { outputClosed, watchClosedOutput } from './closed-output.js';
import { runArgs } from './run-args.js';

async function main(argv: string[]): Promise<void> {
  watchClosedOutput();
  const terminal = { stdin: Boolean(process.stdin.isTTY), stdout: Boolean(process.stdout.isTTY) };
  await runArgs(argv, terminal, () => {
    // `keel … | head -1`: the reader had what it wanted, so the pipeline succeeded (0, like other tools).
    if (outputClosed.aborted) process.exitCode = 0;
  });
}

void main(process.argv);
