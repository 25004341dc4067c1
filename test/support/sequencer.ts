// The order test files start in: the slowest first, so the two workers finish together instead of one running a
// long file alone at the end. Vitest orders by the durations of its last run, kept under node_modules; a fresh
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
    const weights = new Map(files.map((spec) => [spec, weight(spec)]));
    return [...files].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0));
  }
}
