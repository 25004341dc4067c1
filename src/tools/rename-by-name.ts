// rename_symbol without a language service: a Python function's local or parameter renamed in that function alone,
// and the check every rename by name gets before it is written — the changed files parse as before (tree-sitter,
// with CPython's indentation and placement rules for Python) — with what it could not check said plainly.
import path from 'node:path';
import { localBindingAt } from '../code/python-locals.js';
import { IDENTIFIER } from '../code/rename.js';
import { introducedProblems } from './edit-check.js';
import type { SymbolTarget } from './symbol-target.js';

export interface RenamedText {
  path: string;
  before: string;
  after: string;
  count: number;
}

type LocalTarget = Extract<SymbolTarget, { kind: 'local' }>;

/** Python's keywords: valid identifiers to the pattern, never names. */
const PYTHON_KEYWORDS = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except finally for from ' +
    'global if import in is lambda nonlocal not or pass raise return try while with yield'
  ).split(' '),
);

/** What a local target is, for results: `the local variable auth of Session.prepare_request (lines 4-10)`. */
export function describeLocal(target: LocalTarget): string {
  const { local, name } = target;
  const what = local.parameter ? 'parameter' : 'local variable';
  return `the ${what} ${name} of ${local.scope.name} (${target.path}:${local.scope.line}-${local.scope.endLine})`;
}

/** The note a local's rename or references end with: what was searched, and what was not. */
export function localNote(target: LocalTarget, renamed: boolean): string {
  const head = `(by name, no language service for this file: ${describeLocal(target)}, ${renamed ? 'renamed' : 'its uses'} in that function only`;
  // A caller may pass a parameter by keyword (`prepare(auth=…)`): the function's body alone cannot say.
  const callers = target.local.parameter
    ? `; calls passing it by keyword (\`${target.name}=…\`) are not ${renamed ? 'renamed' : 'listed'}: check them`
    : '';
  return `${head}${callers})`;
}

/** The file a local's rename writes, or why it cannot be done. */
export function renameLocal(target: LocalTarget, newName: string): RenamedText | string {
  if (!IDENTIFIER.test(newName) || newName.includes('$') || PYTHON_KEYWORDS.has(newName))
    return `${newName} is not a valid Python name`;
  if (newName === target.name) return 'the new name is the same as the old one';
  const taken = localBindingAt(target.source, target.name, target.line, target.column, newName)?.takenAt;
  if (taken !== undefined)
    return `${newName} is already used in ${target.local.scope.name} (${target.path}:${taken}): renaming ${target.name} to it would join two names; pick another`;
  let after = '';
  let at = 0;
  for (const o of target.local.occurrences) {
    after += target.source.slice(at, o.start) + newName;
    at = o.end;
  }
  after += target.source.slice(at);
  return { path: target.path, before: target.source, after, count: target.local.occurrences.length };
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
