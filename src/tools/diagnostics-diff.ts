// Diagnostics compared and shown: the errors a list has that the list before did not (by code and message, as lines
// move with an edit), and the lines the model reads.
import type { Diagnostic } from '../code/language/service.js';

const MAX_SHOWN = 10;

// Not by file: a program-wide error (`Cannot find global value 'Promise'`) lands on whichever file is checked first.
const key = (d: Diagnostic) => `${d.code ?? ''}\0${d.message}`;

/**
 * Errors in `after` that `before` did not have, compared by code and message (lines move with an edit).
 * `renamed`: a rename's old and new name, so an old error naming the symbol is not taken for a new one.
 */
export function introducedErrors(
  before: readonly Diagnostic[],
  after: readonly Diagnostic[],
  renamed?: { from: string; to: string },
): Diagnostic[] {
  const left = new Map<string, number>();
  for (const d of before) if (d.severity === 'error') left.set(key(d), (left.get(key(d)) ?? 0) + 1);
  return after.filter((d) => {
    if (d.severity !== 'error') return false;
    const k = renamed ? key({ ...d, message: d.message.replaceAll(renamed.to, renamed.from) }) : key(d);
    const n = left.get(k) ?? 0;
    if (n === 0) return true;
    left.set(k, n - 1);
    return false;
  });
}

/** Diagnostics as the model reads them: `path:line:col: TS2322 message`, at most `max` with a count of the rest. */
export function formatDiagnostics(list: readonly Diagnostic[], max = MAX_SHOWN): string[] {
  const lines = list.slice(0, max).map((d) => {
    const message = d.message.split('\n').slice(0, 2).join(' ').slice(0, 300);
    return `  ${d.path}:${d.line}:${d.column}: ${d.code ? `${d.code} ` : ''}${message}`;
  });
  if (list.length > max) lines.push(`  [${list.length - max} more]`);
  return lines;
}
