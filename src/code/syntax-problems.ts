// Syntax problems of a source text, for checking an edit: tree-sitter's error nodes, its missing nodes near the
// changed lines, and for Python the indentation and placement errors CPython would report (the grammar tolerates
// those: a `yield` dedented to class level).
import { type AstNode, napi } from './ast-grep.js';
import type { LanguageSpec } from './languages.js';
import { pythonIndentProblems } from './python-indent.js';
import { pythonStructureProblems } from './python-structure.js';

export interface SyntaxProblem {
  /** 1-based. */
  line: number;
  message: string;
}

interface Node {
  kind(): string;
  isLeaf(): boolean;
  range(): { start: { line: number; index: number }; end: { line: number; index: number } };
  children(): Node[];
  findAll(rule: { rule: { kind: string } }): Node[];
}

/**
 * Missing nodes (zero-width leaves tree-sitter inserted to recover) on lines `from`-`to` (0-based): walking the
 * whole tree costs about a second on a large file, so only the branches over the changed lines are visited.
 */
function missingNodes(node: Node, from: number, to: number, out: SyntaxProblem[]): void {
  const { start, end } = node.range();
  if (end.line < from || start.line > to) return;
  if (start.index === end.index && node.isLeaf() && node.kind() !== '') {
    out.push({ line: start.line + 1, message: `missing \`${node.kind()}\`` });
    return;
  }
  for (const child of node.children()) missingNodes(child, from, to, out);
}

/**
 * The problems of `text` in this language, with missing nodes looked for on lines `from`-`to` (1-based), or
 * undefined when the parser cannot be loaded (a check that cannot run does not block an edit).
 */
export function syntaxProblems(
  lang: LanguageSpec,
  text: string,
  from: number,
  to: number,
): SyntaxProblem[] | undefined {
  let root: Node;
  try {
    root = napi().parse(lang.astGrep, text).root() as unknown as Node;
  } catch {
    return undefined;
  }
  const problems: SyntaxProblem[] = root
    .findAll({ rule: { kind: 'ERROR' } })
    .map((node) => ({ line: node.range().start.line + 1, message: 'syntax error' }));
  missingNodes(root, from - 1, to - 1, problems);
  if (lang.id === 'python')
    problems.push(...pythonIndentProblems(text), ...pythonStructureProblems(root as unknown as AstNode));
  return problems.sort((a, b) => a.line - b.line);
}
