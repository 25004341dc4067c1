// Eval results for people: the tool evals' table per tool (cases, passed, failed) with each failure's details, and
// the LLM evals' metrics table (CodeCraft's: exact, acceptable, wrong, none, forbidden, parameter quality).
import type { LlmCaseResult, LlmSummary } from '../evals/llm-score.js';
import type { ToolCaseResult } from '../evals/tool-evals.js';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  // Numbers (counts, rates, times) align right, words left.
  const numeric = header.map((_, i) => rows.every((r) => /^[-\d.,%]*( s)?$/.test(r[i] ?? '')));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
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
export function formatLlmEvals(results: readonly LlmCaseResult[], summary: LlmSummary, style: Style): string {
  const t = summary.total;
  const rows = [
    ['Exact matches', String(summary.exact), percent(summary.exact, t)],
    ['Acceptable matches', String(summary.acceptable), percent(summary.acceptable, t)],
    ['Wrong tool', String(summary.wrong), percent(summary.wrong, t)],
    ['No tool', String(summary.none), percent(summary.none, t)],
    ['Forbidden tool', String(summary.forbidden), percent(summary.forbidden, t)],
    ['Errors', String(summary.errors), percent(summary.errors, t)],
    [
      'Parameter quality',
      '',
      summary.parameterQuality === undefined ? '-' : `${(summary.parameterQuality * 100).toFixed(1)}%`,
    ],
  ];
  const repeated = results.some((r) => r.run > 1);
  const cases = results.map((r) => [
    sanitize(repeated ? `${r.id}#${r.run}` : r.id),
    r.intent,
    r.outcome,
    sanitize(r.tool ?? '-'),
    r.parameterScore === undefined ? '-' : `${(r.parameterScore * 100).toFixed(0)}%`,
    String(r.inputTokens + r.outputTokens),
    `${(r.durationMs / 1000).toFixed(1)} s`,
  ]);
  const out = [
    table(['case', 'intent', 'outcome', 'tool', 'params', 'tokens', 'time'], cases),
    '',
    table(['metric', 'count', 'rate'], rows),
    '',
    `${style.bold('score')}: ${percent(summary.exact + summary.acceptable, t)} exact or acceptable of ${t} runs; ${summary.inputTokens + summary.outputTokens} tokens, ${(summary.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const r of results.filter((x) => x.outcome !== 'exact' && x.outcome !== 'acceptable')) {
    const got = r.tool ? ` ${r.tool}` : '';
    out.push(
      `${style.red('✗')} ${sanitize(repeated ? `${r.id}#${r.run}` : r.id)}: ${r.outcome}${sanitize(got)}${r.detail ? ` (${sanitize(r.detail)})` : ''}`,
    );
  }
  return `${out.join('\n')}\n`;
}
