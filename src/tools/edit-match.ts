// Applying edit_file's replacements to a text in memory: exact match first, then a whitespace- and
// indentation-tolerant line match (re-indenting the new text), and on a miss the nearest region of the file.

export interface Edit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export type EditResult =
  | { ok: true; text: string; replacements: number; notes: string[] }
  | { ok: false; error: string };

/** Lines of the old text compared when looking for the nearest region: enough to place it, bounded in cost. */
const NEAREST_MAX_LINES = 30;
/** Lines of context shown around the nearest region. */
const NEAREST_CONTEXT = 2;
/** Below this similarity the nearest region is not worth showing. */
const NEAREST_MIN_SCORE = 0.25;

const normalizeLine = (line: string): string => line.trim().replace(/\s+/g, ' ');
const indentOf = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? '';

/** The 1-based line on which `offset` falls. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Lines of a snippet: a final newline ends the last line rather than starting an empty one. */
function snippetLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function exactOffsets(text: string, needle: string): number[] {
  const offsets: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) offsets.push(i);
  return offsets;
}

/** Start lines (0-based) of the non-overlapping windows whose lines equal `wanted` once whitespace is normalised. */
function tolerantStarts(lines: readonly string[], wanted: readonly string[]): number[] {
  const target = wanted.map(normalizeLine);
  const starts: number[] = [];
  for (let i = 0; i + target.length <= lines.length; i++) {
    if (target.every((t, j) => normalizeLine(lines[i + j]!) === t)) {
      starts.push(i);
      i += target.length - 1;
    }
  }
  return starts;
}

/** The new lines moved from the indentation the model wrote to the file's, keeping their relative indentation. */
function reindent(newLines: string[], oldLines: readonly string[], window: readonly string[]): string[] {
  const anchor = oldLines.findIndex((line) => line.trim() !== '');
  if (anchor === -1) return newLines;
  const from = indentOf(oldLines[anchor]!);
  const to = indentOf(window[anchor]!);
  if (from === to) return newLines;
  return newLines.map((line) => {
    if (line.trim() === '') return line;
    return line.startsWith(from) ? to + line.slice(from.length) : to + line.trimStart();
  });
}

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
function nearestRegion(lines: readonly string[], wanted: readonly string[]): string {
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

/** One replacement on `text` (LF line endings), reporting what it did or why it could not. */
export function applyEdit(text: string, edit: Edit): EditResult {
  const { old_string: oldText, new_string: newText } = edit;
  if (oldText === '') return { ok: false, error: 'old_string is empty; use write_file to create a file' };
  if (oldText === newText) return { ok: false, error: 'old_string and new_string are identical' };

  const offsets = exactOffsets(text, oldText);
  if (offsets.length > 1 && !edit.replace_all) {
    const at = offsets.slice(0, 10).map((o) => lineAt(text, o));
    return {
      ok: false,
      error:
        `old_string matches ${offsets.length} times (lines ${at.join(', ')}${offsets.length > 10 ? ', …' : ''}); ` +
        'include more surrounding lines to make it unique, or pass replace_all: true',
    };
  }
  if (offsets.length > 0) {
    const replaced = edit.replace_all
      ? text.split(oldText).join(newText)
      : text.slice(0, offsets[0]) + newText + text.slice(offsets[0]! + oldText.length);
    return { ok: true, text: replaced, replacements: offsets.length, notes: [] };
  }

  const lines = text.split('\n');
  const oldLines = snippetLines(oldText);
  const starts = oldLines.some((l) => l.trim() !== '') ? tolerantStarts(lines, oldLines) : [];
  if (starts.length === 0) {
    return { ok: false, error: `old_string not found.\n${nearestRegion(lines, oldLines)}` };
  }
  if (starts.length > 1 && !edit.replace_all) {
    const at = starts.slice(0, 10).map((s) => s + 1);
    return {
      ok: false,
      error:
        `old_string matches ${starts.length} times ignoring whitespace (lines ${at.join(', ')}); ` +
        'include more surrounding lines to make it unique, or pass replace_all: true',
    };
  }
  const newLines = snippetLines(newText);
  const result = [...lines];
  // From the last match back, so earlier line numbers stay valid.
  for (const start of [...starts].reverse()) {
    const window = lines.slice(start, start + oldLines.length);
    result.splice(start, oldLines.length, ...reindent(newLines, oldLines, window));
  }
  const where = starts.map((s) => `${s + 1}-${s + oldLines.length}`).join(', ');
  const note =
    `old_string matched only ignoring whitespace and indentation (lines ${where}); ` +
    'new_string was re-indented to the file';
  return { ok: true, text: result.join('\n'), replacements: starts.length, notes: [note] };
}

/** Several edits applied in order to one text: all of them, or none (the first failure names its edit). */
export function applyEdits(text: string, edits: readonly Edit[]): EditResult {
  let current = text;
  let replacements = 0;
  const notes: string[] = [];
  for (const [i, edit] of edits.entries()) {
    const result = applyEdit(current, edit);
    const label = edits.length > 1 ? `edit ${i + 1} of ${edits.length}: ` : '';
    if (!result.ok) {
      const none = edits.length > 1 ? '\nNo edits were applied.' : '';
      return { ok: false, error: `${label}${result.error}${none}` };
    }
    current = result.text;
    replacements += result.replacements;
    notes.push(...result.notes.map((note) => label + note));
  }
  return { ok: true, text: current, replacements, notes };
}
