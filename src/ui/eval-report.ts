// Eval results for people: the tool evals' table per tool (cases, passed, failed) with each failure's details.
import type { ToolCaseResult } from '../evals/tool-evals.js';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export const percent = (part: number, whole: number) =>
  whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`;

export function formatToolEvals(results: readonly ToolCaseResult[], style: Style): string {
  const byTool = new Map<string, { cases: number; passed: number }>();
  for (const r of results) {
    const row = byTool.get(r.tool) ?? { cases: 0, passed: 0 };
    row.cases += 1;
    if (r.passed) row.passed += 1;
    byTool.set(r.tool, row);
  }
  const rows = [...byTool.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tool, row]) => [tool, String(row.cases), String(row.passed), String(row.cases - row.passed)]);
  const passed = results.filter((r) => r.passed).length;
  rows.push(['total', String(results.length), String(passed), String(results.length - passed)]);
  const out = [table(['tool', 'cases', 'passed', 'failed'], rows), ''];
  for (const r of results.filter((x) => !x.passed)) {
    out.push(
      `${style.red('✗')} ${style.bold(sanitize(`${r.tool}: ${r.name}`))} ${style.dim(sanitize(r.file))}`,
    );
    for (const p of r.problems) out.push(`    ${sanitize(p)}`);
    out.push(`    ${style.dim(`got: ${sanitize(r.got.length > 400 ? `${r.got.slice(0, 400)}…` : r.got)}`)}`);
  }
  out.push(
    `${passed === results.length ? style.green('all passed') : style.red(`${results.length - passed} failed`)}: ${passed}/${results.length} (${percent(passed, results.length)})`,
  );
  return `${out.join('\n')}\n`;
}
