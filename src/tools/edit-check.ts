// The check an edit_file result must pass, for languages with a parser: no syntax problem the file did not have
// before (for Python, indentation included); otherwise the edit is refused with the region around the new problem.
import { languageOf } from '../code/languages.js';
import { type SyntaxProblem, syntaxProblems } from '../code/syntax-problems.js';
import type { SyntaxCheck } from './edit-match.js';
import { numberedRegion } from './edit-nearest.js';

/** Larger files are not parsed for the check: two parses per edit would cost seconds. */
const MAX_CHECKED_CHARS = 512 * 1024;

/** Grammars that lag their language (Dart 3's patterns and `sealed` parse as errors): checking would refuse valid code. */
const UNCHECKED = new Set(['dart']);

/** The 1-based line on which `offset` falls. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** The changed lines of each text (1-based, inclusive), from the common prefix and suffix. */
function changedLines(before: string, after: string): { before: [number, number]; after: [number, number] } {
  const limit = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < limit && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < limit - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix])
    suffix++;
  return {
    before: [lineAt(before, prefix), lineAt(before, before.length - suffix)],
    after: [lineAt(after, prefix), lineAt(after, after.length - suffix)],
  };
}

/** Problems of the result not in the original, matched by message and the text of their line (lines move). */
function introduced(
  before: readonly SyntaxProblem[],
  beforeText: string,
  after: readonly SyntaxProblem[],
  afterText: string,
): SyntaxProblem[] {
  const key = (p: SyntaxProblem, lines: readonly string[]): string =>
    `${p.message}|${lines[p.line - 1]?.trim()}`;
  const beforeLines = beforeText.split('\n');
  const afterLines = afterText.split('\n');
  const old = new Map<string, number>();
  for (const p of before) old.set(key(p, beforeLines), (old.get(key(p, beforeLines)) ?? 0) + 1);
  return after.filter((p) => {
    const k = key(p, afterLines);
    const left = old.get(k) ?? 0;
    if (left > 0) old.set(k, left - 1);
    return left === 0;
  });
}

/**
 * The syntax problems `after` has that `before` did not (changed lines first), for a file of this path; undefined
 * when it cannot be checked (no parser for its language here, or over 512 KB).
 */
export function introducedProblems(file: string, before: string, after: string): SyntaxProblem[] | undefined {
  return problemsOf(file)?.(before, after);
}

type Problems = (before: string, after: string) => SyntaxProblem[] | undefined;

function problemsOf(file: string): Problems | undefined {
  const lang = languageOf(file);
  if (!lang || UNCHECKED.has(lang.id)) return undefined;
  const memo = new Map<string, SyntaxProblem[] | undefined>();
  const problems = (text: string, [from, to]: [number, number]): SyntaxProblem[] | undefined => {
    const key = `${from},${to}\u0000${text}`;
    if (!memo.has(key)) memo.set(key, syntaxProblems(lang, text, from, to));
    return memo.get(key);
  };
  return (before, after) => {
    if (after.length > MAX_CHECKED_CHARS) return undefined;
    if (before === after) return [];
    const changed = changedLines(before, after);
    const was = problems(before, changed.before);
    const is = problems(after, changed.after);
    if (!was || !is) return undefined;
    if (is.length <= was.length) return [];
    const added = introduced(was, before, is, after);
    const inside = (p: SyntaxProblem) => p.line >= changed.after[0] && p.line <= changed.after[1];
    return [...added.filter(inside), ...added.filter((p) => !inside(p))];
  };
}

/** The syntax check for edits of this file, or undefined when its language has no parser here. */
export function syntaxCheckFor(file: string): SyntaxCheck | undefined {
  const problems = problemsOf(file);
  if (!problems) return undefined;
  return (before, after) => {
    const first = problems(before, after)?.[0];
    if (!first) return undefined;
    const region = numberedRegion(after.split('\n'), first.line, first.line);
    return (
      `the edit would leave a problem the file does not have now: ${first.message} (line ${first.line}). ` +
      `The result would read:\n${region}\n` +
      "Check new_string's indentation and brackets against the file's " +
      '(if the code is valid and the parser does not know this syntax, use write_file).'
    );
  };
}
