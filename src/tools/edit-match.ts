// Applying edit_file's replacements to a text in memory: exact match first, then low-risk tolerances in order
// (typographic punctuation, indentation with new_string re-based, whitespace, over-escaping), each named in the
// result; an ambiguous or missing match is refused with the candidate or nearest regions.
import { indentOf, rebase } from './edit-indent.js';
import { nearestRegion } from './edit-nearest.js';
import { newPlaceholders } from './edit-placeholders.js';
import {
  asciiPunctuation,
  canonicalLine,
  fragmentPattern,
  hasTypographic,
  trimLikeOld,
  unescapeOnce,
} from './edit-tolerance.js';

export interface Edit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export type EditResult =
  | { ok: true; text: string; replacements: number; notes: string[] }
  | { ok: false; error: string };

/** Whether an edit's result may stand: undefined when it may, otherwise why not (with the region to look at). */
export type SyntaxCheck = (before: string, after: string) => string | undefined;

/** A replacement: offsets in the text being edited and what goes there. */
interface Span {
  start: number;
  end: number;
  text: string;
}

/** What one way of matching found: the places, what it tolerated, and another reading for the syntax check. */
interface Found {
  spans: Span[];
  notes: string[];
  tolerance?: string;
  alternative?: { spans: Span[]; notes: string[] };
}

type Stage = (text: string, oldText: string, newText: string) => Found | undefined;

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

function offsetsOf(text: string, needle: string): number[] {
  const offsets: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) offsets.push(i);
  return offsets;
}

const exact: Stage = (text, oldText, newText) => {
  const offsets = offsetsOf(text, oldText);
  if (offsets.length === 0) return undefined;
  const spans = offsets.map((start) => ({ start, end: start + oldText.length, text: newText }));
  // old_string copied without the line's indentation, new_string written with its own: matched after the
  // indentation, new_string would add its own to it (`\t\treturn`). It takes the line's place instead; the other
  // reading is left to the syntax check.
  const own = indentOf(newText);
  if (own === '' || indentOf(oldText) !== '') return { spans, notes: [] };
  const lineStart = (offset: number) => text.lastIndexOf('\n', offset - 1) + 1;
  const afterIndent = (offset: number) =>
    offset > lineStart(offset) && text.slice(lineStart(offset), offset).trim() === '';
  if (!offsets.every(afterIndent)) return { spans, notes: [] };
  const shown = JSON.stringify(own);
  return {
    spans: spans.map((s) => ({ ...s, start: lineStart(s.start) })),
    notes: [
      `old_string matched after the line's indentation and new_string starts with its own (${shown}): it replaced the line's, not added to it`,
    ],
    tolerance: 'indentation',
    alternative: { spans, notes: [] },
  };
};

/** Typographic punctuation as ASCII on both sides; the text keeps its own characters outside the replacement. */
const typographic: Stage = (text, oldText, newText) => {
  const found = exact(asciiPunctuation(text), asciiPunctuation(oldText), newText);
  return found && { ...found, tolerance: 'typographic' };
};

/** Blank lines at either end of a snippet, counted. */
function blankEdges(lines: readonly string[]): { lead: number; trail: number } {
  let lead = 0;
  while (lead < lines.length && lines[lead]!.trim() === '') lead++;
  let trail = 0;
  while (trail < lines.length - lead && lines[lines.length - 1 - trail]!.trim() === '') trail++;
  return { lead, trail };
}

/** Whole lines equal but for indentation and whitespace; new_string re-based onto the file's indentation. */
const lines: Stage = (text, oldText, newText) => {
  const oldAll = snippetLines(oldText);
  const newAll = snippetLines(newText);
  const oldEdges = blankEdges(oldAll);
  const newEdges = blankEdges(newAll);
  const oldLines = oldAll.slice(oldEdges.lead, oldAll.length - oldEdges.trail);
  if (oldLines.length === 0) return undefined;
  // Blank lines the model put at both ends of old_string and new_string go together.
  const lead = Math.min(oldEdges.lead, newEdges.lead);
  const trail = Math.min(oldEdges.trail, newEdges.trail);
  const newLines = newAll.slice(lead, newAll.length - trail);

  const fileLines = text.split('\n');
  const target = oldLines.map(canonicalLine);
  const canonical = fileLines.map(canonicalLine);
  const starts: number[] = [];
  for (let i = 0; i + target.length <= fileLines.length; i++) {
    if (target.every((t, j) => canonical[i + j] === t)) {
      starts.push(i);
      i += target.length - 1;
    }
  }
  if (starts.length === 0) return undefined;

  const lineOffsets = [0];
  for (const line of fileLines) lineOffsets.push(lineOffsets.at(-1)! + line.length + 1);
  const span = (start: number, replacement: string[]): Span => {
    const from = lineOffsets[start]!;
    const to = lineOffsets[start + oldLines.length]! - 1;
    if (replacement.length > 0) return { start: from, end: to, text: replacement.join('\n') };
    // Nothing in place of the lines: take a line break with them.
    return to < text.length
      ? { start: from, end: to + 1, text: '' }
      : { start: Math.max(0, from - 1), end: to, text: '' };
  };
  const readings = starts.map((start) =>
    rebase(newLines, oldLines, fileLines.slice(start, start + oldLines.length), fileLines),
  );
  const where = starts.map((s) => `${s + 1}-${s + oldLines.length}`).join(', ');
  const matched = `old_string matched only ignoring indentation and whitespace (lines ${where})`;
  const notesOf = (note: string | undefined): string[] => [note ? `${matched}; ${note}` : matched];
  const first = readings[0]!;
  const alternatives = readings.map((r) => r.alternative);
  return {
    spans: starts.map((s, k) => span(s, readings[k]!.lines)),
    notes: notesOf(first.note),
    tolerance: 'indentation',
    alternative: alternatives.every((a) => a !== undefined)
      ? {
          spans: starts.map((s, k) => span(s, alternatives[k]!.lines)),
          notes: notesOf(alternatives[0]!.note),
        }
      : undefined,
  };
};

/** old_string without its edge whitespace, runs of whitespace inside a line of any length. */
const fragment: Stage = (text, oldText, newText) => {
  const pattern = fragmentPattern(asciiPunctuation(oldText));
  if (!pattern) return undefined;
  const replacement = trimLikeOld(oldText, newText);
  const spans = [...asciiPunctuation(text).matchAll(pattern)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    text: replacement,
  }));
  if (spans.length === 0) return undefined;
  const note = 'old_string matched only ignoring whitespace at its edges and inside lines';
  return { spans, notes: [note], tolerance: 'whitespace' };
};

const STAGES: readonly Stage[] = [exact, typographic, lines, fragment];

/** Typographic characters the model put in old_string but the file does not have are ASCII in new_string too. */
function withAsciiPunctuation(text: string, oldText: string, found: Found): Found {
  if (found.tolerance === undefined) return found;
  const regions = found.spans.map((s) => text.slice(s.start, s.end));
  if (!hasTypographic(oldText) && !regions.some(hasTypographic)) return found;
  const note = 'typographic dashes and quotes were matched as their ASCII forms';
  if (!hasTypographic(oldText) || regions.some(hasTypographic))
    return { ...found, notes: [...found.notes, note] };
  const ascii = (spans: Span[]): Span[] => spans.map((s) => ({ ...s, text: asciiPunctuation(s.text) }));
  return {
    ...found,
    spans: ascii(found.spans),
    notes: [...found.notes, `${note} (new_string's too)`],
    alternative: found.alternative && { ...found.alternative, spans: ascii(found.alternative.spans) },
  };
}

function applySpans(text: string, spans: readonly Span[]): string {
  let result = text;
  for (const span of [...spans].sort((a, b) => b.start - a.start))
    result = result.slice(0, span.start) + span.text + result.slice(span.end);
  return result;
}

function ambiguous(text: string, found: Found, tolerated: boolean): string {
  const fileLines = text.split('\n');
  const shown = found.spans.slice(0, 10).map((s) => {
    const from = lineAt(text, s.start);
    const to = lineAt(text, Math.max(s.start, s.end - 1));
    const range = from === to ? `line ${from}` : `lines ${from}-${to}`;
    return `  ${range}: ${fileLines[from - 1]!.trim()}`;
  });
  const more = found.spans.length > 10 ? '\n  …' : '';
  const how = tolerated ? ' ignoring whitespace or punctuation' : '';
  return (
    `old_string matches ${found.spans.length} times${how}:\n${shown.join('\n')}${more}\n` +
    'Include more surrounding lines to make it unique, or pass replace_all: true.'
  );
}

/** One replacement on `text` (LF line endings), reporting what it did or why it could not. */
export function applyEdit(text: string, edit: Edit, check?: SyntaxCheck): EditResult {
  const { old_string: oldText, new_string: newText } = edit;
  if (oldText === '') return { ok: false, error: 'old_string is empty; use write_file to create a file' };
  if (oldText === newText) return { ok: false, error: 'old_string and new_string are identical' };
  const placeholders = newPlaceholders(oldText, newText);
  if (placeholders.length > 0) {
    return {
      ok: false,
      error:
        `new_string has an omission placeholder that old_string does not: ${placeholders.map((p) => `\`${p}\``).join(', ')}. ` +
        'edit_file writes new_string literally, so this would replace code with the placeholder. ' +
        'Write out the full text, or choose a smaller old_string that covers only what changes.',
    };
  }

  const variants = [{ oldText, newText, note: undefined as string | undefined }];
  const unescaped = unescapeOnce(oldText);
  if (unescaped !== oldText) {
    const unescapedNew = unescapeOnce(newText);
    const same = unescapedNew !== newText ? '; new_string was unescaped the same way' : '';
    const note = `old_string matched only with one level of escaping taken off (\\" → ", \\n → a line break)${same}`;
    variants.push({ oldText: unescaped, newText: unescapedNew, note });
  }
  for (const variant of variants) {
    for (const stage of STAGES) {
      const raw = stage(text, variant.oldText, variant.newText);
      if (!raw) continue;
      const found = withAsciiPunctuation(text, variant.oldText, raw);
      const tolerated = found.tolerance !== undefined || variant.note !== undefined;
      if (found.spans.length > 1 && !edit.replace_all)
        return { ok: false, error: ambiguous(text, found, tolerated) };
      let chosen: { spans: Span[]; notes: string[] } = found;
      // The reading of new_string's indentation that leaves the file whole, when only the other one does.
      if (check && found.alternative && check(text, applySpans(text, found.spans)) !== undefined) {
        if (check(text, applySpans(text, found.alternative.spans)) === undefined) chosen = found.alternative;
      }
      const notes = variant.note ? [variant.note, ...chosen.notes] : chosen.notes;
      return { ok: true, text: applySpans(text, chosen.spans), replacements: chosen.spans.length, notes };
    }
  }
  return {
    ok: false,
    error: `old_string not found.\n${nearestRegion(text.split('\n'), snippetLines(oldText))}`,
  };
}

/**
 * Several edits applied in order to one text: all of them, or none (the first failure names its edit). With a
 * check, a result it refuses is refused whole, so nothing that breaks the file is reported as success.
 */
export function applyEdits(text: string, edits: readonly Edit[], check?: SyntaxCheck): EditResult {
  let current = text;
  let replacements = 0;
  const notes: string[] = [];
  const none = edits.length > 1 ? '\nNo edits were applied.' : '';
  for (const [i, edit] of edits.entries()) {
    const result = applyEdit(current, edit, check);
    const label = edits.length > 1 ? `edit ${i + 1} of ${edits.length}: ` : '';
    if (!result.ok) return { ok: false, error: `${label}${result.error}${none}` };
    current = result.text;
    replacements += result.replacements;
    notes.push(...result.notes.map((note) => label + note));
  }
  const broken = check?.(text, current);
  if (broken !== undefined) return { ok: false, error: `${broken}${none || '\nThe file was not changed.'}` };
  return { ok: true, text: current, replacements, notes };
}
