// Where CPython's compiler lets a statement stand, which tree-sitter's Python grammar does not check: `return`,
// `yield` and `await` only in a function, `break` and `continue` only in a loop. An edit or a rename that dedents a
// line too far leaves it there (a `yield` at class level), and the file then fails to compile although it parses.
import type { AstNode } from './ast-grep.js';

export interface StructureProblem {
  /** 1-based. */
  line: number;
  message: string;
}

const FUNCTIONS = new Set(['function_definition', 'lambda']);
const LOOPS = new Set(['for_statement', 'while_statement']);

/** The statements checked, with CPython's message when one stands where it may not. */
const RULES: { kind: string; needs: 'function' | 'loop'; message: string }[] = [
  { kind: 'return_statement', needs: 'function', message: "'return' outside function" },
  { kind: 'yield', needs: 'function', message: "'yield' outside function" },
  { kind: 'await', needs: 'function', message: "'await' outside function" },
  { kind: 'break_statement', needs: 'loop', message: "'break' outside loop" },
  { kind: 'continue_statement', needs: 'loop', message: "'continue' not properly in loop" },
];

/** Whether `node` stands in what it needs: a function (a class body is none), or a loop's body in the same function. */
function placed(node: AstNode, needs: 'function' | 'loop'): boolean {
  let from = node;
  for (const outer of node.ancestors()) {
    const kind = outer.kind();
    if (needs === 'function') {
      if (FUNCTIONS.has(kind)) return true;
      if (kind === 'class_definition') return false;
    } else {
      // A loop's `else:` runs after the loop: a `break` there is the enclosing loop's, if any.
      if (LOOPS.has(kind) && from.kind() !== 'else_clause') return true;
      if (FUNCTIONS.has(kind) || kind === 'class_definition') return false;
    }
    from = outer;
  }
  return false;
}

/** The statements of a Python syntax tree standing where CPython refuses them, by line (1-based). */
export function pythonStructureProblems(root: AstNode): StructureProblem[] {
  const problems: StructureProblem[] = [];
  for (const rule of RULES)
    for (const node of root.findAll({ rule: { kind: rule.kind } }))
      if (!placed(node, rule.needs))
        problems.push({ line: node.range().start.line + 1, message: rule.message });
  return problems;
}
