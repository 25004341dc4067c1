import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Measured on 2 cores: most of the unit tests' CPU went to evaluating the same modules (the AI SDK, zod
    // schemas, parsers) again for every file. Test files here keep no module state (no vi.mock), so one worker
    // thread evaluates them once: unit tests 94–104 s of CPU → 37 s, all passing.
    pool: 'threads',
    isolate: false,
    // End-to-end files mostly wait on the keel process they started; vitest's default (cores − 1) ran one file at
    // a time on 2 cores, leaving a core idle.
    maxWorkers: '100%',
  },
});
