// Keel's entry point: runs the process's command line (run-args.ts) and watches for a reader that closed stdout.
import { outputClosed, watchClosedOutput } from './closed-output.js';
import { restoreExtraCa } from './extra-ca.js';
import { runArgs } from './run-args.js';

async function main(argv: string[]): Promise<void> {
  // Before anything reads the environment or connects: the launcher handed NODE_EXTRA_CA_CERTS over (extra-ca.ts).
  restoreExtraCa();
  watchClosedOutput();
  const terminal = { stdin: Boolean(process.stdin.isTTY), stdout: Boolean(process.stdout.isTTY) };
  const ran = await runArgs(argv, terminal, () => {
    // `keel … | head -1`: the reader had what it wanted, so the pipeline succeeded (0, like other tools).
    if (outputClosed.aborted) process.exitCode = 0;
  });
  // A finished `keel run` or `keel ask` has flushed its session and settled its checkpoints (agent.close); what is
  // left (MCP servers told to end, their pipes) need not be awaited, nor V8's teardown of the heap, which takes
  // longer than the kernel's. Output written so far is flushed first (pipes are asynchronous on some platforms).
  if (ran === 'run' || ran === 'ask') {
    await Promise.all([process.stdout, process.stderr].map((stream) => flushed(stream)));
    process.exit();
  }
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}

void main(process.argv);
