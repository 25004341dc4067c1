// The order test files start in: the slowest first, so the two workers finish together instead of one running a
// long file alone at the end; the few that load TypeScript into their worker after the other slow ones. Vitest orders by the durations of its last run, kept under node_modules; a fresh
// clone (CI) has none and falls back to file size, which starts small, slow end-to-end files last. Durations of a
// quiet run are kept in test/durations.json for that case (`node scripts/test-durations.mjs <report.json>` writes
// it from a `vitest run --reporter=json` report); vitest's own, when it has them, win.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const table: Record<string, number> = (() => {
  try {
    return JSON.parse(readFileSync(resolve(import.meta.dirname, '../durations.json'), 'utf8'));
  } catch {
    return {};
  }
})();

/** Test files that load the TypeScript compiler into the worker, in process. */
const HEAVY = new Set([
  'test/e2e/eval-tools.test.ts',
  'test/code/language/typescript.test.ts',
  'test/architecture/layers.test.ts',
]);
/** Files at least this slow start before the heavy ones. */
const SLOW_MS = 2000;

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    // Failed files first, then unknown (new) ones, as vitest does; then the longest.
    const weight = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const state = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      if (state?.failed) return 2e12;
      return state?.duration ?? table[path] ?? 1e12;
    };
    // A file that loads TypeScript (or dependency-cruiser) into its worker leaves it 60–150 MB bigger for every
    // file after it, and each process a test starts from a bigger worker costs more to fork (measured here: 10 ms
    // a spawn from a small process, 38 from a 500 MB one). Those files start after the other slow files, before
    // the many short ones, which still even out the two workers' ends.
    const band = (spec: TestSpecification): number => {
      if (HEAVY.has(relative(root, spec.moduleId))) return 1;
      return (weights.get(spec) ?? 0) >= SLOW_MS ? 2 : 0;
    };
    const weights = new Map(files.map((spec) => [spec, weight(spec)]));
    return [...files].sort((a, b) => band(b) - band(a) || (weights.get(b) ?? 0) - (weights.get(a) ?? 0));
  }
}
