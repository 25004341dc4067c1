// Re-basing edit_file's new_string when old_string matched only at another indentation: by how far the model's
// old_string was off the file, unless new_string is already at the file's indentation; tabs or spaces as the file has.

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

/** Each non-blank line moved by `shift` columns and written in the file's style. */
function shifted(lines: readonly string[], shift: number, model: Style, file: Style): string[] {
  return lines.map((line) => {
    if (isBlank(line)) return line;
    const indent = indentOf(line);
    return render(columns(indent, model) + shift, file) + line.slice(indent.length);
  });
}

function describe(shift: number, convert: string): string | undefined {
  const parts: string[] = [];
  if (shift !== 0)
    parts.push(`re-indented by ${shift > 0 ? '+' : ''}${shift} columns to the file's indentation`);
  if (convert) parts.push(convert);
  return parts.length > 0 ? `new_string was ${parts.join(' and ')}` : undefined;
}

/**
 * new_string's lines for a match where old_string's lines equal `window` (the file's lines) but for whitespace.
 * `fileLines` gives the file's indentation style when the window alone does not show it.
 */
export function rebase(
  newLines: readonly string[],
  oldLines: readonly string[],
  window: readonly string[],
  fileLines: readonly string[],
): Rebased {
  const anchor = oldLines.findIndex((line) => !isBlank(line));
  const newAnchor = newLines.find((line) => !isBlank(line));
  if (anchor === -1 || newAnchor === undefined) return { lines: [...newLines] };

  const indented = window.filter((l) => !isBlank(l) && indentOf(l) !== '');
  const fileTabs = usesTabs(indented.length > 0 ? indented : fileLines);
  const modelTabs = usesTabs([...oldLines, ...newLines]);
  // One tab is as many columns as the space-indenting side's step (4 when it shows none).
  const spaceSide = fileTabs ? [...oldLines, ...newLines] : fileLines;
  const tabWidth = fileTabs === modelTabs ? 4 : (spaceUnit(spaceSide) ?? 4);
  const file: Style = { tabs: fileTabs, tabWidth };
  const model: Style = { tabs: modelTabs, tabWidth };

  const from = columns(indentOf(oldLines[anchor]!), model);
  const to = columns(indentOf(window[anchor]!), file);
  const wrote = columns(indentOf(newAnchor), model);
  const convert = fileTabs === modelTabs ? '' : `converted to ${fileTabs ? 'tabs' : 'spaces'}`;
  const keep = (): { lines: string[]; note?: string } =>
    convert
      ? { lines: shifted(newLines, 0, model, file), note: describe(0, convert) }
      : { lines: [...newLines] };
  const shift = (): { lines: string[]; note?: string } => ({
    lines: shifted(newLines, to - from, model, file),
    note: describe(to - from, convert),
  });

  if (from === to) return keep();
  // new_string already starts at the file's indentation: shifting it again would indent it twice.
  if (wrote === to) {
    const kept = keep();
    return {
      ...kept,
      note: kept.note ?? "new_string was already at the file's indentation and kept as written",
      alternative: shift(),
    };
  }
  return { ...shift(), alternative: keep() };
}
