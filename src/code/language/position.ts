// Positions in a text as editors count them (1-based lines, 1-based UTF-16 columns) and back to offsets, and the
// nth whole-word occurrence of a name: how a tool call's `line`/`column` or `occurrence` becomes a binding.

/** Offsets where each line starts. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** The 1-based line and column of an offset. */
export function positionAt(starts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - starts[low]! + 1 };
}

/** The offset of a 1-based line and column (clamped to the text). */
export function offsetAt(starts: readonly number[], line: number, column: number, length: number): number {
  const start = starts[Math.min(Math.max(line, 1), starts.length) - 1]!;
  return Math.min(start + Math.max(column, 1) - 1, length);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Offsets of `name` as a whole word (not inside a longer identifier), in order. */
export function wordOffsets(text: string, name: string): number[] {
  const word = new RegExp(`(?<![\\w$])${escapeRegex(name)}(?![\\w$])`, 'gu');
  return [...text.matchAll(word)].map((m) => m.index);
}

export type BindingAt = { offset: number; line: number; column: number } | { error: string };

/**
 * Where a tool call points: `line` (+ `column`) when given — the name on that line, at or after `column`, or the
 * column itself when the name is not there — else the `occurrence`-th whole-word occurrence of `name` (default 1).
 */
export function bindingAt(
  text: string,
  name: string,
  at: { line?: number; column?: number; occurrence?: number },
): BindingAt {
  const starts = lineStarts(text);
  const found = wordOffsets(text, name);
  if (at.line !== undefined) {
    if (at.line < 1 || at.line > starts.length)
      return { error: `line ${at.line} is past the end (${starts.length} lines)` };
    const lineStart = starts[at.line - 1]!;
    const lineEnd = at.line < starts.length ? starts[at.line]! : text.length;
    const from = at.column === undefined ? lineStart : offsetAt(starts, at.line, at.column, text.length);
    // The column may point inside the name, or before it on the same line.
    const hit =
      found.find((o) => o <= from && from < o + name.length) ?? found.find((o) => o >= from && o < lineEnd);
    if (hit !== undefined) return { offset: hit, ...positionAt(starts, hit) };
    if (at.column !== undefined) return { offset: from, line: at.line, column: at.column };
    return { error: `${name} is not on line ${at.line}` };
  }
  const nth = at.occurrence ?? 1;
  const hit = found[nth - 1];
  if (hit === undefined)
    return {
      error: `${name} occurs ${found.length} time${found.length === 1 ? '' : 's'} in the file, not ${nth}`,
    };
  return { offset: hit, ...positionAt(starts, hit) };
}
