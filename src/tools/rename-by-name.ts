// The check a rename_symbol without a language service gets before it is written: the changed files parse as before
// (tree-sitter, with CPython's indentation and placement rules for Python); what it could not check said plainly.
import path from 'node:path';
import { introducedProblems } from './edit-check.js';

export interface RenamedText {
  path: string;
  before: string;
  after: string;
  count: number;
}

/** Most problems named when a rename is refused. */
const MAX_PROBLEMS = 10;

/**
 * A rename by name checked before it is written: refused when a changed file would have a syntax problem it does
 * not have now; otherwise a note of what was checked and what was not (no language service: types, imports and
 * attribute uses are not).
 */
export function checkByName(
  files: readonly RenamedText[],
  name: string,
  newName: string,
): { refuse: string } | { note: string } {
  const problems: string[] = [];
  const unchecked: string[] = [];
  for (const file of files) {
    const added = introducedProblems(file.path, file.before, file.after);
    if (added === undefined) unchecked.push(file.path);
    else for (const p of added) problems.push(`${file.path}:${p.line}: ${p.message}`);
  }
  if (problems.length > 0) {
    const more = problems.length > MAX_PROBLEMS ? [`and ${problems.length - MAX_PROBLEMS} more`] : [];
    const head = `renaming ${name} to ${newName} would leave ${problems.length} syntax problem${problems.length === 1 ? '' : 's'} the files do not have now; nothing was written:`;
    return { refuse: [head, ...problems.slice(0, MAX_PROBLEMS), ...more].join('\n') };
  }
  const extensions = [...new Set(files.map((f) => path.extname(f.path)))].join(', ');
  const checked =
    unchecked.length < files.length
      ? `checked: the changed files parse as before${files.some((f) => /\.pyi?$/.test(f.path)) ? " (Python's indentation and placement rules too)" : ''}`
      : 'not checked for syntax';
  const skipped =
    unchecked.length > 0 && unchecked.length < files.length
      ? `; not parsed: ${unchecked.slice(0, 5).join(', ')}${unchecked.length > 5 ? ` and ${unchecked.length - 5} more` : ''}`
      : '';
  return {
    note: `(${checked}${skipped}; not checked: types, imports and uses through attributes, which need a language service for ${extensions} files)`,
  };
}
