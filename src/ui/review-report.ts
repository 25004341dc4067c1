// How `keel review` prints its findings: `path:line severity message`, grouped by file (files in order, lines in
// order, a blank line between files), or a JSON array of {path, line, severity, message}.
import { type Finding, SEVERITIES, type Severity, severityRank } from '../tools/report-finding.js';
import { sanitize } from './sanitize.js';

/** Sorted by file then line, with the same finding reported twice kept once. */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const unique = findings.filter((f) => {
    const key = `${f.path}\0${f.line}\0${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort((a, b) =>
    a.path === b.path
      ? a.line - b.line || severityRank(b.severity) - severityRank(a.severity)
      : a.path < b.path
        ? -1
        : 1,
  );
}

/** One line per finding, a blank line between files. */
export function formatFindings(findings: readonly Finding[]): string {
  const lines: string[] = [];
  let file: string | undefined;
  for (const f of orderFindings(findings)) {
    if (file !== undefined && f.path !== file) lines.push('');
    file = f.path;
    lines.push(sanitize(`${f.path}:${f.line} ${f.severity} ${f.message.replace(/\s+/g, ' ')}`));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

export function findingsJson(findings: readonly Finding[]): string {
  return `${JSON.stringify(orderFindings(findings), null, 2)}\n`;
}

/** `3 findings: 1 high, 2 low` (or `no findings`). */
export function findingsSummary(findings: readonly Finding[]): string {
  const ordered = orderFindings(findings);
  if (ordered.length === 0) return 'no findings';
  const counts = [...SEVERITIES]
    .reverse()
    .map((s: Severity) => [s, ordered.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  return `${ordered.length} finding${ordered.length === 1 ? '' : 's'}: ${counts.join(', ')}`;
}
