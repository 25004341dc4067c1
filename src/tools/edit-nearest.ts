// The nearest region of a file to an old_string that did not match: the window of lines most like it (character
// bigrams), numbered, so the model can copy the file's real text into its retry.

/** Lines of the old text compared when looking for the nearest region: enough to place it, bounded in cost. */
const NEAREST_MAX_LINES = 30;
/** Lines of context shown around the nearest region. */
const NEAREST_CONTEXT = 2;
/** Below this similarity the nearest region is not worth showing. */
const NEAREST_MIN_SCORE = 0.25;

const normalizeLine = (line: string): string => line.trim().replace(/\s+/g, ' ');

/** Character-bigram counts of a normalised line, for a cheap similarity (Dice coefficient). */
function bigrams(line: string, cache: Map<string, Map<string, number>>): Map<string, number> {
  let counts = cache.get(line);
  if (counts) return counts;
  counts = new Map();
  const text = normalizeLine(line);
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  cache.set(line, counts);
  return counts;
}

function similarity(a: string, b: string, cache: Map<string, Map<string, number>>): number {
  const na = normalizeLine(a);
  const nb = normalizeLine(b);
  if (na === nb) return 1;
  if (na.length < 2 || nb.length < 2) return 0;
  const x = bigrams(a, cache);
  const y = bigrams(b, cache);
  let shared = 0;
  for (const [pair, count] of x) shared += Math.min(count, y.get(pair) ?? 0);
  return (2 * shared) / (na.length - 1 + (nb.length - 1));
}

/** The file's lines most like `wanted`, numbered, with a little context; or a note that nothing is close. */
export function nearestRegion(lines: readonly string[], wanted: readonly string[]): string {
  const probe = wanted.slice(0, NEAREST_MAX_LINES);
  const cache = new Map<string, Map<string, number>>();
  let best = { start: 0, score: -1 };
  const last = Math.max(0, lines.length - probe.length);
  for (let i = 0; i <= last; i++) {
    let total = 0;
    for (let j = 0; j < probe.length && i + j < lines.length; j++)
      total += similarity(lines[i + j]!, probe[j]!, cache);
    const score = total / probe.length;
    if (score > best.score) best = { start: i, score };
  }
  if (best.score < NEAREST_MIN_SCORE)
    return 'No similar region found; read the file to see its current text.';
  const from = Math.max(0, best.start - NEAREST_CONTEXT);
  const to = Math.min(lines.length, best.start + wanted.length + NEAREST_CONTEXT);
  const width = String(to).length;
  const shown = lines.slice(from, to).map((line, k) => `${String(from + k + 1).padStart(width)}| ${line}`);
  const percent = Math.round(best.score * 100);
  const span = `${best.start + 1}-${Math.min(lines.length, best.start + wanted.length)}`;
  return `Nearest region (lines ${span}, ${percent}% similar):\n${shown.join('\n')}`;
}

/** Lines `from`-`to` (1-based, inclusive) with numbers and a little context. */
export function numberedRegion(lines: readonly string[], from: number, to: number): string {
  const first = Math.max(1, from - NEAREST_CONTEXT);
  const last = Math.min(lines.length, to + NEAREST_CONTEXT);
  const width = String(last).length;
  return lines
    .slice(first - 1, last)
    .map((line, k) => `${String(first + k).padStart(width)}| ${line}`)
    .join('\n');
}
