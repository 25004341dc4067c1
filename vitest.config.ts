import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './test/support/sequencer.js';

// pyenv's shims run about forty bash processes for each `python3` they stand for, and pyright asks for the
// interpreter three times as it starts: 1.6 s of CPU per pyright start here. Tests see PATH without them (the python
// behind them, or none, is what pyright and the shells then find).
const path = (process.env.PATH ?? '')
  .split(':')
  .filter((dir) => !/\/\.pyenv\/(shims|plugins\/[^/]+\/shims)$/.test(dir))
  .join(':');

// Node reads the extra CA file (220 KB here) at every start, about 45 ms of CPU per process, and the suite starts
// hundreds of node processes (Keel, pyright, MCP servers); no test makes a TLS connection. Workers inherit this.
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    env: { PATH: path },
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // One temp directory for the run's files, removed at its end (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Measured on 2 cores: most of the unit tests' CPU went to evaluating the same modules (the AI SDK, zod
    // schemas, parsers) again for every file. Test files here keep no module state (no vi.mock), so each worker
    // evaluates them once (isolate: false): unit tests 94–104 s of CPU → 37 s, all passing. Workers are processes,
    // not threads: the end-to-end tests spawn thousands of git, bash and keel processes, and each fork copies the
    // page tables of the process it forks from — one process holding every thread's heap made the git-heavy tests
    // cost 85 s of CPU instead of 69 (a quarter more system time).
    pool: 'forks',
    isolate: false,
    // End-to-end files mostly wait on the keel process they started; vitest's default (cores − 1) ran one file at
    // a time on 2 cores, leaving a core idle.
    maxWorkers: '100%',
    sequence: { sequencer: SlowestFirst },
  },
});
