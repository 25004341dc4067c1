// Re-basing edit_file's new_string when old_string matched only at another indentation: lines it keeps go where the
// file has them, new lines keep their offset from those; nothing already at the file's indentation moves again.

import { canonicalLine } from './edit-tolerance.js';

export interface Rebased {
  lines: string[];
  /** What was done, for the result text; undefined when the lines were kept exactly as written. */
  note?: string;
  /** The other reading (shifted where this one kept, or kept where this one shifted), for the syntax check to try. */
  alternative?: { lines: string[]; note?: string };
}

interface Style {
  tabs: boolean;
  /** Columns of one tab when converting between tabs and spaces. */
  tabWidth: number;
}

export const indentOf = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? '';
const isBlank = (line: string): boolean => line.trim() === '';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The step between indentation widths of these lines (4 for 0, 4, 8), or undefined when there is none. */
function spaceUnit(lines: readonly string[]): number | undefined {
  const widths = new Set(
    lines.filter((l) => !isBlank(l) && !indentOf(l).includes('\t')).map((l) => indentOf(l).length),
  );
  let unit = 0;
  const sorted = [...widths].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) unit = gcd(unit, sorted[i]! - sorted[i - 1]!);
  // Steps of 8 or 12 say only that the unit divides them: 4 is the usual one.
  if (unit > 4 && unit % 4 === 0) return 4;
  return unit >= 2 && unit <= 8 ? unit : undefined;
}

const usesTabs = (lines: readonly string[]): boolean => {
  let tabs = 0;
  let spaces = 0;
  for (const line of lines) {
    if (line.startsWith('\t')) tabs += 1;
    else if (line.startsWith(' ') && !isBlank(line)) spaces += 1;
  }
  return tabs > spaces;
};

const columns = (indent: string, style: Style): number =>
  [...indent].reduce((sum, ch) => sum + (ch === '\t' ? style.tabWidth : 1), 0);

function render(cols: number, style: Style): string {
  const width = Math.max(0, cols);
  if (!style.tabs) return ' '.repeat(width);
  return '\t'.repeat(Math.floor(width / style.tabWidth)) + ' '.repeat(width % style.tabWidth);
}

/** Each non-blank line moved to the column `to` gives for its own, written in the file's style. */
function moved(
  lines: readonly string[],
  to: (column: number) => number,
  model: Style,
  file: Style,
): string[] {
  return lines.map((line) => {
    if (isBlank(line)) return line;
    const indent = indentOf(line);
    return render(to(columns(indent, model)), file) + line.slice(indent.length);
  });
}

/**
 * How many file columns one column of the model's nesting is (2 when the model indents by 2 and the file by 4),
 * from old_string's lines and the file's lines they matched; undefined when no one factor fits them all.
 */
function levelScale(
  pairs: readonly (readonly [number, number])[],
  from: number,
  to: number,
): number | undefined {
  let scale: number | undefined;
  for (const [model, file] of pairs) {
    if (model === from) {
      if (file !== to) return undefined;
      continue;
    }
    const ratio = (file - to) / (model - from);
    if (ratio <= 0 || (scale !== undefined && Math.abs(ratio - scale) > 1e-9)) return undefined;
    scale = ratio;
  }
  return scale ?? 1;
}

/** Where one line of the model's sits in the file: its column as written and in the file. */
interface Reference {
  model: number;
  file: number;
}

/**
 * new_string's lines for a match where old_string's lines equal `window` (the file's lines) but for whitespace.
 * A new_string whose first line is already at the file's indentation (old_string's was not) is kept as written.
 * Otherwise lines new_string keeps from old_string go where the file has them (moved as far as the model moved
 * them), and the other lines keep their offset, as the model wrote it, from the nearest kept line (above, else
 * below), or else from where old_string's first line is in the file.
 * `fileLines` gives the file's indentation style when the window alone does not show it.
 */
export function rebase(
  newLines: readonly string[],
  oldLines: readonly string[],
  window: readonly string[],
  fileLines: readonly string[],
): Rebased {
  const anchor = oldLines.findIndex((line) => !isBlank(line));
  const newAnchor = newLines.findIndex((line) => !isBlank(line));
  if (anchor === -1 || newAnchor === -1) return { lines: [...newLines] };

  const indented = window.filter((l) => !isBlank(l) && indentOf(l) !== '');
  const fileTabs = usesTabs(indented.length > 0 ? indented : fileLines);
  const modelTabs = usesTabs([...oldLines, ...newLines]);
  // One tab is as many columns as the space-indenting side's step (4 when it shows none).
  const spaceSide = fileTabs ? [...oldLines, ...newLines] : fileLines;
  const tabWidth = fileTabs === modelTabs ? 4 : (spaceUnit(spaceSide) ?? 4);
  const file: Style = { tabs: fileTabs, tabWidth };
  const model: Style = { tabs: modelTabs, tabWidth };
  const modelCol = (line: string): number => columns(indentOf(line), model);
  const fileCol = (line: string): number => columns(indentOf(line), file);

  const pairs = oldLines.flatMap((line, i) =>
    isBlank(line) ? [] : [[modelCol(line), fileCol(window[i]!)] as const],
  );
  const from = pairs[0]![0];
  const to = pairs[0]![1];
  const scale = levelScale(pairs, from, to) ?? 1;
  // Copied from the middle of the first line: the first line lost its indentation, the others are the file's.
  const firstStripped = pairs.length > 1 && from !== to && pairs.slice(1).every(([m, f]) => m === f);

  // Lines of new_string that old_string has too (in order): the old line's index for each.
  const kept = new Map<number, number>();
  const canonical = oldLines.map(canonicalLine);
  let next = 0;
  for (const [i, line] of newLines.entries()) {
    if (isBlank(line)) continue;
    const k = canonical.indexOf(canonicalLine(line), next);
    if (k === -1) continue;
    kept.set(i, k);
    next = k + 1;
  }
  const wrote = modelCol(newLines[newAnchor]!);
  // The first line of a stripped copy is, in the model's own columns, where the file has it.
  const modelColAt = (j: number): number =>
    firstStripped && j === newAnchor && wrote === from ? to : modelCol(newLines[j]!);
  // A kept line stays where the file has it unless the model moved it against old_string (to wrap or unwrap it in
  // a block): then it moves as far. In a stripped copy the other lines of old_string are the file's own columns.
  const placed = new Map<number, number>();
  for (const [i, k] of kept) {
    const oldCol = modelCol(oldLines[k]!);
    const relative = firstStripped && k > anchor ? oldCol - (to - from) : oldCol;
    const now = modelColAt(i);
    const target = fileCol(window[k]!);
    placed.set(
      i,
      now === oldCol || now === relative ? target : target + Math.round((now - relative) * scale),
    );
  }
  const reference = (i: number): Reference | undefined => {
    const at = (j: number): Reference => ({ model: modelColAt(j), file: placed.get(j)! });
    for (let j = i - 1; j >= 0; j--) if (placed.has(j)) return at(j);
    for (let j = i + 1; j < newLines.length; j++) if (placed.has(j)) return at(j);
    return undefined;
  };
  const first: Reference =
    wrote === from
      ? { model: modelColAt(newAnchor), file: to }
      : (reference(newAnchor) ?? { model: from, file: to });

  const relocated = newLines.map((line, i) => {
    if (isBlank(line)) return line;
    const text = line.slice(indentOf(line).length);
    const k = kept.get(i);
    const col = placed.get(i);
    if (k !== undefined && col === fileCol(window[k]!)) return indentOf(window[k]!) + text;
    if (col !== undefined) return render(col, file) + text;
    const ref = i === newAnchor ? first : (reference(i) ?? first);
    return render(ref.file + Math.round((modelColAt(i) - ref.model) * scale), file) + text;
  });
  const uniform = moved(newLines, (c) => to + Math.round((c - from) * scale), model, file);
  const asWritten = fileTabs === modelTabs ? [...newLines] : moved(newLines, (c) => c, model, file);
  const equal = (a: readonly string[], b: readonly string[]): boolean => a.join('\n') === b.join('\n');
  const convert = fileTabs === modelTabs ? '' : `converted to ${fileTabs ? 'tabs' : 'spaces'}`;
  const noteFor = (result: readonly string[]): string | undefined => {
    if (equal(result, asWritten)) {
      if (from === to) return convert ? `new_string was ${convert}` : undefined;
      return `new_string was already at the file's indentation and kept as written${convert ? ` (${convert})` : ''}`;
    }
    const shift = fileCol(result[newAnchor]!) - wrote;
    const parts = [
      shift === 0
        ? "re-indented to the file's indentation"
        : `re-indented by ${shift > 0 ? '+' : ''}${shift} columns to the file's indentation`,
    ];
    if (scale !== 1) parts.push(`its nesting scaled ×${Math.round(scale * 100) / 100} to the file's step`);
    if (convert) parts.push(convert);
    return `new_string was ${parts.join(' and ')}`;
  };
  // new_string already starts at the file's indentation (and old_string did not): moving it would indent it twice.
  const lines = wrote === to && from !== to ? asWritten : relocated;
  // The other reading for the syntax check: one shift for every line, or the lines as written.
  const other = [uniform, asWritten, relocated].find((candidate) => !equal(candidate, lines));
  return {
    lines,
    note: noteFor(lines),
    alternative: other && { lines: other, note: noteFor(other) },
  };
}
